package web_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/web"
)

// TestE2EPasteAndSeat23 is the organiser: a tournament of 23 players. He pastes the list (the club's twenty
// by their nicknames, in any case, three guests, one name by mistake, one line twice, a blank line) and reads the
// report line by line; he removes the mistaken player (the page asks first); then he seats one stage of eight
// rounds at tables of ten. The page shows two tables a round with three players sitting out, every player in
// every round once, the generator's figures with 6 to 7 games a player, and says why the games cannot be equal.
func TestE2EPasteAndSeat23(t *testing.T) {
	needBrowser(t)
	began := time.Now()
	site := startSite(t, time.UTC, func(s *web.Server) {
		s.Services().Clock.Set(func() time.Time { return time.Date(2027, time.March, 13, 10, 0, 0, 0, time.UTC) })
		// the request log lines (INFO) are not failures; warnings and errors still fail the test in checkLog
		s.Log = slog.New(warnings{s.Log.Handler()})
	})
	defer site.checkLog(t)
	bctx, bcancel := startBrowser(t, chromedp.Flag("accept-lang", "uk-UA,uk"))
	defer bcancel()
	deadline := time.AfterFunc(90*time.Second, bcancel)
	defer deadline.Stop()

	cat := mustCatalog(t)
	T := func(key string, args ...any) string { return cat.T("uk", key, args...) }
	N := func(key string, n int, args ...any) string { return cat.N("uk", key, n, args...) }

	ctx := context.Background()
	svc := site.Site.Services()
	adminUser, err := site.DB.UserByLogin(ctx, club.DemoAdminLogin)
	if err != nil {
		t.Fatal(err)
	}
	tour := &club.Tournament{Name: "Відкритий кубок", StartsOn: "2027-03-13", EndsOn: "2027-03-13", ChiefJudge: adminUser.ID}
	if err := svc.Tournaments.Create(ctx, adminUser, tour); err != nil {
		t.Fatal(err)
	}
	tourPath := fmt.Sprintf("/tournaments/%d", tour.ID)

	admin := newPerson(t, bctx, site.URL, "admin")
	defer admin.report()
	tourLogIn(admin, tourPath, club.DemoAdminLogin, club.DemoAdminPassword)

	// 1. The list, as an organiser pastes it from a chat.
	club20 := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Kaiser",
		"Lada", "Mirage", "Nord", "Olha", "Pixel", "Quest", "Ronin", "Sirius", "Tesla", "Vesna"}
	guests := []string{"Гість Андрій", "Гість Борис", "Гість Віра"}
	lines := []string{"joker"} // a nickname in another case is the club's player
	lines = append(lines, club20[1:10]...)
	lines = append(lines, "", "Зайвий Гравець")
	lines = append(lines, club20[10:]...)
	lines = append(lines, guests...)
	lines = append(lines, "JOKER") // twice
	admin.do("paste the list", chromedp.SetValue(chromedp.CSS(`#add-participants textarea[name=list]`), strings.Join(lines, "\n")))
	admin.submit("add the list", `#add-participants button`)
	admin.wantPath(tourPath + "/bulk")
	type reportLine struct{ Line, Name, Outcome, Class string }
	report := eval[[]reportLine](admin, `[...document.querySelectorAll('#bulk-report tbody tr')].map(tr => ({
		Line: tr.cells[0].textContent.trim(), Name: tr.cells[1].textContent.trim(), Outcome: tr.cells[2].textContent.trim(), Class: tr.className}))`)
	if len(report) != 25 {
		t.Fatalf("the report has %d lines, want 25 (26 lines, one blank): %+v", len(report), report)
	}
	if r := report[0]; r.Line != "1" || r.Name != "Joker" || r.Outcome != T("tour.line.member") || r.Class != "added" {
		t.Errorf("line 1 reads %+v, want Joker, a club player", r)
	}
	if r := report[10]; r.Line != "12" || r.Name != "Зайвий Гравець" || r.Outcome != T("tour.line.guest") {
		t.Errorf("line 12 reads %+v, want a guest", r)
	}
	if r := report[24]; r.Line != "26" || r.Name != "Joker" || r.Outcome != T("tour.line.duplicate") || r.Class != "refused" {
		t.Errorf("the last line reads %+v, want Joker not added again", r)
	}
	admin.open(tourPath)
	if h := admin.texts("#main > h2"); !slices.Contains(h, T("tour.participants")+" (24)") {
		t.Errorf("the headings %q do not count 24 players", h)
	}

	// 2. The mistaken player goes; the page asks first.
	asked := len(admin.dialogMessages())
	admin.do("choose the mistaken player", chromedp.SetValue(chromedp.CSS(`#remove-participant select[name=participant]`),
		eval[string](admin, `[...document.querySelectorAll('#remove-participant option')].find(o => o.textContent === 'Зайвий Гравець').value`)))
	admin.submit("remove him", `#remove-participant button`)
	if got := admin.dialogMessages()[asked:]; !slices.Equal(got, []string{T("tour.remove_confirm")}) {
		t.Errorf("removing asked %q, want the confirmation", got)
	}
	admin.wantPath(tourPath)
	if h := admin.texts("#main > h2"); !slices.Contains(h, T("tour.participants")+" (23)") {
		t.Fatalf("the headings %q do not count 23 players", h)
	}
	if p := admin.text("#participants"); strings.Contains(p, "Зайвий") {
		t.Errorf("the removed player is still listed: %s", p)
	}

	// 3. One stage of eight rounds at tables of ten (the form's default for fiim-xcraft).
	if sizes := eval[[]string](admin, `[...document.querySelectorAll('#add-stage select[name=per_table] option')].map(o => o.value)`); !slices.Equal(sizes, []string{"10"}) {
		t.Errorf("fiim-xcraft offers tables of %v, want only 10", sizes)
	}
	admin.do("eight rounds", chromedp.SetValue(chromedp.CSS(`#add-stage input[name=rounds]`), "8"))
	admin.submit("seat the players", `#add-stage button`)
	admin.wantPath(tourPath)
	slots := tourSchedule(admin)
	if len(slots) != 16 {
		t.Fatalf("%d tables in the schedule, want 2 a round for 8 rounds", len(slots))
	}
	type sitOut struct{ Round, Names string }
	outs := eval[[]sitOut](admin, `[...document.querySelectorAll('section.stage table.sitouts tbody tr')].map(tr => ({Round: tr.cells[0].textContent.trim(), Names: tr.cells[1].textContent.trim()}))`)
	if len(outs) != 8 {
		t.Fatalf("%d rounds with players sitting out, want 8: %+v", len(outs), outs)
	}
	all := append(slices.Clone(club20), guests...)
	games := map[string]int{}
	for r := 1; r <= 8; r++ {
		seen := map[string]int{}
		for _, s := range slots {
			if s.Round != fmt.Sprint(r) {
				continue
			}
			if len(s.Names) != 10 {
				t.Errorf("round %d table %s seats %d", r, s.Table, len(s.Names))
			}
			for _, n := range s.Names {
				seen[n]++
				games[n]++
			}
		}
		out := strings.Split(outs[r-1].Names, ", ")
		if outs[r-1].Round != fmt.Sprint(r) || len(out) != 3 {
			t.Errorf("round %d: sitting out %q", r, outs[r-1].Names)
		}
		for _, n := range out {
			seen[n]++
		}
		for _, n := range all {
			if seen[n] != 1 {
				t.Errorf("round %d names %s %d times", r, n, seen[n])
			}
		}
	}
	for _, n := range all {
		if games[n] != 6 && games[n] != 7 {
			t.Errorf("%s plays %d games, want 6 or 7", n, games[n])
		}
	}
	quality := admin.texts("section.stage ul.quality li")
	if !slices.Contains(quality, T("tour.q_games_range", 6, 7)) || !slices.Contains(quality, N("tour.q_seats.n", 1, 1)) {
		t.Errorf("the figures read %q", quality)
	}
	admin.wantText("section.stage p.unequal", T("tour.q_unequal", 23, 2, 10, 8))
	t.Logf("done in %v", time.Since(began).Round(time.Millisecond))
}

// warnings passes on the records of level WARN and above only.
type warnings struct{ slog.Handler }

func (w warnings) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && w.Handler.Enabled(ctx, l)
}

func (w warnings) WithAttrs(a []slog.Attr) slog.Handler { return warnings{w.Handler.WithAttrs(a)} }
func (w warnings) WithGroup(g string) slog.Handler      { return warnings{w.Handler.WithGroup(g)} }
