package web_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/web"
)

// TestE2EClubNight walks a club night through the browser, with three people in their own browser profiles: the
// admin creates the night; a person signs up, waits for the approval and is approved; the new member registers,
// cancels in time, registers again and, on the night's own day, cancels late (the warning and the confirmation);
// another member is in the main line-up, does not come, and the admin marks the no-show once the night has begun.
// The site's clock is moved by the test between the steps; the club is in Kyiv, so that the day boundary of the
// late cancellation is the club's, not UTC's.
func TestE2EClubNight(t *testing.T) {
	needBrowser(t)
	began := time.Now()

	kyiv, err := time.LoadLocation("Europe/Kyiv")
	if err != nil {
		t.Skipf("no time zone data: %v", err)
	}
	at := func(day, hour, minute int) time.Time {
		return time.Date(2026, time.March, day, hour, minute, 0, 0, kyiv)
	}
	clk := &siteClock{t: at(10, 12, 0)} // a Tuesday noon
	site := startSite(t, kyiv, func(s *web.Server) { s.Services().Clock.Set(clk.now) })
	defer site.checkLog(t)

	// A Ukrainian phone, so the pages come in the club's default language. Headless chromium's Accept-Language
	// follows --accept-lang, not --lang (which startBrowser sets to en-US).
	bctx, bcancel := startBrowser(t, chromedp.Flag("accept-lang", "uk-UA,uk"))
	defer bcancel()
	deadline := time.AfterFunc(60*time.Second, bcancel)
	defer deadline.Stop()
	t.Logf("browser started in %v", time.Since(began).Round(time.Millisecond))

	cat := mustCatalog(t)
	const lang = "uk"
	T := func(key string, args ...any) string { return cat.T(lang, key, args...) }

	admin := newPerson(t, bctx, site.URL, "admin")
	petro := newPerson(t, bctx, site.URL, "petro")
	oksana := newPerson(t, bctx, site.URL, "oksana")
	for _, p := range []*hostBrowser{admin, petro, oksana} {
		defer p.report()
	}

	// 1. The admin creates a club night three days ahead: Friday 13 March, 19:00, one table of seven.
	const place = "Клуб «Північ», вул. Хрещатик 1"
	const when = "2026-03-13 19:00"
	admin.logIn("/nights/new", club.DemoAdminLogin, club.DemoAdminPassword)
	if l := eval[string](admin, `document.documentElement.lang`); l != lang {
		t.Fatalf("the page is in %q, want the default %q", l, lang)
	}
	admin.wantText("h1", T("nights.new"))
	admin.do("fill the night",
		chromedp.SetValue(chromedp.CSS(`input[name=date]`), "2026-03-13"),
		chromedp.SetValue(chromedp.CSS(`input[name=time]`), "19:00"),
		chromedp.SendKeys(chromedp.CSS(`input[name=place]`), place),
		chromedp.SetValue(chromedp.CSS(`input[name=tables]`), "1"),
		chromedp.SetValue(chromedp.CSS(`input[name=per_table]`), "7"))
	admin.submit("create the night", "#create-night")
	nightID := eval[int64](admin, `/^\/nights\/\d+$/.test(location.pathname) ? +location.pathname.split('/')[2] : 0`)
	if nightID <= 0 {
		t.Fatalf("after creating the night the browser is at %s", eval[string](admin, `location.pathname`))
	}
	nightPath := fmt.Sprintf("/nights/%d", nightID)
	admin.wantText("h1", T("nights.night", when))
	admin.wantText("#main > p", place+" · "+T("nights.tables", 1, 7)+" · "+T("nights.lineup", 0, 7, 0))
	admin.open("/nights")
	admin.wantContains(fmt.Sprintf(`#nights li[data-night="%d"]`, nightID), when, place, T("nights.lineup", 0, 7, 0))
	t.Logf("night %d created after %v", nightID, time.Since(began).Round(time.Millisecond))

	// 2. Petro signs up and waits for the approval; the admin approves him with a reason.
	petro.open("/signup")
	petro.wantText("h1", T("signup.title"))
	petro.do("fill the sign-up",
		chromedp.SendKeys(chromedp.CSS(`input[name=login]`), "petro"),
		chromedp.SendKeys(chromedp.CSS(`input[name=nick]`), "Петро"),
		chromedp.SendKeys(chromedp.CSS(`input[name=password]`), "petro-secret"),
		chromedp.SendKeys(chromedp.CSS(`input[name=password2]`), "petro-secret"))
	petro.submit("sign up", "#signup-submit")
	petro.wantPath("/signup")
	petro.wantText("#signup-done", T("signup.done"))
	petro.logIn("/me", "petro", "petro-secret")
	petro.wantPath("/me")
	petro.wantText("#my-status", T("status.pending"))

	admin.open("/admin/members")
	row := `#members tr[data-member="petro"]`
	admin.wantText(row+" td:nth-child(4)", T("status.pending"))
	statusForm := row + ` form:has(input[name=field][value=status])`
	admin.do("approve Petro",
		chromedp.SetValue(chromedp.CSS(statusForm+` select[name=to]`), string(club.StatusActive)),
		chromedp.SendKeys(chromedp.CSS(statusForm+` input[name=reason]`), "знайомий клубу, перевірено"))
	admin.submit("approve Petro", statusForm+` button.set-status`)
	admin.wantPath("/admin/members")
	admin.wantText(row+" td:nth-child(4)", T("status.active"))
	admin.wantText("#main h2:last-of-type", T("members.log", "petro"))
	admin.wantContains("#member-log", "статус: очікує підтвердження → активний · знайомий клубу, перевірено")

	petro.open("/me")
	petro.wantText("#my-status", T("status.active"))

	// 3. Petro registers from the list of nights, cancels in time on the night's page and registers again.
	petro.open("/nights")
	card := fmt.Sprintf(`#nights li[data-night="%d"]`, nightID)
	petro.wantContains(card, when, place)
	petro.submit("register from the list", card+` button.register`)
	petro.wantPath(nightPath)
	petro.wantInMain("Петро", T("reg.main"), T("nights.lineup", 1, 7, 0))
	if n := petro.count(`form[action$="/cancel"] p.error, form[data-confirm]`); n != 0 {
		t.Errorf("three days ahead the cancel form warns of a late cancellation (%d warnings)", n)
	}
	dialogs := len(petro.dialogMessages())
	petro.submit("cancel in time", `button.cancel-reg`)
	if asked := petro.dialogMessages()[dialogs:]; len(asked) != 0 {
		t.Errorf("an in-time cancellation asked %q", asked)
	}
	petro.wantPath(nightPath)
	petro.wantNotInMain("Петро", T("nights.lineup", 0, 7, 0))
	petro.open("/me")
	petro.wantContains("#my-registrations li:first-child", when, place, T("reg.cancelled"))
	if s := petro.texts("#my-registrations li"); strings.Contains(strings.Join(s, "\n"), T("reg.late")) {
		t.Errorf("an in-time cancellation is listed as late: %q", s)
	}
	if s := petro.texts("#my-strikes li"); len(s) != 0 {
		t.Errorf("an in-time cancellation gave strikes: %q", s)
	}
	petro.open(nightPath)
	petro.submit("register again", `button.register`)
	petro.wantInMain("Петро", T("reg.main"), T("nights.lineup", 1, 7, 0))
	petro.open("/me")
	petro.wantContains("#my-registrations li:first-child", when, T("reg.main"))
	t.Logf("registrations done after %v", time.Since(began).Round(time.Millisecond))

	// 4. The night's own day, half past midnight in Kyiv (still the 12th in UTC): cancelling is late now.
	clk.set(at(13, 0, 30))
	petro.open("/nights")
	petro.wantText(card+` form[action$="/cancel"] p.error`, T("nights.late_warning"))
	if c := eval[string](petro, fmt.Sprintf(`document.querySelector(%q).dataset.confirm || ''`, card+` form[action$="/cancel"]`)); c != T("nights.late_warning") {
		t.Errorf("the late cancel form asks %q, want the late warning", c)
	}
	dialogs = len(petro.dialogMessages())
	petro.submit("cancel late", card+` button.cancel-reg`)
	if asked := petro.dialogMessages()[dialogs:]; len(asked) != 1 || asked[0] != T("nights.late_warning") {
		t.Errorf("the late cancellation asked %q, want the late warning once", asked)
	}
	petro.wantPath(nightPath)
	petro.wantNotInMain("Петро", T("nights.lineup", 0, 7, 0))
	petro.open("/me")
	petro.wantContains("#my-registrations li:first-child", when, T("reg.late"))
	if s := petro.texts("#my-strikes li"); len(s) != 1 || s[0] != "2026-03-13 00:30 · "+T("strike.late_cancellation") {
		t.Errorf("Petro's strikes after the late cancellation: %q", s)
	}

	// 5. Oksana, a member made in the store, registers; the night begins without her; the admin marks the no-show.
	ctx := context.Background()
	hash, err := club.HashPassword("oksana-secret")
	if err != nil {
		t.Fatal(err)
	}
	ou := &club.User{Login: "oksana", Name: "Оксана", Role: club.RoleMember, PasswordHash: hash, Status: club.StatusActive}
	if err := site.DB.CreateMember(ctx, ou, &club.Player{Nick: "Оксана"}); err != nil {
		t.Fatal(err)
	}
	oksana.logIn("/me", "oksana", "oksana-secret")
	oksana.wantText("#my-status", T("status.active"))
	oksana.open(nightPath)
	oksana.submit("Oksana registers", `button.register`)
	oksana.wantInMain("Оксана", T("reg.main"), T("nights.lineup", 1, 7, 0))

	clk.set(at(13, 21, 0)) // two hours into the night
	admin.open(nightPath)
	if n := admin.count(`form[action$="/register"], form[action$="/cancel"]`); n != 0 {
		t.Errorf("a night that has begun still offers %d registration forms", n)
	}
	her := fmt.Sprintf(`#main-lineup li[data-user="%d"]`, ou.ID)
	admin.wantText(her+` button.noshow`, T("nights.no_show"))
	admin.submit("mark Oksana's no-show", her+` button.noshow`)
	admin.wantPath(nightPath)
	admin.wantText(her+` .tag`, T("strike.no_show"))
	admin.wantText(her+` button`, T("nights.came"))

	oksana.open("/me")
	oksana.wantContains("#my-registrations li:first-child", when, T("reg.main")+" · "+T("strike.no_show"))
	if s := oksana.texts("#my-strikes li"); len(s) != 1 || s[0] != "2026-03-13 21:00 · "+T("strike.no_show") {
		t.Errorf("Oksana's strikes after the no-show: %q", s)
	}
	admin.open("/admin/members")
	admin.wantText(`#members tr[data-member="oksana"] td:nth-child(5)`, "1")
	admin.wantText(`#members tr[data-member="petro"] td:nth-child(5)`, "1")
	admin.wantText(`#members tr[data-member="oksana"] td:nth-child(4)`, T("status.active")) // strikes never change it
	t.Logf("done in %v", time.Since(began).Round(time.Millisecond))
}

