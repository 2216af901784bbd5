package club_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// bigTournament makes a tournament of rules with n guests, "P01".."Pnn", added as one pasted list.
func (f *fixture) bigTournament(rules string, n int) *club.Tournament {
	f.t.Helper()
	ctx := context.Background()
	tour := &club.Tournament{Name: "Open", StartsOn: "2026-12-01", EndsOn: "2026-12-02", Rules: rules, ChiefJudge: f.users["chief"].ID}
	f.must(f.svc.Tournaments.Create(ctx, f.users["admin"], tour))
	var list []string
	for i := 1; i <= n; i++ {
		list = append(list, fmt.Sprintf("P%02d", i))
	}
	rep, err := f.svc.Tournaments.AddParticipants(ctx, f.users["admin"], tour.ID, strings.Join(list, "\n"))
	f.must(err)
	if len(rep) != n {
		f.t.Fatalf("%d lines reported for %d", len(rep), n)
	}
	return tour
}

// gamesPerPlayer counts each participant's games in a stage's schedule, and checks every round names every
// player once, at a table or sitting out.
func gamesPerPlayer(t *testing.T, st *club.Stage, players int) map[int64]int {
	t.Helper()
	games := map[int64]int{}
	for r, round := range st.Schedule {
		seen := map[int64]bool{}
		for _, table := range round {
			if len(table) != st.PerTable {
				t.Errorf("round %d: a table of %d, want %d", r+1, len(table), st.PerTable)
			}
			for _, id := range table {
				seen[id] = true
				games[id]++
			}
		}
		for _, id := range st.SitsOut(r + 1) {
			if seen[id] {
				t.Errorf("round %d: participant %d plays and sits out", r+1, id)
			}
			seen[id] = true
		}
		if len(seen) != players {
			t.Errorf("round %d names %d players, want %d", r+1, len(seen), players)
		}
	}
	return games
}

// The tournament: 23 players cannot fill tables of 10, so 3 sit out each round; everyone plays 6 or 7
// games of 8 rounds (no schedule can be equal), and the figures say so. Smaller tables where the rules allow
// them, fewer tables on the organiser's choice; refusals say why.
func TestStageOfAnySize(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin := f.users["admin"]
	tour := f.bigTournament(club.DefaultTournamentRules, 23)
	st, q, err := f.svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "Q", Rounds: 8})
	f.must(err)
	if st.Tables() != 2 || len(st.SitOut) != 8 || len(st.SitsOut(1)) != 3 {
		t.Fatalf("23 players: %d tables, %d sit-out lists, %d sit out round 1; want 2, 8, 3", st.Tables(), len(st.SitOut), len(st.SitsOut(1)))
	}
	for id, g := range gamesPerPlayer(t, st, 23) {
		if g != 6 && g != 7 {
			t.Errorf("participant %d plays %d games, want 6 or 7", id, g)
		}
	}
	if q.Equal() || q.EqualPossible || q.GamesMin != 6 || q.GamesMax != 7 || q.SitOutsEarly != 0 {
		t.Errorf("figures: games %d-%d, equal possible %v, early sit-outs %d", q.GamesMin, q.GamesMax, q.EqualPossible, q.SitOutsEarly)
	}
	// the stored stage gives the same figures on its page
	o, err := f.svc.Tournaments.Overview(ctx, tour.ID)
	f.must(err)
	if o.Stages[0].Quality == nil || o.Stages[0].Quality.GamesMax != 7 || len(o.Stages[0].SitsOut(8)) != 3 {
		t.Errorf("the overview's figures: %+v", o.Stages[0].Quality)
	}

	// fiim-xcraft is played at tables of 10 only; one table on the organiser's choice: 13 sit out
	_, _, err = f.svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Rounds: 2, PerTable: 8})
	wantMessage(t, err, "is played at tables of 10")
	_, _, err = f.svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Rounds: 2, Tables: 3})
	wantMessage(t, err, "23 players fill 1 to 2 tables of 10")
	one, _, err := f.svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "One", Rounds: 3, Tables: 1})
	f.must(err)
	if one.Tables() != 1 || len(one.SitsOut(2)) != 13 {
		t.Errorf("one table: %d tables, %d sit out", one.Tables(), len(one.SitsOut(2)))
	}

	// the club's rules allow tables of 7 to 10: 23 players at tables of 7 are 3 tables, 2 sit out
	club7 := f.bigTournament(club.ClubRules, 23)
	small, q7, err := f.svc.Tournaments.AddStage(ctx, admin, club7.ID, club.StageForm{Rounds: 4, PerTable: 7})
	f.must(err)
	if small.Tables() != 3 || small.PerTable != 7 || len(small.SitsOut(1)) != 2 || q7.GamesMax-q7.GamesMin > 1 {
		t.Errorf("tables of 7: %d tables of %d, %d sit out, games %d-%d", small.Tables(), small.PerTable, len(small.SitsOut(1)), q7.GamesMin, q7.GamesMax)
	}
	_, _, err = f.svc.Tournaments.AddStage(ctx, admin, club7.ID, club.StageForm{Rounds: 4, PerTable: 6})
	wantMessage(t, err, "is played at tables of 7 to 10")

	// fewer players than a table
	few := f.bigTournament(club.DefaultTournamentRules, 9)
	_, _, err = f.svc.Tournaments.AddStage(ctx, admin, few.ID, club.StageForm{Rounds: 2})
	wantMessage(t, err, "9 approved players do not fill a table of 10")
}

