package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/spectator"
)

// The live pages: the list of games being played, a game as a spectator sees it, the club's screen and the stream
// overlay, each followed through one server-sent event stream. What they show is club.Live's view (the public view
// of ../shared/spec/public-view.md, or the delayed broadcast), rendered here; nothing else of the game is read.

type liveSeatView struct {
	N                   int
	Name                string
	Photo               string // the photo's address, "" when none
	Alive               bool
	Out                 string
	Fouls, Warnings     int
	FoulText, WarnText  string // "2 fouls", said; "" for none
	Muted, Speaking     bool
	Candidate, LastWord bool
	Nominated           bool
	Role, RoleLetter    string // only when the view shows roles
	Black               bool
	Points              string // only at the end
}

type liveGameView struct {
	P         Page
	Broadcast bool   // the delayed broadcast with roles
	Delay     int    // its delay, minutes
	Phase     string // "Day 2"
	Night     bool
	Step      string
	StepSeat  int
	Limit     string // the step's time limit, "1:00"; "" when none
	Ends      int64  // when the running step's time is up, Unix milliseconds; 0 when it does not run
	Morning   string
	Voting    string // a cancelled vote, said
	Noms      []string
	Votes     []string
	Chrono    []string
	Finished  bool
	Winner    string
	Seats     []liveSeatView
	Speaker   string // the current speaker, for the screen and the overlay
	Layout    string // the overlay's layout: strip or frame
}

type liveListItem struct {
	ID     int64
	Where  string // the club night or the tournament's table
	Host   string
	Phase  string
	Out    []string
	Winner string
}

type liveListView struct {
	P     Page
	Games []liveListItem
}

// livePage is the page of one game, the screen or the overlay: the fragment and the stream that replaces it.
type livePage struct {
	Page
	ID        int64
	View      liveGameView
	Events    string // the stream's address
	Broadcast club.Broadcast
	Screen    string // the addresses of the screen and the overlays of this mode
	Overlay   string
	Public    string
	Mode      string
}

type liveListPage struct {
	Page
	List   liveListView
	Events string
	Delay  int // the club's default broadcast delay (shown to an admin)
}

// liveMode reads the view a request asks for: the public view, or the broadcast with ?mode=broadcast.
func liveMode(r *http.Request) spectator.Mode {
	if r.URL.Query().Get("mode") == "broadcast" {
		return spectator.Broadcast
	}
	return spectator.Public
}

// liveLang is the page's language: ?lang= (a streaming program's browser source has no cookie), else the reader's.
func (s *Server) liveLang(r *http.Request, p Page) Page {
	if l := r.URL.Query().Get("lang"); l != "" {
		for _, x := range Languages {
			if x == l {
				p.Lang = l
			}
		}
	}
	return p
}

func overlayLayout(r *http.Request) string {
	if r.URL.Query().Get("layout") == "frame" {
		return "frame"
	}
	return "strip"
}

// liveKind is a stream's rendering: the game's page, the screen, an overlay's layout, or the list.
type liveKind struct {
	Kind   string // "page", "screen", "overlay", "list"
	Lang   string
	Layout string
}

func (k liveKind) String() string { return k.Kind + "|" + k.Lang + "|" + k.Layout }

// eventsURL is the address of a page's stream. It names no view: the page drawn is not held as lines a delta could
// apply to (static/live.js), so the stream starts with the whole view.
func eventsURL(path string, mode spectator.Mode, k liveKind) string {
	q := url.Values{"kind": {k.Kind}, "lang": {k.Lang}}
	if k.Layout != "" {
		q.Set("layout", k.Layout)
	}
	if mode == spectator.Broadcast {
		q.Set("mode", "broadcast")
	}
	return path + "?" + q.Encode()
}

func (s *Server) livePage(w http.ResponseWriter, r *http.Request) {
	s.liveGamePage(w, r, "page")
}