// siteClock is the site's time, moved by the test; the server reads it from its own goroutines.
type siteClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *siteClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *siteClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// newPerson opens a tab in a browser profile of its own (its own cookies), watched like the host's tab.
func newPerson(t *testing.T, bctx context.Context, base, who string) *hostBrowser {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a browser profile for %s: %v", who, err)
	}
	b := &hostBrowser{t: t, ctx: ctx, base: base}
	b.watch()
	return b
}

// open loads a page of the site and fails the test on an error page or an alert.
func (b *hostBrowser) open(path string) {
	b.t.Helper()
	b.do("open "+path, chromedp.Navigate(b.base+path))
	if st := eval[pageState](b, pageStateJS); st.Alert != "" {
		b.t.Fatalf("open %s: the site answered %q", path, st.Alert)
	}
	b.wantPath(strings.SplitN(path, "?", 2)[0])
}

func (b *hostBrowser) wantPath(path string) {
	b.t.Helper()
	if got := eval[string](b, `location.pathname`); got != path {
		b.t.Fatalf("the browser is at %s, want %s (page %s)", got, path, b.where())
	}
}

// wantText checks the whole text of the first element sel matches, spaces collapsed.
func (b *hostBrowser) wantText(sel, want string) {
	b.t.Helper()
	if got := strings.Join(strings.Fields(b.text(sel)), " "); got != want {
		b.t.Errorf("%s on %s shows %q, want %q", sel, eval[string](b, `location.pathname`), got, want)
	}
}