func wantMessage(t *testing.T, err error, want string) {
	t.Helper()
	if club.ErrorCode(err) != club.Invalid || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an invalid request saying %q", err, want)
	}
}

// A swap with a player who sits the round out: he takes the seat, the other sits out; the figures show the games
// moved, and a pair kept apart is never seated together by a swap.
func TestSwapWithSitOut(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin := f.users["admin"]
	tour := f.bigTournament(club.DefaultTournamentRules, 21)
	st, _, err := f.svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Rounds: 6, Apart: [][2]string{{"P01", "P02"}}})
	f.must(err)
	parts, _ := f.db.Participants(ctx, tour.ID)
	id := map[string]int64{}
	for _, p := range parts {
		id[p.Name] = p.ID
	}
	out := st.SitsOut(1)[0]
	table := st.Schedule[0][0] // the table without the partner of the one sitting out, if he has one
	if partner := map[int64]int64{id["P01"]: id["P02"], id["P02"]: id["P01"]}[out]; slices.Contains(table, partner) {
		table = st.Schedule[0][1]
	}
	seated := table[3]
	before := gamesPerPlayer(t, st, 21)
	f.must(f.svc.Tournaments.Swap(ctx, admin, tour.ID, st.ID, 1, out, seated))
	after, err := f.db.Stage(ctx, st.ID)
	f.must(err)
	if !slices.Contains(after.Schedule[0][0], out) && !slices.Contains(after.Schedule[0][1], out) || !slices.Contains(after.SitsOut(1), seated) || slices.Contains(after.SitsOut(1), out) {
		t.Fatalf("after the swap: table %v, sitting out %v", after.Schedule[0][0], after.SitsOut(1))
	}
	games := gamesPerPlayer(t, after, 21)
	if games[out] != before[out]+1 || games[seated] != before[seated]-1 {
		t.Errorf("games: %d→%d and %d→%d", before[out], games[out], before[seated], games[seated])
	}
	// P01 and P02 are kept apart: a swap that would bring one to the other's table is refused
	for r := 2; r <= 6; r++ {
		for ti, table := range after.Schedule[r-1] {
			if slices.Contains(table, id["P02"]) && !slices.Contains(table, id["P01"]) && slices.Contains(after.Schedule[r-1][1-ti], id["P01"]) {
				other := table[0]
				if other == id["P02"] {
					other = table[1]
				}
				wantMessage(t, f.svc.Tournaments.Swap(ctx, admin, tour.ID, st.ID, r, id["P01"], other), "kept apart")
				return
			}
		}
	}
	t.Error("no round seats P01 and P02 at the two tables")
}

