package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"mafiaclub/internal/club"
	"mafiaclub/internal/hostview"
	"mafiaclub/internal/telegram"
	"mafiaclub/mafia"
	"mafiaclub/mafia/spectator"
)

// The club's Telegram on the site (issue 28): a member links his chat from /me/telegram (a one-time code, or the
// bot's deep link) and unlinks it there; an admin sets the bot's token and the channel and reads the failures at
// /admin/telegram. The bot's and the sender's texts come from the same catalogues (LANG.telegram.json), through
// TelegramTexts and TelegramRender.

// tgEscape escapes a text for Telegram's HTML, which asks only for these three.
var tgEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace

// TelegramTexts is the bot's texts (telegram.Texts) from the site's catalogues.
func (s *Server) TelegramTexts() telegram.Texts { return tgTexts{s} }

type tgTexts struct{ s *Server }

func (x tgTexts) T(lang, key string, args ...any) string {
	return tgEscape(x.s.Catalog.T(lang, key, args...))
}

// Error says a refusal: the club's own words for it where the catalogue has them (not the site's "check the
// form"), else as the site says it.
func (x tgTexts) Error(lang string, err error) string {
	var ce *club.Error
	if errors.As(err, &ce) && ce.Code != club.Internal && club.RuleError(err) == nil {
		if m, ok := x.s.domainText(lang, ce); ok {
			return tgEscape(upperFirst(m))
		}
	}
	return tgEscape(x.s.errorText(lang, err))
}

func upperFirst(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}

func (x tgTexts) Lang(u *club.User, telegramLang string) string {
	for _, l := range []string{func() string {
		if u != nil {
			return u.Lang
		}
		return ""
	}(), strings.ToLower(strings.SplitN(telegramLang, "-", 2)[0])} {
		if _, ok := x.s.Catalog[l]; ok && l != "" {
			return l
		}
	}
	return Languages[0]
}

func (x tgTexts) when(n club.ClubNight) string {
	return n.StartsAt.In(x.s.zone()).Format("2006-01-02 15:04")
}

func (x tgTexts) NightLine(lang string, n club.ClubNight) string {
	return x.when(n) + " · " + n.Place
}

// Night says a night (when, where, the places taken) and the member's standing, the cancellation's deadline in
// the club's zone.
func (x tgTexts) Night(lang string, st *club.NightStand) string {
	T := x.T
	n := st.Night
	var b strings.Builder
	b.WriteString("<b>" + tgEscape(x.NightLine(lang, n)) + "</b>\n")
	b.WriteString(tgEscape(x.s.Catalog.N(lang, "tg.places.n", n.MainSize(), n.Main, n.Reserve)))
	if n.Note != "" {
		b.WriteString("\n" + T(lang, "notice.note", n.Note))
	}
	b.WriteString("\n\n")
	switch {
	case n.IsCancelled():
		b.WriteString(T(lang, "nights.cancelled"))
	case st.Registered() && st.Reg.State == club.RegMain:
		b.WriteString("<b>" + T(lang, "tg.stand.main") + "</b>")
	case st.Registered():
		b.WriteString("<b>" + T(lang, "tg.stand.reserve", st.Place) + "</b>")
	case st.Reg != nil && st.Reg.Late:
		b.WriteString(T(lang, "tg.stand.cancelled_late"))
	case st.Reg != nil:
		b.WriteString(T(lang, "tg.stand.cancelled"))
	default:
		b.WriteString(T(lang, "tg.stand.none"))
	}
	if !n.IsCancelled() && x.s.now().Before(n.StartsAt) {
		lastDay := club.CancelDeadline(n, x.s.zone()).AddDate(0, 0, -1).Format("2006-01-02")
		b.WriteString("\n" + T(lang, "tg.deadline", lastDay))
	}
	return b.String()
}