// wantContains checks the text of the first element sel matches holds every one of wants.
func (b *hostBrowser) wantContains(sel string, wants ...string) {
	b.t.Helper()
	got := strings.Join(strings.Fields(b.text(sel)), " ")
	for _, w := range wants {
		if !strings.Contains(got, w) {
			b.t.Errorf("%s on %s shows %q, without %q", sel, eval[string](b, `location.pathname`), got, w)
		}
	}
}

// texts lists the texts of the elements sel matches, spaces collapsed.
func (b *hostBrowser) texts(sel string) []string {
	b.t.Helper()
	return eval[[]string](b, fmt.Sprintf(`[...document.querySelectorAll(%q)].map(e => e.textContent.trim().replace(/\s+/g, ' '))`, sel))
}

// wantInMain checks, on a night's page, that the member sees himself in the main line-up.
func (b *hostBrowser) wantInMain(nick, mine, lineup string) {
	b.t.Helper()
	b.wantContains("#main > p", lineup)
	b.wantText(`#main > p:has(+ form[action$="/cancel"])`, mine)
	if main := b.texts("#main-lineup li"); !containsPrefix(main, nick) {
		b.t.Errorf("the main line-up %q does not list %s", main, nick)
	}
	if b.count("button.cancel-reg") != 1 || b.count("button.register") != 0 {
		b.t.Errorf("a registered member is offered %d cancel and %d register buttons", b.count("button.cancel-reg"), b.count("button.register"))
	}
}

// wantNotInMain checks, on a night's page, that the member is no longer registered.
func (b *hostBrowser) wantNotInMain(nick, lineup string) {
	b.t.Helper()
	b.wantContains("#main > p", lineup)
	if main := b.texts("#main-lineup li"); containsPrefix(main, nick) {
		b.t.Errorf("the main line-up %q still lists %s", main, nick)
	}
	if b.count("button.register") != 1 || b.count("button.cancel-reg") != 0 {
		b.t.Errorf("a cancelled member is offered %d register and %d cancel buttons", b.count("button.register"), b.count("button.cancel-reg"))
	}
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