// A pasted list: club players by their nicknames in any case, guests, blank lines skipped, and a report line by
// line for what was not added.
func TestAddParticipantsInBulk(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin := f.users["admin"]
	tour := &club.Tournament{Name: "Cup", StartsOn: "2026-12-01", EndsOn: "2026-12-02", ChiefJudge: f.users["chief"].ID}
	f.must(f.svc.Tournaments.Create(ctx, admin, tour))
	list := "nick-member\r\n\n  Гість Олег  \nNICK-MEMBER\nГість олег\n" + strings.Repeat("x", club.MaxNick+1) + "\nBad\u202eName\nNick-host"
	rep, err := f.svc.Tournaments.AddParticipants(ctx, admin, tour.ID, list)
	f.must(err)
	type line struct {
		n       int
		name    string
		outcome club.LineOutcome
	}
	want := []line{{1, "Nick-member", club.LineMember}, {3, "Гість Олег", club.LineGuest}, {4, "Nick-member", club.LineDuplicate},
		{5, "Гість олег", club.LineDuplicate}, {6, strings.Repeat("x", club.MaxNick+1), club.LineInvalid}, {7, "Bad\u202eName", club.LineInvalid},
		{8, "Nick-host", club.LineMember}}
	if len(rep) != len(want) {
		t.Fatalf("report %+v", rep)
	}
	for i, w := range want {
		if rep[i].Line != w.n || rep[i].Name != w.name || rep[i].Outcome != w.outcome {
			t.Errorf("line %d: %+v, want %+v", i, rep[i], w)
		}
	}
	if rep[4].Err == nil || !strings.Contains(rep[4].Err.Error(), "at most 30 characters") || rep[5].Err == nil || !strings.Contains(rep[5].Err.Error(), "control character") {
		t.Errorf("the refused lines say %v and %v", rep[4].Err, rep[5].Err)
	}
	parts, _ := f.db.Participants(ctx, tour.ID)
	if len(parts) != 3 || parts[0].PlayerID != f.users["member"].PlayerID || parts[1].PlayerID != 0 || !parts[1].Approved {
		t.Errorf("participants %+v", parts)
	}
	_, err = f.svc.Tournaments.AddParticipants(ctx, admin, tour.ID, strings.Repeat("a\n", club.MaxBulkLines+1))
	wantMessage(t, err, "at most 300 lines")
}

