package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/notify"
	"mafiaclub/internal/telegram"
	"mafiaclub/internal/telegram/telegramtest"
	"mafiaclub/internal/web"
)

// Issue 28: the club's Telegram, run against a local Bot API server of the test's own (telegramtest), and checked
// against the site's own pages.

const tgToken = "123456789:AAHfakeTOKENfakeTOKENfakeTOKEN1234"

type tgHarness struct {
	*harness
	clk    *clock
	fake   *telegramtest.Server
	bot    *telegram.Bot
	client *telegram.Client
	sender *notify.TelegramSender
	admin  *http.Client
	cat    web.Catalog
}

// newTG is a club whose admin set the bot's token on /admin/telegram, with the clock on 2026-12-01 12:00 UTC.
func newTG(t *testing.T) *tgHarness { return newTGOn(t, newHarness(t)) }

// newTGOn is newTG over the club of h.
func newTGOn(t *testing.T, h *harness) *tgHarness {
	g := &tgHarness{harness: h, clk: &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}, fake: telegramtest.New(t, tgToken), cat: mustCatalog(t)}
	svc := h.site.Services()
	svc.Clock.Set(g.clk.now)
	g.admin = h.login("admin", "demo-admin")
	if r := h.post(g.admin, "/admin/telegram", url.Values{"token": {tgToken}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("setting the token: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if err := svc.Telegram.SetBotName(context.Background(), telegramtest.BotName); err != nil { // as the runner's getMe does
		t.Fatal(err)
	}
	h.site.PublicURL = "https://club.example.org"
	g.bot = &telegram.Bot{Svc: svc, Texts: h.site.TelegramTexts(), Log: h.site.Log}
	g.client = &telegram.Client{API: g.fake.URL, Token: tgToken}
	g.sender = &notify.TelegramSender{Telegram: svc.Telegram, Render: h.site.TelegramRender, API: g.fake.URL, Log: h.site.Log}
	return g
}

// send hands the bot one update, as the poller does.
func (g *tgHarness) send(u telegram.Update) { g.bot.Handle(context.Background(), g.client, u) }

func (g *tgHarness) drain() { g.sender.Drain(context.Background()) }

var codeRe = regexp.MustCompile(`/start ([0-9A-Z]{10})`)

// code takes a new linking code from the member's page.
func (g *tgHarness) code(member *http.Client) string {
	g.t.Helper()
	r := g.post(member, "/me/telegram/link", nil)
	m := codeRe.FindStringSubmatch(r.Body)
	if r.StatusCode != http.StatusOK || m == nil {
		g.t.Fatalf("no code: %d %s", r.StatusCode, r.Body)
	}
	return m[1]
}

// link links a chat to the member, as he would: a code from his page, sent to the bot.
func (g *tgHarness) link(member *http.Client, chat int64) {
	g.t.Helper()
	g.send(telegramtest.Text(chat, "en", "/start "+g.code(member)))
	if r := g.get(member, "/me/telegram"); !strings.Contains(r.Body, `id="tg-linked"`) {
		g.t.Fatalf("chat %d not linked: %s", chat, g.fake.Last(chatOf(chat)).Text)
	}
}

func chatOf(id int64) string { return strconv.FormatInt(id, 10) }

// button is the data of the button whose text is the catalogue's key in lang, on the last message of chat.
func (g *tgHarness) button(chat int64, lang, key string) (data string, messageID int64) {
	g.t.Helper()
	want := g.cat.T(lang, key)
	last := g.fake.Last(chatOf(chat))
	for _, row := range last.Keyboard {
		for _, b := range row {
			if b.Text == want {
				return b.Data, last.MessageID
			}
		}
	}
	g.t.Fatalf("no button %q on the last message of chat %d: %q %+v", want, chat, last.Text, last.Keyboard)
	return "", 0
}

// press presses a button of the last message of chat, found by its text's key, and returns the answer's text.
func (g *tgHarness) press(chat int64, lang, key string) string {
	g.t.Helper()
	data, msg := g.button(chat, lang, key)
	return g.pressData(chat, msg, data)
}

func (g *tgHarness) pressData(chat, msg int64, data string) string {
	g.t.Helper()
	before := len(g.fake.Answers())
	g.send(telegramtest.Press(chat, chat, msg, data))
	a := g.fake.Answers()
	if len(a) != before+1 {
		g.t.Fatalf("the press of %q was not answered", data)
	}
	return a[len(a)-1].Text
}

// openNight has the bot show a night in the member's chat (the channel's deep link does the same).
func (g *tgHarness) openNight(chat int64, path string) {
	g.send(telegramtest.Text(chat, "en", "/start night-"+strings.TrimPrefix(path, "/nights/")))
}

func nightNumber(t *testing.T, path string) int64 {
	id, err := strconv.ParseInt(strings.TrimPrefix(path, "/nights/"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// A member links his chat once with a code from /me/telegram (single use, short-lived, its guessing bounded),
// unlinks it by /stop or from the site; a chat no account is linked to is told how to link, and nothing more.
func TestTelegramLinkAndUnlink(t *testing.T) {
	g := newTG(t)
	anna, _ := g.member("anna")
	if r := g.get(anna, "/me/telegram"); !strings.Contains(r.Body, `id="tg-none"`) {
		t.Fatalf("a member not linked: %s", r.Body)
	}
	if r := g.get(anna, "/me"); !strings.Contains(r.Body, g.cat.T("en", "tg.link")) {
		t.Error("/me offers no link to Telegram")
	}
	// a stranger's chat
	g.send(telegramtest.Text(555, "en", "/nights"))
	if got := g.fake.Last("555").Text; !strings.Contains(got, "not linked to a member") || len(g.fake.Last("555").Keyboard) != 0 {
		t.Errorf("an unknown chat: %q", got)
	}
	r := g.post(anna, "/me/telegram/link", nil)
	code := codeRe.FindStringSubmatch(r.Body)[1]
	if !strings.Contains(r.Body, "https://t.me/"+telegramtest.BotName+"?start="+code) {
		t.Errorf("no deep link to the bot with the code: %s", r.Body)
	}
	g.send(telegramtest.Text(777, "uk", "/start "+code))
	if got := g.fake.Last("777").Text; !strings.Contains(got, "This chat is linked to anna") { // his account's language, English
		t.Errorf("linking: %q", got)
	}
	if r := g.get(anna, "/me/telegram"); !strings.Contains(r.Body, `id="tg-linked"`) {
		t.Errorf("/me/telegram after linking: %s", r.Body)
	}
	// the code was used up: another chat sending it links nothing
	g.send(telegramtest.Text(888, "en", "/start "+code))
	if got := g.fake.Last("888").Text; !strings.Contains(got, "wrong or has expired") {
		t.Errorf("a used code: %q", got)
	}
	// an expired code
	late := g.code(anna)
	g.clk.t = g.clk.t.Add(club.LinkCodeTTL + time.Second)
	g.send(telegramtest.Text(888, "en", "/start "+late))
	if got := g.fake.Last("888").Text; !strings.Contains(got, "wrong or has expired") {
		t.Errorf("an expired code: %q", got)
	}
	// guessing: after five wrong codes the chat's sixth, even a right one, is refused for ten minutes
	for range 5 {
		g.send(telegramtest.Text(999, "en", "/start AAAAAAAAAA"))
	}
	good := g.code(anna)
	g.send(telegramtest.Text(999, "en", "/start "+good))
	if got := g.fake.Last("999").Text; !strings.Contains(got, "Too many wrong codes") {
		t.Errorf("the sixth attempt: %q", got)
	}
	// /stop unlinks
	g.send(telegramtest.Text(777, "en", "/stop"))
	if got := g.fake.Last("777").Text; !strings.Contains(got, "no longer linked to anna") {
		t.Errorf("/stop: %q", got)
	}
	if r := g.get(anna, "/me/telegram"); !strings.Contains(r.Body, `id="tg-none"`) {
		t.Errorf("/me/telegram after /stop: %s", r.Body)
	}
	g.send(telegramtest.Text(777, "en", "/nights"))
	if got := g.fake.Last("777").Text; !strings.Contains(got, "not linked") {
		t.Errorf("an unlinked chat: %q", got)
	}
	// linked again, then unlinked from the site
	g.link(anna, 777)
	if r := g.get(anna, "/me/telegram"); !strings.Contains(r.Body, `data-confirm="`+g.cat.T("en", "tg.unlink_confirm")) {
		t.Error("unlinking asks no confirmation")
	}
	if r := g.post(anna, "/me/telegram/unlink", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("unlink: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := g.get(anna, "/me/telegram"); !strings.Contains(r.Body, `id="tg-none"`) || strings.Contains(r.Body, `id="tg-unlink"`) {
		t.Errorf("/me/telegram after unlinking: %s", r.Body)
	}
	g.send(telegramtest.Text(777, "en", "/nights"))
	if got := g.fake.Last("777").Text; !strings.Contains(got, "not linked") {
		t.Errorf("a chat unlinked on the site: %q", got)
	}
}

// Every kind of notice reaches a linked member's chat, in his language, from the same outbox as the inbox's.
func TestTelegramNoticesInHisLanguage(t *testing.T) {
	g := newTG(t)
	ctx := context.Background()
	svc := g.site.Services()
	en, enUser := g.member("english")
	ru, ruUser := g.member("russian")
	if err := g.store.SetUserLang(ctx, ruUser.ID, "ru"); err != nil {
		t.Fatal(err)
	}
	g.link(en, 1001)
	g.link(ru, 1002)
	path := g.newNight(g.admin, "2026-12-10", "19:00", 1, 7)
	night := nightNumber(t, path)
	var fillers []*club.User
	for i := range 7 {
		u := &club.User{Login: "filler" + strconv.Itoa(i), Name: "filler", Role: club.RoleMember, PasswordHash: "x", Status: club.StatusActive}
		if err := g.store.CreateMember(ctx, u, &club.Player{Nick: "Filler" + strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Nights.Register(ctx, u, night); err != nil {
			t.Fatal(err)
		}
		fillers = append(fillers, u)
	}
	for _, c := range []*http.Client{en, ru} {
		if r := g.post(c, path+"/register", nil); r.StatusCode != http.StatusSeeOther { // the reserve
			t.Fatalf("register: %d %s", r.StatusCode, errorOf(r.Body))
		}
	}
	if _, err := svc.Nights.Cancel(ctx, fillers[0], night); err != nil { // english moves up: promoted
		t.Fatal(err)
	}
	editForm := url.Values{"date": {"2026-12-10"}, "time": {"19:30"}, "place": {"Café"}, "tables": {"1"}, "per_table": {"7"}}
	if r := g.post(g.admin, path+"/edit", editForm); r.StatusCode != http.StatusSeeOther { // night_changed
		t.Fatalf("edit: %d %s", r.StatusCode, errorOf(r.Body))
	}
	change := func(u *club.User, to string) {
		if r := g.post(g.admin, "/admin/members/"+chatOf(u.ID), url.Values{"field": {"status"}, "to": {to}, "reason": {"test"}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("status %s: %d %s", to, r.StatusCode, errorOf(r.Body))
		}
	}
	change(enUser, "low_priority") // demoted and status
	change(enUser, "active")
	change(ruUser, "excluded") // removed and status
	change(ruUser, "active")
	g.post(ru, path+"/register", nil)
	other := g.newNight(g.admin, "2026-12-12", "19:00", 1, 10)
	g.post(en, other+"/register", nil)
	if r := g.post(g.admin, other+"/call-off", nil); r.StatusCode != http.StatusSeeOther { // night_cancelled
		t.Fatalf("call off: %d %s", r.StatusCode, errorOf(r.Body))
	}
	g.clk.t = time.Date(2026, 12, 9, 17, 0, 0, 0, time.UTC) // 10:00 in Edmonton the day before: the reminders
	if _, err := svc.Notices.Remind(ctx); err != nil {
		t.Fatal(err)
	}
	g.drain()                                                // before the cancellation below, which takes an unsent reminder out of the outbox
	g.clk.t = time.Date(2026, 12, 10, 16, 0, 0, 0, time.UTC) // the night's day: a late cancellation's strike
	if r := g.post(ru, path+"/cancel", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d %s", r.StatusCode, errorOf(r.Body))
	}
	g.drain()
	check := func(chat int64, lang string, kinds ...club.NoticeKind) {
		t.Helper()
		var texts []string
		for _, c := range g.fake.To(chatOf(chat)) {
			texts = append(texts, c.Text)
		}
		all := strings.Join(texts, "\n---\n")
		for _, k := range kinds {
			if title := g.cat.T(lang, "notice."+string(k)+".title"); !strings.Contains(all, title) {
				t.Errorf("chat %d (%s) has no %s notice %q:\n%s", chat, lang, k, title, all)
			}
		}
	}
	check(1001, "en", club.NoticePromoted, club.NoticeNightChanged, club.NoticeDemoted, club.NoticeStatus, club.NoticeNightCancelled, club.NoticeReminder)
	check(1002, "ru", club.NoticeNightChanged, club.NoticeRemoved, club.NoticeStatus, club.NoticeReminder, club.NoticeStrike)
	// as many messages as notices in the inbox, each once
	for _, x := range []struct {
		u    *club.User
		chat int64
	}{{enUser, 1001}, {ruUser, 1002}} {
		inbox, _ := g.store.Notices(ctx, x.u.ID, 100)
		if got := len(g.fake.To(chatOf(x.chat))) - 1; got != len(inbox) { // the first message answered the link
			t.Errorf("chat %d got %d notices, the inbox has %d", x.chat, got, len(inbox))
		}
	}
	g.drain()
	if got, _ := g.site.Services().Telegram.TelegramDue(ctx, 10); len(got) != 0 {
		t.Errorf("the outbox still has %d messages", len(got))
	}
}

// Registering and cancelling through the bot's buttons follow the site's rules, checked on the site's pages: the
// main line-up, a low-priority member's place in the reserve, a free cancellation until the end of the day before
// in the club's zone and a late one's strike; an old, forged, expired or another member's button does nothing.
func TestTelegramButtonsFollowTheClubsRules(t *testing.T) {
	g := newTG(t)
	ctx := context.Background()
	anna, _ := g.member("anna")
	low, lowUser := g.member("lowly")
	g.link(anna, 2001)
	g.link(low, 2002)
	if r := g.post(g.admin, "/admin/members/"+chatOf(lowUser.ID), url.Values{"field": {"status"}, "to": {"low_priority"}, "reason": {"late"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("low priority: %d", r.StatusCode)
	}
	path := g.newNight(g.admin, "2026-12-10", "19:00", 1, 10)
	g.send(telegramtest.Text(2001, "en", "/nights"))
	list := g.fake.Last("2001")
	if len(list.Keyboard) == 0 || !strings.Contains(list.Keyboard[0][0].Text, "2026-12-10 19:00") {
		t.Fatalf("/nights: %q %+v", list.Text, list.Keyboard)
	}
	g.pressData(2001, list.MessageID, list.Keyboard[0][0].Data) // the night, with its buttons
	oldRegister, oldMsg := g.button(2001, "en", "tg.btn.register")
	if a := g.press(2001, "en", "tg.btn.register"); a != g.cat.T("en", "tg.done.main") {
		t.Errorf("register: %q", a)
	}
	if page := g.get(anna, "/me").Body; !strings.Contains(page, g.cat.T("en", "reg.main")) {
		t.Errorf("/me after registering by the bot: %s", page)
	}
	if page := g.get(anna, path).Body; !strings.Contains(page, "Nick-anna") {
		t.Errorf("the night's page has no anna: %s", page)
	}
	// the same button again: old, nothing changes
	if a := g.pressData(2001, oldMsg, oldRegister); !strings.Contains(a, "button is old") {
		t.Errorf("a replayed register button: %q", a)
	}
	regs, _ := g.site.Services().Nights.LineUp(ctx, &club.User{ID: 1, Role: club.RoleAdmin, Status: club.StatusActive}, nightNumber(t, path))
	if len(regs) != 1 {
		t.Errorf("registrations after the replay: %+v", regs)
	}
	// forged: the signature changed
	forged := oldRegister[:len(oldRegister)-2] + "xx"
	if a := g.pressData(2001, oldMsg, forged); !strings.Contains(a, "not the club's") {
		t.Errorf("a forged button: %q", a)
	}
	// anna's button pressed in lowly's chat
	cancelData, _ := g.button(2001, "en", "tg.btn.cancel")
	if a := g.pressData(2002, 1, cancelData); !strings.Contains(a, "another member's") {
		t.Errorf("another member's button: %q", a)
	}
	// lowly (low priority) registers: the reserve, place 1
	g.openNight(2002, path)
	if a := g.press(2002, "en", "tg.btn.register"); a != g.cat.T("en", "tg.done.reserve", 1) {
		t.Errorf("a low-priority member's registration: %q", a)
	}
	if page := g.get(low, path).Body; !regexp.MustCompile(`id="reserve"><li>Nick-lowly</li>`).MatchString(page) {
		t.Errorf("the night's reserve: %s", page)
	}
	if got := g.fake.Last("2002").Text; !strings.Contains(got, "in the reserve, place 1") {
		t.Errorf("lowly's night: %q", got)
	}
	// cancelling at 23:30 in Edmonton the day before (already the night's day in UTC) is free
	g.clk.t = time.Date(2026, 12, 10, 6, 30, 0, 0, time.UTC)
	g.openNight(2001, path)
	if a := g.press(2001, "en", "tg.btn.cancel"); a != g.cat.T("en", "tg.done.cancelled") {
		t.Errorf("a cancellation on time: %q", a)
	}
	if page := g.get(anna, "/me").Body; strings.Contains(page, `id="my-strikes"`) {
		t.Errorf("a strike for a cancellation on time: %s", page)
	}
	if a := g.press(2001, "en", "tg.btn.register"); a != g.cat.T("en", "tg.done.main") {
		t.Errorf("registering again: %q", a)
	}
	// 00:30 in Edmonton on the night's day: late
	g.clk.t = time.Date(2026, 12, 10, 7, 30, 0, 0, time.UTC)
	g.openNight(2001, path)
	if a := g.press(2001, "en", "tg.btn.cancel_late"); a != g.cat.T("en", "tg.done.cancelled_late") {
		t.Errorf("a late cancellation: %q", a)
	}
	if page := g.get(anna, "/me").Body; !strings.Contains(page, `id="my-strikes"`) || !strings.Contains(page, g.cat.T("en", "strike.late_cancellation")) {
		t.Errorf("/me after a late cancellation: %s", page)
	}
}

// A button expires a week after it was drawn.
func TestTelegramButtonExpires(t *testing.T) {
	g := newTG(t)
	anna, _ := g.member("anna")
	g.link(anna, 3001)
	path := g.newNight(g.admin, "2026-12-20", "19:00", 1, 10)
	g.openNight(3001, path)
	g.clk.t = g.clk.t.Add(club.ButtonTTL + time.Minute)
	if a := g.press(3001, "en", "tg.btn.register"); !strings.Contains(a, "expired") {
		t.Errorf("an expired button: %q", a)
	}
	if page := g.get(anna, "/me").Body; strings.Contains(page, g.cat.T("en", "reg.main")) {
		t.Error("an expired button registered")
	}
}

// The channel gets each new night with the bot's register link, its line-up when registration closes, a link to a
// game's live page when it starts and the result of a saved rated game; each once.
func TestTelegramChannelPosts(t *testing.T) {
	g := newTG(t)
	if r := g.post(g.admin, "/admin/telegram", url.Values{"channel": {"@club_channel"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("channel: %d %s", r.StatusCode, errorOf(r.Body))
	}
	g.clk.t = g.clk.t.Add(time.Minute)
	path := g.newNight(g.admin, "2026-12-02", "19:00", 1, 10)
	anna, _ := g.member("anna")
	g.post(anna, path+"/register", nil)
	g.drain()
	posts := g.fake.To("@club_channel")
	if len(posts) != 1 || !strings.Contains(posts[0].Text, g.cat.T("uk", "tg.post.night")) || !strings.Contains(posts[0].Text, "2026-12-02 19:00") {
		t.Fatalf("the night's post: %+v", posts)
	}
	if b := posts[0].Keyboard[0][0]; b.URL != "https://t.me/"+telegramtest.BotName+"?start=night-"+strings.TrimPrefix(path, "/nights/") {
		t.Errorf("the night's button: %+v", b)
	}
	g.drain()
	if n := len(g.fake.To("@club_channel")); n != 1 {
		t.Errorf("posted %d times", n)
	}
	// the line-up once the night has begun
	g.clk.t = time.Date(2026, 12, 3, 2, 1, 0, 0, time.UTC)
	g.drain()
	posts = g.fake.To("@club_channel")
	if len(posts) != 2 || !strings.Contains(posts[1].Text, g.cat.T("uk", "tg.post.lineup")) || !strings.Contains(posts[1].Text, "Nick-anna") {
		t.Fatalf("the line-up's post: %+v", posts)
	}
	// a game starts, then is saved rated
	host := g.login("host", "demo-host")
	id := g.newGame(host, "fiim-2025-club", tenRoles, url.Values{"rated": {"on"}})
	g.drain()
	posts = g.fake.To("@club_channel")
	if len(posts) != 3 || posts[2].Keyboard[0][0].URL != "https://club.example.org/live/"+strconv.FormatInt(id, 10) {
		t.Fatalf("the live game's post: %+v", posts)
	}
	for _, seat := range []string{"3", "7", "9"} { // three blacks disqualified: a quick end
		g.mustAct(host, id, "type", "disqualify", "seat", seat, "reason", "test")
	}
	if r := g.post(host, "/games/"+strconv.FormatInt(id, 10)+"/save", url.Values{"version": {strconv.FormatInt(g.version(id), 10)}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	g.drain()
	posts = g.fake.To("@club_channel")
	if len(posts) != 4 || !strings.Contains(posts[3].Text, g.cat.T("uk", "winner.red")) && !strings.Contains(posts[3].Text, g.cat.T("uk", "winner.black")) {
		t.Fatalf("the result's post: %+v", posts)
	}
	if b := posts[3].Keyboard[0][0]; b.URL != "https://club.example.org/history/"+strconv.FormatInt(id, 10) {
		t.Errorf("the result's link: %+v", b)
	}
}

// Each failure of Telegram is retried or dropped with its reason, shown on the admin's page: a 5xx is tried again
// after the outbox's wait, a 429 after its retry_after, a blocked bot (403) and a chat gone (400) drop the message
// and mark the link dead, which the member's page says; nothing more is queued for a dead link.
func TestTelegramFailures(t *testing.T) {
	g := newTG(t)
	ctx := context.Background()
	anna, annaUser := g.member("anna")
	boris, _ := g.member("boris")
	g.link(anna, 4001)
	g.link(boris, 4002)
	notice := func(u *http.Client) {
		path := g.newNight(g.admin, "2026-12-10", "19:00", 1, 10)
		g.post(u, path+"/register", nil)
		g.post(g.admin, path+"/call-off", nil)
	}
	sent := func(chat string) int { return len(g.fake.To(chat)) - 1 }
	// Telegram down: tried again after 30 s
	g.fake.Fail("4001", telegramtest.Down)
	notice(anna)
	g.drain()
	if sent("4001") != 0 {
		t.Fatal("sent through a fault")
	}
	if page := g.get(g.admin, "/admin/telegram").Body; !strings.Contains(page, "502") || !strings.Contains(page, g.cat.T("uk", "tg.admin.retrying")) {
		t.Errorf("the admin's page after a 502: %s", page)
	}
	g.clk.t = g.clk.t.Add(29 * time.Second)
	g.drain()
	if sent("4001") != 0 {
		t.Error("tried again before its wait")
	}
	g.clk.t = g.clk.t.Add(2 * time.Second)
	g.drain()
	if sent("4001") != 1 {
		t.Fatalf("not sent after the wait: %d", sent("4001"))
	}
	// 429: its retry_after, not the outbox's 30 s
	g.fake.Fail("4001", telegramtest.TooMany(120))
	notice(anna)
	g.drain()
	g.clk.t = g.clk.t.Add(119 * time.Second)
	g.drain()
	if sent("4001") != 1 {
		t.Error("tried again before retry_after")
	}
	g.clk.t = g.clk.t.Add(2 * time.Second)
	g.drain()
	if sent("4001") != 2 {
		t.Errorf("not sent after retry_after: %d", sent("4001"))
	}
	// blocked: dropped, the link dead, and said so
	g.fake.Fail("4001", telegramtest.Blocked)
	notice(anna)
	g.drain()
	if page := g.get(anna, "/me/telegram").Body; !strings.Contains(page, `id="tg-dead"`) || !strings.Contains(page, "bot was blocked by the user") {
		t.Errorf("the member's page after a 403: %s", page)
	}
	notice(anna)
	if due, _ := g.site.Services().Telegram.TelegramDue(ctx, 10); len(due) != 0 {
		t.Errorf("messages queued for a dead link: %+v", due)
	}
	if l, _ := g.site.Services().Telegram.LinkOf(ctx, annaUser); l == nil || !l.Dead() {
		t.Errorf("the link: %+v", l)
	}
	g.send(telegramtest.Text(4001, "en", "/nights")) // the bot no longer acts for a dead link
	if got := g.fake.Last("4001").Text; !strings.Contains(got, "not linked") {
		t.Errorf("a dead link's chat: %q", got)
	}
	// the chat is gone
	g.fake.Fail("4002", telegramtest.ChatGone)
	notice(boris)
	g.drain()
	if page := g.get(boris, "/me/telegram").Body; !strings.Contains(page, "chat not found") {
		t.Errorf("the member's page after a 400: %s", page)
	}
	page := g.get(g.admin, "/admin/telegram").Body
	for _, want := range []string{"bot was blocked by the user", "chat not found", "Too Many Requests", g.cat.T("uk", "tg.admin.dropped", "")[:10]} {
		if !strings.Contains(page, want) {
			t.Errorf("the admin's page has no %q", want)
		}
	}
	// the whole Bot API unreachable: the site's pages and actions go on, the message waits
	g.link(anna, 4001)
	g.fake.Close()
	path := g.newNight(g.admin, "2026-12-11", "19:00", 1, 10)
	if r := g.post(anna, path+"/register", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("registering while Telegram is down: %d", r.StatusCode)
	}
	g.post(g.admin, path+"/call-off", nil)
	g.drain()
	due, _ := g.store.TelegramFailures(ctx, 1)
	if len(due) != 1 || due[0].LastError == "" || !due[0].DroppedAt.IsZero() || strings.Contains(due[0].LastError, tgToken) {
		t.Errorf("the message while Telegram is down: %+v", due)
	}
}

// The bot runs by long polling (getUpdates with its offset) by default, and by the webhook with its secret where
// the club has HTTPS.
func TestTelegramPollingAndWebhook(t *testing.T) {
	g := newTG(t)
	anna, _ := g.member("anna")
	ctx, cancel := context.WithCancel(context.Background())
	runner := &telegram.Runner{Bot: g.bot, API: g.fake.URL, Idle: 10 * time.Millisecond}
	done := make(chan struct{})
	go func() { runner.Run(ctx); close(done) }()
	g.fake.Push(telegramtest.Text(5001, "en", "/start "+g.code(anna)))
	g.fake.Push(telegramtest.Text(5001, "en", "/nights"))
	waitFor(t, func() bool { return len(g.fake.To("5001")) == 2 })
	if got := g.fake.To("5001")[0].Text; !strings.Contains(got, "linked to anna") {
		t.Errorf("by polling: %q", got)
	}
	cancel()
	<-done
	if n := len(g.fake.To("5001")); n != 2 {
		t.Errorf("an update was answered twice: %d", n)
	}

	// the webhook
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	hook := &telegram.Runner{Bot: g.bot, API: g.fake.URL, Webhook: "https://club.example.org", Idle: 10 * time.Millisecond}
	g.site.TelegramWebhook = hook
	go hook.Run(ctx)
	var set telegramtest.Call
	waitFor(t, func() bool {
		for _, c := range g.fake.Calls() {
			if c.Method == "setWebhook" {
				set = c
				return true
			}
		}
		return false
	})
	path := strings.TrimPrefix(set.URL, "https://club.example.org")
	if !strings.HasPrefix(path, "/telegram/") || set.Secret == "" {
		t.Fatalf("setWebhook: %+v", set)
	}
	post := func(path, secret string) int {
		body := `{"update_id": 9, "message": {"message_id": 1, "from": {"id": 5002, "language_code": "en"}, "chat": {"id": 5002, "type": "private"}, "text": "/nights"}}`
		req, _ := http.NewRequest(http.MethodPost, g.srv.URL+path, strings.NewReader(body))
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
		return g.do(http.DefaultClient, req).StatusCode
	}
	if code := post(path, "wrong"); code != http.StatusNotFound {
		t.Errorf("a wrong secret header: %d", code)
	}
	if code := post("/telegram/wrong", set.Secret); code != http.StatusNotFound {
		t.Errorf("a wrong secret path: %d", code)
	}
	if code := post(path, set.Secret); code != http.StatusOK {
		t.Errorf("the webhook: %d", code)
	}
	waitFor(t, func() bool { return len(g.fake.To("5002")) == 1 })
	if got := g.fake.To("5002")[0].Text; !strings.Contains(got, "not linked") {
		t.Errorf("by the webhook: %q", got)
	}
}

// waitFor waits for cond, which the bot's goroutine makes true: no time is asserted, the bound only ends a hung test.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("the bot did not answer")
}

// A tournament's standings go to the channel once every game of a round is saved.
func TestTelegramChannelTournamentRound(t *testing.T) {
	g := newTG(t)
	ctx := context.Background()
	if r := g.post(g.admin, "/admin/telegram", url.Values{"channel": {"@club_channel"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("channel: %d", r.StatusCode)
	}
	adminUser, _ := g.store.UserByLogin(ctx, "admin")
	judge := g.login("host", "demo-host")
	hostUser, _ := g.store.UserByLogin(ctx, "host")
	r := g.post(g.admin, "/tournaments", url.Values{"name": {"Winter Cup"}, "from": {"2026-12-01"}, "to": {"2026-12-02"}, "place": {"Hall"},
		"rules": {"fiim-xcraft"}, "chief": {strconv.FormatInt(adminUser.ID, 10)}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("tournament: %d %s", r.StatusCode, errorOf(r.Body))
	}
	tour := r.Header.Get("Location")
	for _, n := range []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Guest Ten"} {
		if r := g.post(g.admin, tour+"/participants", url.Values{"name": {n}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("add %s: %d", n, r.StatusCode)
		}
	}
	if r := g.post(g.admin, tour+"/stages", url.Values{"name": {"Qualifying"}, "rounds": {"2"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("stage: %d %s", r.StatusCode, errorOf(r.Body))
	}
	stages, _ := g.store.Stages(ctx, mustID(t, tour))
	st := strconv.FormatInt(stages[0].ID, 10)
	g.post(g.admin, tour+"/judge", url.Values{"stage": {st}, "table": {"1"}, "user": {strconv.FormatInt(hostUser.ID, 10)}})
	r = g.post(judge, tour+"/start", url.Values{"stage": {st}, "round": {"1"}, "table": {"1"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d %s", r.StatusCode, errorOf(r.Body))
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(r.Header.Get("Location"), "/games/"), 10, 64)
	game, _ := g.store.Game(ctx, id)
	for _, s := range game.Seats {
		if s.Role == "mafia" {
			g.mustAct(judge, id, "type", "team_loss", "seat", strconv.Itoa(s.Seat), "reason", "oath")
			break
		}
	}
	g.drain()
	for _, p := range g.fake.To("@club_channel") {
		if strings.Contains(p.Text, "Winter Cup") {
			t.Fatalf("standings before the round's games are saved: %q", p.Text)
		}
	}
	if r := g.post(judge, "/games/"+strconv.FormatInt(id, 10)+"/save", url.Values{"version": {strconv.FormatInt(g.version(id), 10)}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	g.drain()
	g.drain()
	var standings []telegramtest.Call
	for _, p := range g.fake.To("@club_channel") {
		if strings.Contains(p.Text, g.cat.T("uk", "tg.post.round", "Winter Cup", "Qualifying", 1)) {
			standings = append(standings, p)
		}
	}
	if len(standings) != 1 || !strings.Contains(standings[0].Text, "1. ") || !strings.Contains(standings[0].Text, "10. ") {
		t.Fatalf("the round's standings: %+v", g.fake.To("@club_channel"))
	}
	if b := standings[0].Keyboard[0][0]; b.URL != "https://club.example.org"+tour {
		t.Errorf("the standings' link: %+v", b)
	}
}

// A channel post that failed is named on the admin's page in words (which night's announcement), not by the
// outbox's key ("night:3").
func TestTelegramChannelFailureInWords(t *testing.T) {
	g := newTG(t)
	if r := g.post(g.admin, "/admin/telegram", url.Values{"channel": {"@club_channel"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("channel: %d %s", r.StatusCode, errorOf(r.Body))
	}
	g.fake.Fail("@club_channel", telegramtest.Down)
	g.clk.t = g.clk.t.Add(time.Minute)
	path := g.newNight(g.admin, "2026-12-02", "19:00", 1, 10)
	g.drain()
	id := strings.TrimPrefix(path, "/nights/")
	page := g.get(g.admin, "/admin/telegram").Body
	if want := g.cat.T("uk", "tg.admin.post.night", id); !strings.Contains(page, want) || strings.Contains(page, "night:"+id) {
		t.Errorf("the admin's page names the failed post by its key, or not in words (%q): %s", want, page)
	}
}
