package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/web"
)

// TestE2EFrontDoor: the admin names the club and uploads its logo on /admin/club; a visitor's front door then shows
// the club's name (in the header and the title too), its logo (loaded), and the next night with its places left;
// its way to register works: he signs up, is approved, logs in, registers from the front door, and the front door
// lists his registration.
func TestE2EFrontDoor(t *testing.T) {
	needBrowser(t)
	began := time.Now()
	edm, _ := time.LoadLocation("America/Edmonton")
	clk := &siteClock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, edm)}
	site := startSite(t, edm, func(s *web.Server) { s.Services().Clock.Set(clk.now) })
	defer site.checkLog(t)
	bctx, bcancel := startBrowser(t, chromedp.Flag("accept-lang", "uk-UA,uk"))
	defer bcancel()
	deadline := time.AfterFunc(60*time.Second, bcancel)
	defer deadline.Stop()
	cat := mustCatalog(t)
	T := func(key string, args ...any) string { return cat.T("uk", key, args...) }
	N := func(key string, n int, args ...any) string { return cat.N("uk", key, n, args...) }

	admin := newPerson(t, bctx, site.URL, "admin")
	visitor := newPerson(t, bctx, site.URL, "visitor")
	for _, p := range []*hostBrowser{admin, visitor} {
		defer p.report()
	}
	logo := filepath.Join(t.TempDir(), "logo.png")
	if err := os.WriteFile(logo, logoPNG(), 0o644); err != nil {
		t.Fatal(err)
	}

	// 1. The admin names the club, describes it and uploads its logo.
	admin.logIn("/admin/club", club.DemoAdminLogin, club.DemoAdminPassword)
	admin.wantText("h1", T("club.title"))
	admin.do("fill the club's identity",
		chromedp.SendKeys(chromedp.CSS(`input[name=name]`), "Мафія Едмонтон"),
		chromedp.SendKeys(chromedp.CSS(`input[name=name_en]`), "Mafia Edmonton"),
		chromedp.SendKeys(chromedp.CSS(`textarea[name=description]`), "Спортивна мафія щоп'ятниці."),
		chromedp.SendKeys(chromedp.CSS(`input[name=telegram]`), "@mafia_edm"),
		chromedp.SetUploadFiles(chromedp.CSS(`input[name=logo]`), []string{logo}))
	admin.submit("save the club", "#club-save")
	admin.wantPath("/admin/club")
	admin.wantText("#club-saved", T("club.saved"))
	admin.wantText("#brand", "Мафія Едмонтон")

	// a night a week ahead, one table of seven
	ctx := context.Background()
	adminUser, _ := site.DB.UserByLogin(ctx, club.DemoAdminLogin)
	night, err := site.Site.Services().Nights.Create(ctx, adminUser, club.NightForm{StartsAt: time.Date(2026, 12, 8, 19, 0, 0, 0, edm),
		Place: "Café Ruby", Tables: 1, PerTable: 7})
	if err != nil {
		t.Fatal(err)
	}
	card := fmt.Sprintf(`#home-night-list li[data-night="%d"]`, night.ID)

	// 2. The visitor's front door: the club's name, its logo, the night with its places and the way to register.
	visitor.open("/")
	visitor.wantText("#club-name", "Мафія Едмонтон")
	visitor.wantText("#brand", "Мафія Едмонтон")
	if title := eval[string](visitor, `document.title`); title != T("home.page_title")+" · Мафія Едмонтон" {
		t.Errorf("the title: %q", title)
	}
	visitor.wantText("#club-description", "Спортивна мафія щоп'ятниці.")
	if desc := eval[string](visitor, `document.querySelector('meta[name=description]').content`); desc != "Спортивна мафія щоп'ятниці." {
		t.Errorf("the meta description: %q", desc)
	}
	for _, img := range []string{"#home-logo", "#brand img"} {
		if w := evalAsync[int](visitor, `(async () => { const i = document.querySelector('`+img+`'); if (!i) return -1;
			if (!i.complete) await new Promise(r => { i.onload = r; i.onerror = r; }); return i.naturalWidth; })()`); w != 48 {
			t.Errorf("the logo %s is %d pixels wide, want the uploaded 48", img, w)
		}
	}
	visitor.wantContains(card, "2026-12-08 19:00", "Café Ruby", N("home.places_left.n", 7))
	visitor.submit("sign up to register", card+" a.signup-register")
	visitor.wantPath("/signup")
	visitor.do("fill the sign-up",
		chromedp.SendKeys(chromedp.CSS(`input[name=login]`), "olena"),
		chromedp.SendKeys(chromedp.CSS(`input[name=nick]`), "Олена"),
		chromedp.SendKeys(chromedp.CSS(`input[name=password]`), "olena-secret"),
		chromedp.SendKeys(chromedp.CSS(`input[name=password2]`), "olena-secret"))
	visitor.submit("sign up", "#signup-submit")
	visitor.wantText("#signup-done", T("signup.done"))

	// 3. The admin approves her; she logs in and registers from the front door, which then lists it.
	olena, err := site.DB.UserByLogin(ctx, "olena")
	if err != nil {
		t.Fatal(err)
	}
	if err := site.Site.Services().Accounts.ChangeMember(ctx, adminUser, olena.ID, "status", string(club.StatusActive), "known"); err != nil {
		t.Fatal(err)
	}
	visitor.logIn("/me", "olena", "olena-secret")
	visitor.open("/")
	visitor.submit("register from the front door", card+" button.register")
	visitor.wantPath(fmt.Sprintf("/nights/%d", night.ID))
	visitor.open("/")
	visitor.wantContains("#home-registrations", "2026-12-08 19:00", "Café Ruby", T("reg.main"))
	visitor.wantContains(card, N("home.places_left.n", 6))
	t.Logf("done in %v", time.Since(began).Round(time.Millisecond))
}