// A player is removed before he is seated; once seated he can only be replaced. A substitute takes his places
// from the first game that has not begun; the games he played stay his in the standings, and the standings name
// both.
func TestRemoveAndReplace(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin := f.users["admin"]
	tour := f.bigTournament(club.DefaultTournamentRules, 11)
	parts, _ := f.db.Participants(ctx, tour.ID)
	f.must(f.svc.Tournaments.RemoveParticipant(ctx, admin, tour.ID, parts[10].ID))
	if left, _ := f.db.Participants(ctx, tour.ID); len(left) != 10 {
		t.Fatalf("%d participants after removing one", len(left))
	}
	other := f.bigTournament(club.DefaultTournamentRules, 1)
	otherParts, _ := f.db.Participants(ctx, other.ID)
	if err := f.svc.Tournaments.RemoveParticipant(ctx, admin, tour.ID, otherParts[0].ID); club.ErrorCode(err) != club.NotFound {
		t.Errorf("removing another tournament's player: %v", err)
	}
	st, _, err := f.svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "Q", Rounds: 3})
	f.must(err)
	leaver := st.Schedule[0][0][0]
	wantMessage(t, f.svc.Tournaments.RemoveParticipant(ctx, admin, tour.ID, leaver), "replace him by a substitute")

	// round 1 is played and saved (seat 3 black, team loss: red wins); then the player at seat 1 leaves
	f.must(f.svc.Tournaments.SetJudge(ctx, admin, tour.ID, st.ID, 1, f.users["judge"].ID))
	g, err := f.svc.Tournaments.StartGame(ctx, f.users["judge"], tour.ID, st.ID, 1, 1, tenRoles)
	f.must(err)
	gs, err := f.svc.Games.Act(ctx, f.users["judge"], g.ID, 0, []record.Event{{Event: mafia.TeamLoss(3), Reason: "oath"}})
	f.must(err)
	_, err = f.svc.Games.Save(ctx, f.users["judge"], g.ID, gs.Game.Version, true)
	f.must(err)
	_, err = f.svc.Tournaments.Replace(ctx, admin, tour.ID, leaver, "P02")
	wantMessage(t, err, "P02 is in the tournament already")
	sub, err := f.svc.Tournaments.Replace(ctx, admin, tour.ID, leaver, "Nick-member")
	f.must(err)
	if sub.PlayerID != f.users["member"].PlayerID || sub.Replaces != leaver {
		t.Errorf("substitute %+v", sub)
	}
	after, _ := f.db.Stage(ctx, st.ID)
	if after.Schedule[0][0][0] != leaver {
		t.Errorf("the played game's seat moved to %d", after.Schedule[0][0][0])
	}
	for r := 2; r <= 3; r++ {
		if slices.Contains(after.Schedule[r-1][0], leaver) || !slices.Contains(after.Schedule[r-1][0], sub.ID) {
			t.Errorf("round %d still seats the player who left: %v", r, after.Schedule[r-1][0])
		}
	}
	_, err = f.svc.Tournaments.Replace(ctx, admin, tour.ID, leaver, "Another")
	wantMessage(t, err, "has left already")
	lines, byID, err := f.svc.Tournaments.Standings(ctx, tour.ID, "")
	f.must(err)
	var his, subs bool
	for _, l := range lines {
		switch l.Participant {
		case leaver:
			his = l.Games == 1 && byID[leaver].Left
		case sub.ID:
			subs = true
		}
	}
	if !his || subs {
		t.Errorf("standings: the leaver's game counted %v, the substitute listed %v (%+v)", his, subs, lines)
	}
	// the next round's game seats the substitute, and its figures still compute
	g2, err := f.svc.Tournaments.StartGame(ctx, f.users["judge"], tour.ID, st.ID, 2, 1, tenRoles)
	f.must(err)
	if !slices.ContainsFunc(g2.Seats, func(s club.Seat) bool { return s.Name == "Nick-member" }) {
		t.Errorf("round 2 seats %+v, without the substitute", g2.Seats)
	}
	o, _ := f.svc.Tournaments.Overview(ctx, tour.ID)
	if o.Stages[0].Quality == nil || o.Stages[0].Quality.GamesMax != 3 {
		t.Errorf("figures after the substitute: %+v", o.Stages[0].Quality)
	}
	// a stage seated after he left leaves him out
	st2, _, err := f.svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "R", Rounds: 1})
	f.must(err)
	if slices.Contains(st2.Players, leaver) || !slices.Contains(st2.Players, sub.ID) {
		t.Errorf("a later stage seats %v", st2.Players)
	}
}

// A player replaced before the stage begins stays out when the organiser reseats it.
func TestReseatAfterSubstitute(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin := f.users["admin"]
	tour := f.bigTournament(club.DefaultTournamentRules, 12)
	st, _, err := f.svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "Q", Rounds: 3})
	f.must(err)
	leaver := st.Players[0]
	sub, err := f.svc.Tournaments.Replace(ctx, admin, tour.ID, leaver, "Late Guest")
	f.must(err)
	f.must(f.svc.Tournaments.Reseat(ctx, admin, tour.ID, st.ID, 99))
	again, _ := f.db.Stage(ctx, st.ID)
	games := gamesPerPlayer(t, again, 12)
	if games[leaver] != 0 || games[sub.ID] == 0 {
		t.Errorf("after reseating: the leaver plays %d, the substitute %d", games[leaver], games[sub.ID])
	}
	for r := 1; r <= 3; r++ {
		if slices.Contains(again.SitsOut(r), leaver) {
			t.Errorf("round %d: the leaver sits out instead of being gone", r)
		}
	}
	o, _ := f.svc.Tournaments.Overview(ctx, tour.ID)
	if o.Stages[0].Quality == nil {
		t.Error("no figures after reseating")
	}
}
