package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// A substitute through the page: the player who left keeps his saved game, and the standings and the CSV name
// both; a stage at one table shows who sits out; a bad table size is refused with the rule set's range.
func TestSubstituteOnThePage(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	svc := h.site.Services()
	adminUser, _ := h.store.UserByLogin(ctx, "admin")
	admin := h.login("admin", "demo-admin")
	tour := &club.Tournament{Name: "Cup", StartsOn: "2026-12-01", EndsOn: "2026-12-02", Rules: club.ClubRules, ChiefJudge: adminUser.ID}
	if err := svc.Tournaments.Create(ctx, adminUser, tour); err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/tournaments/%d", tour.ID)
	list := "Joker\nBohdana\nCyborg\nDana\nEmil\nFantom\nHalyna\nIris\nJarvis\nKaiser\nLada"
	if r := h.post(admin, path+"/bulk", url.Values{"list": {list}}); r.StatusCode != http.StatusOK || strings.Count(r.Body, `<tr class="added">`) != 11 {
		t.Fatalf("bulk: %d, %d added", r.StatusCode, strings.Count(r.Body, `<tr class="added">`))
	}
	if page := h.get(admin, path).Body; !strings.Contains(page, `<option value="7">7</option>`) || !strings.Contains(page, `data-confirm="Прибрати цього гравця з турніру?"`) {
		t.Error("the page offers no tables of 7 (club rules) or removes without asking")
	}
	if r := h.post(admin, path+"/stages", url.Values{"name": {"Q"}, "rounds": {"2"}, "per_table": {"6"}}); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "від 7 до 10") {
		t.Errorf("tables of 6: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.post(admin, path+"/stages", url.Values{"name": {"Q"}, "rounds": {"2"}, "per_table": {"10"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("stage: %d %s", r.StatusCode, errorOf(r.Body))
	}
	page := h.get(admin, path).Body
	if !strings.Contains(page, `<table class="list sitouts">`) || !strings.Contains(page, "ігри: від 1 до 2 на гравця") {
		t.Error("the stage shows no sit-outs or no games figure")
	}
	stages, _ := h.store.Stages(ctx, tour.ID)
	st := stages[0]
	if err := svc.Tournaments.SetJudge(ctx, adminUser, tour.ID, st.ID, 1, adminUser.ID); err != nil {
		t.Fatal(err)
	}
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	g, err := svc.Tournaments.StartGame(ctx, adminUser, tour.ID, st.ID, 1, 1, roles)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := svc.Games.Act(ctx, adminUser, g.ID, 0, []record.Event{{Event: mafia.TeamLoss(3), Reason: "oath"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Games.Save(ctx, adminUser, g.ID, gs.Game.Version, true); err != nil {
		t.Fatal(err)
	}
	parts, _ := h.store.Participants(ctx, tour.ID)
	var leaver club.Participant
	for _, p := range parts {
		if p.ID == st.Schedule[0][0][0] {
			leaver = p
		}
	}
	r := h.post(admin, path+"/replace", url.Values{"participant": {strconv.FormatInt(leaver.ID, 10)}, "substitute": {"Гість Запасний"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("replace: %d %s", r.StatusCode, errorOf(r.Body))
	}
	page = h.get(h.client(), path).Body
	if want := leaver.Name + " (вибув; його замінює Гість Запасний)"; !strings.Contains(page, want) {
		t.Errorf("the standings do not say %q", want)
	}
	if csv := h.get(h.client(), path+"/standings.csv").Body; !strings.Contains(csv, leaver.Name+" (вибув") {
		t.Errorf("the CSV does not name the substitute: %s", csv)
	}
	if !strings.Contains(page, "Гість Запасний") {
		t.Error("the schedule does not seat the substitute")
	}
}