// TelegramRender writes a message of the Telegram outbox (the sender's notify.TelegramRender): a notice in its
// member's language, as his inbox says it; a channel's post in the club's default language.
func (s *Server) TelegramRender(ctx context.Context, m club.TelegramMessage) (string, telegram.Keyboard, bool) {
	x := tgTexts{s}
	if m.Notice.ID != 0 {
		lang := x.Lang(&club.User{Lang: m.Lang}, "")
		title, lines := s.noticeText(lang, m.Notice)
		var b strings.Builder
		b.WriteString("<b>" + tgEscape(s.clubName(ctx, lang)+": "+title) + "</b>")
		for _, l := range lines {
			b.WriteString("\n" + tgEscape(l))
		}
		var k telegram.Keyboard
		if m.Notice.NightID != 0 && s.PublicURL != "" {
			k = telegram.Keyboard{{{Text: x.T(lang, "tg.btn.open"), URL: s.link("/nights/" + strconv.FormatInt(m.Notice.NightID, 10))}}}
		}
		return b.String(), k, true
	}
	return s.channelPost(ctx, m.Post)
}

// link is an address of the club's site for a message, PublicURL + Base + p ("" when the site's public address is
// not set).
func (s *Server) link(p string) string {
	if s.PublicURL == "" {
		return ""
	}
	return strings.TrimRight(s.PublicURL, "/") + s.path(p)
}

// channelPost writes a post of the club's channel from its key.
func (s *Server) channelPost(ctx context.Context, key string) (string, telegram.Keyboard, bool) {
	x := tgTexts{s}
	lang := Languages[0]
	kind, rest, _ := strings.Cut(key, ":")
	idText, more, _ := strings.Cut(rest, ":")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return "", nil, false
	}
	cfg, _ := s.svc.Telegram.Config(ctx)
	open := func(path string) telegram.Keyboard {
		if l := s.link(path); l != "" {
			return telegram.Keyboard{{{Text: x.T(lang, "tg.btn.open"), URL: l}}}
		}
		return nil
	}
	var b strings.Builder
	switch kind {
	case "night", "lineup":
		n, err := s.svc.Nights.Night(ctx, id)
		if err != nil || n.IsCancelled() {
			return "", nil, false
		}
		path := "/nights/" + idText
		b.WriteString("<b>" + x.T(lang, "tg.post."+kind) + "</b>\n" + tgEscape(x.NightLine(lang, *n)) + "\n")
		if kind == "night" {
			b.WriteString(tgEscape(s.Catalog.N(lang, "tg.places.n", n.MainSize(), n.Main, n.Reserve)))
			if n.Note != "" {
				b.WriteString("\n" + x.T(lang, "notice.note", n.Note))
			}
			if cfg.Bot != "" { // the bot's deep link: the member registers in his own chat, as himself
				return b.String(), telegram.Keyboard{{{Text: x.T(lang, "tg.btn.register"), URL: "https://t.me/" + url.PathEscape(cfg.Bot) + "?start=night-" + idText}}}, true
			}
			return b.String(), open(path), true
		}
		main, reserve, err := s.svc.Telegram.ChannelLineUp(ctx, id)
		if err != nil {
			return "", nil, false
		}
		b.WriteString(x.T(lang, "tg.post.main", strings.Join(main, ", ")))
		if len(reserve) > 0 {
			b.WriteString("\n" + x.T(lang, "tg.post.reserve", strings.Join(reserve, ", ")))
		}
		return b.String(), open(path), true
	case "live":
		st, err := s.svc.Live.Game(ctx, id, spectator.Public)
		if err != nil {
			return "", nil, false
		}
		b.WriteString("<b>" + x.T(lang, "tg.post.live", id) + "</b>\n" + x.T(lang, "tg.post.host", st.Game.HostName))
		return b.String(), open("/live/" + idText), true
	case "result":
		st, err := s.svc.Records.Public(ctx, id)
		if err != nil || st.Game.Status != club.GameSaved {
			return "", nil, false
		}
		res := st.Play.Result()
		b.WriteString("<b>" + x.T(lang, "tg.post.result", id) + "</b>\n" + x.T(lang, "winner."+st.Play.Winner().String()))
		type seatPoints struct {
			name string
			pts  int
		}
		var seats []seatPoints
		for _, sr := range res.Seats {
			seats = append(seats, seatPoints{st.Game.Seats[sr.Seat-1].Name, sr.Points})
		}
		sort.SliceStable(seats, func(i, j int) bool { return seats[i].pts > seats[j].pts })
		for i, sp := range seats {
			if i == 3 {
				break
			}
			b.WriteString("\n" + tgEscape(strconv.Itoa(i+1)+". "+sp.name+" "+hostview.PointsIn(lang, sp.pts)))
		}
		if bm := bestMove(st); bm != "" {
			b.WriteString("\n" + x.T(lang, "tg.post.best_move", bm))
		}
		return b.String(), open("/history/" + idText), true
	case "round":
		round, _ := strconv.Atoi(more)
		stage, tour, err := s.svc.Telegram.ChannelStage(ctx, id)
		if err != nil {
			return "", nil, false
		}
		lines, parts, err := s.svc.Tournaments.Standings(ctx, tour.ID, "")
		if err != nil {
			return "", nil, false
		}
		b.WriteString("<b>" + x.T(lang, "tg.post.round", tour.Name, stage.Name, round) + "</b>")
		for i, l := range lines {
			if i == 10 {
				break
			}
			b.WriteString("\n" + tgEscape(strconv.Itoa(l.Rank)+". "+parts[l.Participant].Name+" "+hostview.PointsIn(lang, l.Points)))
		}
		return b.String(), open("/tournaments/" + strconv.FormatInt(tour.ID, 10)), true
	}
	return "", nil, false
}