func (s *Server) liveScreen(w http.ResponseWriter, r *http.Request) {
	s.liveGamePage(w, r, "screen")
}

func (s *Server) liveOverlay(w http.ResponseWriter, r *http.Request) {
	s.liveGamePage(w, r, "overlay")
}

func (s *Server) liveGamePage(w http.ResponseWriter, r *http.Request, kind string) {
	id, err := gameID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	mode := liveMode(r)
	if err := s.svc.Live.MayWatch(r.Context(), currentUser(r), id, mode); err != nil {
		s.fail(w, r, err)
		return
	}
	lg, err := s.svc.Live.Game(r.Context(), id, mode)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	b, err := s.svc.Live.Broadcast(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.liveLang(r, s.page(r))
	k := liveKind{Kind: kind, Lang: p.Lang}
	if kind == "overlay" {
		k.Layout = overlayLayout(r)
	}
	p.Title = p.T("live.game_title", id)
	v := livePage{Page: p, ID: id, View: s.liveGameView(p, lg, k), Broadcast: b,
		Events: eventsURL(s.path(fmt.Sprintf("/live/%d/events", id)), mode, k), Public: s.path(fmt.Sprintf("/live/%d", id))}
	suffix := ""
	if mode == spectator.Broadcast {
		v.Mode, suffix = "broadcast", "?mode=broadcast"
	}
	v.Screen = s.path(fmt.Sprintf("/live/%d/screen%s", id, suffix))
	v.Overlay = s.path(fmt.Sprintf("/live/%d/overlay%s", id, suffix))
	w.Header().Set("Cache-Control", "no-store")
	switch kind {
	case "page":
		s.render(w, "live_game", v)
	default:
		s.renderBare(w, "live_"+kind, v)
	}
}

func (s *Server) liveList(w http.ResponseWriter, r *http.Request) {
	list, err := s.svc.Live.List(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	p.Title = p.T("live.title")
	v := liveListPage{Page: p, List: s.liveListView(p, list)}
	v.Events = eventsURL(s.path("/live/events"), spectator.Public, liveKind{Kind: "list", Lang: p.Lang})
	if p.IsAdmin() {
		if v.Delay, err = s.svc.Live.DefaultDelay(r.Context()); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, "live", v)
}

// apiLive is a game's view as JSON: the same view as the pages, for other programs.
func (s *Server) apiLive(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	var lg *club.LiveGame
	if err == nil {
		err = s.svc.Live.MayWatch(r.Context(), currentUser(r), id, liveMode(r))
	}
	if err == nil {
		lg, err = s.svc.Live.Game(r.Context(), id, liveMode(r))
	}
	if err != nil {
		writeJSONError(w, err)
		return
	}
	mode := "public"
	if lg.Mode == spectator.Broadcast {
		mode = "broadcast"
	}
	view, _ := json.Marshal(lg.View)
	if lg.View != nil {
		v := *lg.View // shared with every reader: its times are given in the club's zone on a copy
		v.Since = s.apiStamp(v.Since)
		v.Lines = slices.Clone(v.Lines)
		for i := range v.Lines {
			v.Lines[i].At = s.apiStamp(v.Lines[i].At)
		}
		view, _ = json.Marshal(v)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintf(w, "{\"id\": %d, \"mode\": %q, \"delay_minutes\": %d, \"key\": %q, \"view\": %s}\n", id, mode, int(lg.Delay/time.Minute), lg.Key, view)
}

// liveEvents streams a game's view (or the list's, for the list's address) as server-sent events: one event
// "view" with the fragment to show each time the view changes, resumable with Last-Event-ID.
func (s *Server) liveEvents(w http.ResponseWriter, r *http.Request) {
	var id int64
	if r.PathValue("game") != "" {
		var err error
		if id, err = gameID(r); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	q := r.URL.Query()
	p := s.liveLang(r, s.page(r))
	k := liveKind{Kind: q.Get("kind"), Lang: p.Lang}
	switch {
	case id == 0:
		k.Kind = "list"
	case k.Kind == "overlay":
		k.Layout = overlayLayout(r)
	case k.Kind != "screen":
		k.Kind = "page"
	}
	mode := liveMode(r)
	if id == 0 {
		mode = spectator.Public
	}
	if id != 0 {
		if err := s.svc.Live.MayWatch(r.Context(), currentUser(r), id, mode); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if r.Method == http.MethodHead { // the head only: no place among the streams, no feed started for it
		if id != 0 {
			if _, err := s.svc.Live.Game(r.Context(), id, mode); err != nil {
				s.fail(w, r, err)
				return
			}
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		return
	}
	release, err := s.streamSlot(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer release()
	fd, topic, err := s.feeds.join(r.Context(), feedKey{id: id, mode: mode}, k)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer s.feeds.leave(fd)
	s.Stream.Serve(w, r, topic)
}

// setBroadcast sets a game's broadcast with roles: the club's default (delay empty) or its own delay (0: none).
func (s *Server) setBroadcast(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err == nil {
		own, minutes := false, 0
		if d := strings.TrimSpace(r.PostFormValue("delay")); d != "" {
			own = true
			if minutes, err = strconv.Atoi(d); err != nil {
				err = club.Errorf(club.Invalid, "a broadcast's delay is 0 to %d minutes", club.MaxBroadcastDelay)
			}
		}
		if err == nil {
			err = s.svc.Live.SetBroadcast(r.Context(), currentUser(r), id, minutes, own)
		}
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.Live.Publish(id, -1) // the broadcast's streams look again
	s.redirect(w, r, fmt.Sprintf("/live/%d", id))
}

// setDefaultBroadcast sets the club's default broadcast delay (0: none).
func (s *Server) setDefaultBroadcast(w http.ResponseWriter, r *http.Request) {
	minutes, err := strconv.Atoi(strings.TrimSpace(r.PostFormValue("delay")))
	if err != nil {
		err = club.Errorf(club.Invalid, "a broadcast's delay is 0 to %d minutes", club.MaxBroadcastDelay)
	} else {
		err = s.svc.Live.SetDefaultDelay(r.Context(), currentUser(r), minutes)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.Live.DeliverAll() // every broadcast looks again
	s.redirect(w, r, "/live")
}

// renderBare renders a page without the site's menu (the screen, the overlay).
func (s *Server) renderBare(w http.ResponseWriter, name string, data any) {
	t, ok := s.pages[name]
	if !ok {
		http.Error(w, "no page "+name, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := t.ExecuteTemplate(w, "live-bare", data); err != nil {
		s.Log.Error("render", "page", name, "err", err)
	}
}

// fragment renders the part of a live page its stream replaces.
func (s *Server) fragment(k liveKind, data any) []byte {
	var b bytes.Buffer
	name := "live-" + k.Kind
	if err := s.pages["live"].ExecuteTemplate(&b, name, data); err != nil {
		s.Log.Error("render", "fragment", name, "err", err)
	}
	// no indentation: a frame goes to every spectator, so the template's is not sent thousands of times; the lines
	// stay, since a delta (live.NewDelta) sends only the lines that changed
	return joinLines(bytes.TrimSpace(b.Bytes()))
}

// joinLines turns every run of white space (\t \n \f \r and the space) that holds a line break into one line
// break, in place: the lines without their indentation. It is what the regular expression `\s*\n\s*` replaced by
// "\n" does, at a twentieth of its cost (BenchmarkJoinLines; a frame is drawn for each rendering at every change
// of every watched game).
func joinLines(b []byte) []byte {
	out := b[:0]
	for i := 0; i < len(b); {
		if !isSpace(b[i]) {
			out = append(out, b[i])
			i++
			continue
		}
		j, br := i, false
		for j < len(b) && isSpace(b[j]) {
			br = br || b[j] == '\n'
			j++
		}
		if br {
			out = append(out, '\n')
		} else {
			out = append(out, b[i:j]...)
		}
		i = j
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// livePageFor is a page in a language for a stream's fragment: nobody's, with no address.
func (s *Server) livePageFor(lang string) Page {
	return Page{Lang: lang, Langs: Languages, cat: s.Catalog, zone: s.zone()}
}

func minutesSeconds(sec int) string { return fmt.Sprintf("%d:%02d", sec/60, sec%60) }

// liveGameView says a view in the page's language. It reads only the view: what the view does not hold, the page
// cannot show.
func (s *Server) liveGameView(p Page, lg *club.LiveGame, k liveKind) liveGameView {
	v := lg.View
	out := liveGameView{P: p, Broadcast: lg.Mode == spectator.Broadcast, Delay: int(lg.Delay / time.Minute), Finished: v.Finished,
		Night: v.Phase == "night", Layout: k.Layout}
	out.Phase = p.T("phase."+v.Phase, v.Number)
	if v.Finished {
		out.Winner = p.T("winner." + v.Winner)
	}
	for _, st := range v.Seats {
		sv := liveSeatView{N: st.N, Name: st.Name, Alive: st.Alive, Fouls: st.Fouls, Warnings: st.Warnings, Muted: st.Muted,
			Speaking: st.Speaking, Candidate: st.Candidate, LastWord: st.LastWord, Nominated: st.Nominated, Black: st.Black}
		if st.Fouls > 0 {
			sv.FoulText = p.T("live.fouls", st.Fouls)
		}
		if st.Warnings > 0 {
			sv.WarnText = p.T("live.warnings", st.Warnings)
		}
		if st.Out != "" {
			sv.Out = p.T("out."+st.Out, p.T("phase."+st.OutPhase, st.OutNumber))
		}
		if st.Role != "" {
			sv.Role = p.T("role." + st.Role)
			if r, ok := mafia.ParseRole(st.Role); ok {
				sv.RoleLetter = p.RoleLetter(r)
			}
		}
		if v.Points {
			sv.Points = p.PointsText(st.Points)
		}
		if i := st.N - 1; i < len(lg.Photos) && lg.Photos[i] {
			sv.Photo = s.path(fmt.Sprintf("/players/%d/photo", lg.Game.Seats[i].PlayerID))
		}
		if st.Speaking || (v.Step.Seat == st.N && (v.Step.Kind == "last_word" || v.Step.Kind == "best_move" || v.Step.Kind == "tie_speech")) {
			out.Speaker = fmt.Sprintf("#%d %s", st.N, st.Name)
		}
		out.Seats = append(out.Seats, sv)
	}
	out.Step, out.StepSeat = s.liveStepLabel(p, v), v.Step.Seat
	if v.Step.Limit > 0 && v.Step.Kind != "night" {
		out.Limit = minutesSeconds(v.Step.Limit)
		if v.Step.Running {
			if since, err := time.Parse(time.RFC3339, v.Since); err == nil {
				out.Ends = since.Add(lg.Delay + time.Duration(v.Step.Limit)*time.Second).UnixMilli()
			}
		}
	}
	if v.Morning {
		out.Morning = p.T("game.miss", v.Number)
		if v.Killed != 0 {
			out.Morning = p.T("game.killed", v.Number, v.Killed)
		}
	}
	if v.Voting == "cancelled" && !v.Finished {
		out.Voting = p.T("live.vote_cancelled")
	}
	for _, n := range v.Nominations {
		out.Noms = append(out.Noms, p.T("game.nomination", n.By, n.Target))
	}
	for _, l := range v.Votes {
		out.Votes = append(out.Votes, s.liveLine(p, l))
	}
	for i := len(v.Lines) - 1; i >= 0; i-- { // newest first
		l := v.Lines[i]
		at := ""
		if t, err := time.Parse(time.RFC3339, l.At); err == nil {
			at = p.Clock(t) + ", "
		}
		out.Chrono = append(out.Chrono, p.T("phase."+l.Phase, l.Number)+", "+at+s.liveLine(p, l))
	}
	return out
}

func (s *Server) liveStepLabel(p Page, v *spectator.View) string {
	st := v.Step
	switch {
	case v.Finished:
		return p.T("step.game_over")
	case st.Kind == "night":
		return p.T("live.step_night", v.Number)
	case st.Kind == "speech" && st.Speech == "lost":
		return p.T("step.speech_lost", st.Seat)
	case st.Kind == "speech" && st.Speech == "short":
		return p.T("step.speech_short", st.Seat)
	case st.Kind == "don_wake" || st.Kind == "sheriff_wake":
		role := mafia.NoRole
		if st.Seat >= 1 && st.Seat <= len(v.Seats) {
			role, _ = mafia.ParseRole(v.Seats[st.Seat-1].Role)
		}
		return p.T("step."+st.Kind, st.Seat, p.T("gesture."+mafia.RoleGesture(role).String()))
	case st.Kind == "":
		return ""
	case st.Seat != 0:
		return p.T("step."+st.Kind, st.Seat)
	}
	return p.T("step." + st.Kind)
}

// liveLine says one line of a view's chronology.
func (s *Server) liveLine(p Page, l spectator.Line) string {
	list := func(seats []int) string {
		if len(seats) == 0 {
			return "—"
		}
		parts := make([]string, len(seats))
		for i, x := range seats {
			parts[i] = "#" + strconv.Itoa(x)
		}
		return strings.Join(parts, " ")
	}
	var text string
	switch l.Type {
	case "day":
		text = p.T("ev.day")
		if l.Killed != 0 {
			text += " · " + p.T("game.killed", l.Number, l.Killed)
		} else if l.Number >= 2 {
			text += " · " + p.T("game.miss", l.Number)
		}
	case "night", "draw":
		text = p.T("ev." + l.Type)
	case "speech", "foul", "warning", "disqualify", "team_loss":
		text = p.T("ev."+l.Type, l.Seat)
	case "nominate", "shot", "heal":
		text = p.T("ev."+l.Type, l.Seat, l.Target)
	case "check":
		text = p.T("ev.check", l.Seat, l.Target, p.T("answer."+l.Answer))
	case "vote":
		text = p.T("ev.vote", l.Target, len(l.Voters), list(l.Voters))
	case "lift":
		text = p.T("ev.lift", len(l.Voters), list(l.Voters))
	case "best_move":
		text = p.T("ev.best_move", l.Seat, list(l.Targets))
	case "adjust":
		text = p.T("ev.adjust", l.Seat, p.SignedText(l.Points))
	default:
		text = l.Type
	}
	if l.Reason != "" {
		text += " — " + l.Reason
	}
	return text
}

func (s *Server) liveListView(p Page, list []club.LiveGame) liveListView {
	out := liveListView{P: p}
	for _, lg := range list {
		g, v := lg.Game, lg.View
		it := liveListItem{ID: g.ID, Host: g.HostName, Phase: p.T("phase."+v.Phase, v.Number)}
		switch {
		case g.StageID != 0:
			it.Where = p.T("live.where_table", g.TableNo, g.Round)
		case g.NightID != 0:
			it.Where = p.T("live.where_night", g.NightID)
		}
		if v.Finished {
			it.Winner = p.T("winner." + v.Winner)
		}
		for _, st := range v.Seats {
			if st.Out != "" {
				it.Out = append(it.Out, fmt.Sprintf("#%d %s", st.N, p.T("out."+st.Out, p.T("phase."+st.OutPhase, st.OutNumber))))
			}
		}
		out.Games = append(out.Games, it)
	}
	return out
}

// listKey identifies the list's content: its games and their views.
func listKey(list []club.LiveGame) string {
	h := sha256.New()
	for _, lg := range list {
		fmt.Fprintf(h, "%d:%s:%s\n", lg.Game.ID, lg.Key, lg.Game.HostName)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}
