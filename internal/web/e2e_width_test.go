package web_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/demo"
)

// TestE2EEveryPageFitsAPhone opens every page the site's route table gives (GET, an HTML page: not a stream, a file
// or a data export) in Chromium 360 px wide, as the club's admin, who is shown the most, over the demo's season
// with a live game: no page scrolls sideways. Its wildcards are filled from the demo: the live game for the host's
// pages and the spectators', a saved one for the history, and a player, a club night and the tournament. A route
// added later is opened too.
func TestE2EEveryPageFitsAPhone(t *testing.T) {
	needBrowser(t)
	site := startSite(t, time.UTC, nil)
	defer site.checkLog(t)
	ctx := context.Background()
	if _, err := demo.Season(ctx, site.DB, demo.Options{Seed: demo.DefaultSeed, Zone: time.UTC, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	svc := site.Site.Services()
	host, err := site.DB.UserByLogin(ctx, club.DemoHostLogin)
	if err != nil {
		t.Fatal(err)
	}
	ng := club.NewGame{Rules: club.ClubRules, Rated: true}
	for i, r := range []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"} {
		ng.Seats = append(ng.Seats, club.NewSeat{Name: fmt.Sprintf("Guest with a long name %d", i+1), Role: r, Guest: true})
	}
	live, err := svc.Games.Start(ctx, host, ng)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := site.DB.Games(ctx, club.GameFilter{Status: club.GameSaved, Limit: 1})
	if err != nil || len(saved) == 0 {
		t.Fatalf("the demo has no saved game: %v", err)
	}
	savedGame, err := site.DB.Game(ctx, saved[0].ID) // with its seats
	if err != nil {
		t.Fatal(err)
	}
	nights, err := site.DB.Nights(ctx, time.Time{}, time.Time{}.AddDate(9000, 0, 0))
	if err != nil || len(nights) == 0 {
		t.Fatalf("the demo has no club night: %v", err)
	}
	tours, err := site.DB.Tournaments(ctx)
	if err != nil || len(tours) == 0 {
		t.Fatalf("the demo has no tournament: %v", err)
	}
	ids := map[string]string{
		"/games/":       strconv.FormatInt(live.ID, 10),
		"/live/":        strconv.FormatInt(live.ID, 10),
		"/history/":     strconv.FormatInt(saved[0].ID, 10),
		"/players/":     strconv.FormatInt(savedGame.Seats[0].PlayerID, 10),
		"/nights/":      strconv.FormatInt(nights[0].ID, 10),
		"/tournaments/": strconv.FormatInt(tours[0].ID, 10),
	}
	// not pages: streams, files, data and exports; and the admin's own session (logout)
	notPage := []string{"/static/", "/healthz", "/metrics", "/sw.js", "/events", ".csv", ".json", ".ics", "/photo", "/logo", "/api/", "/players/search", "/login/link", "/me/email/confirm"}
	var paths []string
	for _, pattern := range site.Site.Routes() {
		method, path, ok := strings.Cut(pattern, " ")
		if !ok {
			method, path = "GET", pattern
		}
		if method != "GET" || path == "/" || slicesContainsAny(path, notPage) || strings.HasSuffix(path, "}/live") {
			continue
		}
		path = strings.ReplaceAll(path, "{$}", "")
		filled := true
		for strings.Contains(path, "{") {
			i, j := strings.Index(path, "{"), strings.Index(path, "}")
			id := ""
			for prefix, v := range ids {
				if strings.HasPrefix(path, prefix) {
					id = v
				}
			}
			if id == "" {
				filled = false
				break
			}
			path = path[:i] + id + path[j+1:]
		}
		if !filled {
			t.Errorf("%s: the walk knows no id for it; add one", pattern)
			continue
		}
		paths = append(paths, path)
	}
	paths = append(paths, "/history/"+ids["/history/"]+"?view=protocol", fmt.Sprintf("/live/%d?mode=broadcast", live.ID))
	if len(paths) < 30 {
		t.Fatalf("only %d pages from %d routes: the route table lost its pages", len(paths), len(site.Site.Routes()))
	}

	bctx, bcancel := startBrowser(t)
	defer bcancel()
	b := &hostBrowser{t: t, ctx: bctx, base: site.URL}
	b.watch()
	defer b.report()
	// a page the admin may not open (another club's, a member's page without a player profile) still fits
	b.expected = append(b.expected, "400", "404", "403", "the server responded with a status")
	b.logIn("/games/new", club.DemoAdminLogin, club.DemoAdminPassword)
	if _, err := chromedp.Run(bctx, chromedp.EmulateViewport(360, 780)); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"uk", "en"} {
		b.do("language "+lang, chromedp.Navigate(b.base+"/"), chromedp.Evaluate[chromedp.Void](`document.cookie = "lang=`+lang+`; path=/"`))
		for _, path := range paths {
			b.do("open "+path, chromedp.Navigate(b.base+path))
			time.Sleep(50 * time.Millisecond) // the host page's script draws its page once the engine answers
			got := eval[map[string]any](b, `({html: document.contentType === 'text/html', sw: document.documentElement.scrollWidth,
				wide: [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361 && getComputedStyle(e).position !== 'fixed')
					.filter(e => !e.closest('.scroll-x, table.list, dialog:not([open])'))
					.map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '') + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 6)})`)
			if html, _ := got["html"].(bool); !html {
				continue
			}
			if sw, _ := got["sw"].(float64); sw > 361 {
				t.Errorf("%s %s is %.0f px wide at 360: it scrolls sideways (%v)", lang, path, sw, got["wide"])
			}
		}
	}
}

func slicesContainsAny(s string, parts []string) bool {
	for _, p := range parts {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}