// bestMove is a saved game's best move as its record page says it: "#3 Nick: #5 #7".
func bestMove(st *club.State) string {
	for _, e := range st.Record.Events {
		if e.Type == mafia.EvBestMove && int(e.Seat) >= 1 && int(e.Seat) <= len(st.Game.Seats) {
			var named []string
			for _, t := range e.Targets[:e.NTargets] {
				named = append(named, "#"+strconv.Itoa(int(t)))
			}
			return "#" + strconv.Itoa(int(e.Seat)) + " " + st.Game.Seats[e.Seat-1].Name + ": " + strings.Join(named, " ")
		}
	}
	return ""
}

type telegramView struct {
	Page
	Link    *club.TelegramLink
	Code    string
	Expires string
	Deep    string // the bot's deep link with the code
	Bot     string
	On      bool // the club has a bot
	Error   string
}

// telegramPage is the member's Telegram: his link (or why it stopped), a new code, the unlink button.
func (s *Server) telegramPage(w http.ResponseWriter, r *http.Request) {
	s.renderTelegram(w, r, http.StatusOK, telegramView{})
}

func (s *Server) renderTelegram(w http.ResponseWriter, r *http.Request, code int, v telegramView) {
	p := s.page(r)
	p.Title = p.T("tg.title")
	v.Page = p
	var err error
	if v.Link, err = s.svc.Telegram.LinkOf(r.Context(), p.User); err != nil {
		s.fail(w, r, err)
		return
	}
	cfg, err := s.svc.Telegram.Config(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.On, v.Bot = cfg.Token != "", cfg.Bot
	if v.Code != "" && v.Bot != "" {
		v.Deep = "https://t.me/" + url.PathEscape(v.Bot) + "?start=" + v.Code
	}
	w.WriteHeader(code)
	s.render(w, "telegram", v)
}

// telegramLink gives the member a new one-time code.
func (s *Server) telegramLink(w http.ResponseWriter, r *http.Request) {
	code, exp, err := s.svc.Telegram.NewLinkCode(r.Context(), currentUser(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.renderTelegram(w, r, http.StatusOK, telegramView{Code: code, Expires: exp.In(s.zone()).Format("15:04")})
}

// telegramUnlink removes the member's link (the page asks for a confirmation first).
func (s *Server) telegramUnlink(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Telegram.Unlink(r.Context(), currentUser(r)); err != nil {
		s.fail(w, r, err)
		return
	}
	s.redirect(w, r, "/me/telegram")
}

// postWhat says in words which channel post a key names ("night:3": the club night 3's announcement; "round:T:R":
// tournament T's standings after round R).
func postWhat(p Page, key string) string {
	f := strings.Split(key, ":")
	switch {
	case len(f) == 2 && (f[0] == "night" || f[0] == "lineup" || f[0] == "live" || f[0] == "result"):
		return p.T("tg.admin.post."+f[0], f[1])
	case len(f) == 3 && f[0] == "round":
		return p.T("tg.admin.post.round", f[1], f[2])
	}
	return p.T("tg.admin.post", key)
}

type failureRow struct {
	club.TelegramMessage
	What, State, When string
}

type adminTelegramView struct {
	Page
	S        club.TelegramSettings
	Failures []failureRow
	Error    string
	Saved    bool
}

// adminTelegramPage is the admin's Telegram: the bot's token, the channel, and every message that failed with
// its reason.
func (s *Server) adminTelegramPage(w http.ResponseWriter, r *http.Request) {
	s.renderAdminTelegram(w, r, http.StatusOK, "", r.URL.Query().Get("saved") == "1")
}

func (s *Server) renderAdminTelegram(w http.ResponseWriter, r *http.Request, code int, errText string, saved bool) {
	p := s.page(r)
	p.Title = p.T("tg.admin.title")
	v := adminTelegramView{Page: p, Error: errText, Saved: saved}
	var err error
	if v.S, err = s.svc.Telegram.Settings(r.Context(), p.User); err != nil {
		s.fail(w, r, err)
		return
	}
	fails, err := s.svc.Telegram.Failures(r.Context(), p.User)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for _, m := range fails {
		row := failureRow{TelegramMessage: m, When: p.Time(m.At)}
		switch {
		case m.Notice.ID != 0:
			title, _ := s.noticeText(p.Lang, m.Notice)
			row.What = p.T("tg.admin.to_member", m.Name, title)
		default:
			row.What = postWhat(p, m.Post)
		}
		switch {
		case !m.SentAt.IsZero():
			row.State = p.T("tg.admin.sent_late", p.Time(m.SentAt))
		case !m.DroppedAt.IsZero():
			row.State = p.T("tg.admin.dropped", p.Time(m.DroppedAt))
		default:
			row.State = p.T("tg.admin.retrying")
		}
		v.Failures = append(v.Failures, row)
	}
	w.WriteHeader(code)
	s.render(w, "admin_telegram", v)
}

func (s *Server) saveAdminTelegram(w http.ResponseWriter, r *http.Request) {
	f := club.TelegramSettings{Token: r.PostFormValue("token"), ClearToken: r.PostFormValue("clear_token") == "on",
		Channel: r.PostFormValue("channel")}
	err := s.svc.Telegram.SetSettings(r.Context(), currentUser(r), f)
	switch club.ErrorCode(err) {
	case "":
		s.redirect(w, r, "/admin/telegram?saved=1")
	case club.Invalid:
		s.renderAdminTelegram(w, r, http.StatusBadRequest, s.errorText(s.page(r).Lang, err), false)
	default:
		s.fail(w, r, err)
	}
}

// telegramWebhook serves Telegram's webhook when the bot runs with one (Server.TelegramWebhook); 404 otherwise.
func (s *Server) telegramWebhook(w http.ResponseWriter, r *http.Request) {
	if s.TelegramWebhook == nil {
		http.NotFound(w, r)
		return
	}
	s.TelegramWebhook.ServeHTTP(w, r)
}
