package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"summaries of old protocols", summaries})
}

// SummaryCSV is a file of two old games as a club keeps them (one row per seat, the game's cells on its first
// row; semicolons and decimal commas, as a Ukrainian spreadsheet saves them): nicks[i] sits at seat i+1 of the
// first game and at seat 10-i of the second.
func SummaryCSV(day1, day2 string, nicks [10]string) string {
	var b strings.Builder
	b.WriteString("\ufeffdate;game;winner;seat;player;role;fouls;best_move;extras;judge_points;total\n")
	roles := []string{"К", "К", "Ш", "К", "Ч", "К", "Д", "К", "Ч", "К"}
	for i := 0; i < 10; i++ {
		first := ";"
		if i == 0 {
			first = day1 + ";1;червоні"
		} else {
			first = ";;"
		}
		bm, total := "", "1,3"
		switch i {
		case 0:
			bm, total = "5 7 2", "1,85" // 1.3 + 0.5 for two blacks, + 0.05 of the club's extras
		case 4, 6, 8:
			total = "0,3"
		}
		extras := ""
		if i == 0 {
			extras = "0,05"
		}
		fmt.Fprintf(&b, "%s;%d;%s;%s;0;%s;%s;;%s\n", first, i+1, nicks[i], roles[i], bm, extras, total)
	}
	b.WriteString(";;;;;;;;;;\n") // a blank row between games, as sheets have
	for i := 0; i < 10; i++ {
		first := ";;"
		if i == 0 {
			first = day2 + ";1;black"
		}
		fouls := "0"
		if i == 3 {
			fouls = "4" // disqualified by the 4th foul: -0.8
		}
		fmt.Fprintf(&b, "%s;%d;%s;%s;%s;;;;\n", first, i+1, nicks[9-i], roles[i], fouls)
	}
	return b.String()
}

// summaries: a club's old protocols go into the history and the ratings in one transaction (games, results, the
// standings and the Elo of the games after them), the same file twice files each game once, a file with a bad game
// files nothing, and a summary deleted leaves the ratings as if it never was.
func summaries(t *testing.T, s club.Store) {
	ctx := context.Background()
	host := NewHost(t, s, "archivist")
	admin := &club.User{ID: host.ID, Role: club.RoleAdmin}
	var players []club.Player
	var nicks [10]string
	for i := 0; i < 12; i++ {
		p := club.Player{Nick: fmt.Sprintf("Veteran%02d", i)}
		must(t, s.CreatePlayer(ctx, &p))
		players = append(players, p)
		if i < 9 {
			nicks[i] = p.Nick
		}
	}
	nicks[9] = "Old Guest"
	zone := time.FixedZone("club", -6*3600)
	clock := club.NewClock(zone, nil)
	svc := club.NewServices(s, clock)
	rng := rand.New(rand.NewPCG(7, 8))
	var saved []int64
	for i := 0; i < 6; i++ {
		id, _ := genGame(t, clock, svc.Games, host, rng, players, time.Date(2025, 6, 1+i, 19, 0, 0, 0, zone))
		saved = append(saved, id)
	}
	clock.Set(func() time.Time { return time.Date(2025, 7, 1, 12, 0, 0, 0, zone) })
	data := []byte(SummaryCSV("05.03.2024", "2024-03-12", nicks))

	_, err := svc.Summaries.Import(ctx, &club.User{ID: host.ID, Role: club.RoleHost}, "old.csv", data)
	wantCode(t, err, club.Forbidden)
	pv, err := svc.Summaries.Preview(ctx, admin, "old.csv", data)
	must(t, err)
	if len(pv.Problems) > 0 {
		t.Fatalf("problems: %v", pv.Problems)
	}
	if pv.New != 2 || pv.Known != 0 || pv.Members != 9 || len(pv.Guests) != 1 || pv.Guests[0] != "Old Guest" {
		t.Fatalf("preview: %d new, %d known, %d members, guests %v", pv.New, pv.Known, pv.Members, pv.Guests)
	}
	rep, err := svc.Summaries.Import(ctx, admin, "old.csv", data)
	must(t, err)
	if len(rep.IDs) != 2 {
		t.Fatalf("imported %v", rep.IDs)
	}
	summaryRatings(t, s, svc, host, append(saved, rep.IDs...))
	g, err := s.Game(ctx, rep.IDs[0])
	must(t, err)
	if !g.IsSummary() || g.Status != club.GameSaved || g.Winner != "red" || g.Events != 0 || !g.CreatedAt.Equal(time.Date(2024, 3, 5, 0, 1, 0, 0, zone)) {
		t.Fatalf("the summary game is %+v", g)
	}
	if g.Seats[9].PlayerID != 0 || g.Seats[0].PlayerID != players[0].ID {
		t.Errorf("seats: %+v", g.Seats)
	}
	res, err := s.PlayerResults(ctx, players[0].ID)
	must(t, err)
	if len(res) == 0 || !res[0].Summary || res[0].Points != 185 || res[0].Stats.BestNamed != 3 || res[0].Stats.BestBlacks != 2 || !res[0].Stats.FirstKilled {
		t.Errorf("his first result: %+v", res[0])
	}

	// the same file again (a retried request, or the admin once more): recognised, nothing doubled
	before, _ := s.Standings(ctx, club.RatingFilter{})
	again, err := svc.Summaries.Import(ctx, admin, "old.csv", data)
	must(t, err)
	if len(again.IDs) != 0 || again.Known != 2 {
		t.Fatalf("the second import filed %v (%d known)", again.IDs, again.Known)
	}
	after, _ := s.Standings(ctx, club.RatingFilter{})
	club.SortStandings(before)
	club.SortStandings(after)
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("the second import changed the rating")
	}
	known, err := s.KnownSummaries(ctx, []string{rep.SummaryPreview.Games[0].Source(), "summary:1999-01-01/1/1"})
	must(t, err)
	if len(known) != 1 || known[rep.SummaryPreview.Games[0].Source()].GameID != rep.IDs[0] {
		t.Errorf("known: %v", known)
	}

	// the same game with other facts is refused, and a file with any bad game files none of its games
	changed := strings.Replace(string(data), "1,85", "1,95", 1)
	pv, err = svc.Summaries.Preview(ctx, admin, "old.csv", []byte(changed))
	must(t, err)
	if len(pv.Problems) == 0 {
		t.Fatal("a total the rules do not give was taken")
	}
	bad := SummaryCSV("06.03.2024", "13.03.2024", nicks)
	bad = strings.Replace(bad, ";К;4;", ";К;5;", 1) // 5 fouls in the second game
	n0, _ := s.CountGames(ctx, club.GameFilter{})
	if _, err := svc.Summaries.Import(ctx, admin, "bad.csv", []byte(bad)); club.ErrorCode(err) != club.Invalid {
		t.Fatalf("a bad file: %v", err)
	}
	if n1, _ := s.CountGames(ctx, club.GameFilter{}); n1 != n0 {
		t.Fatalf("a bad file filed %d games", n1-n0)
	}

	// reopening is refused; deleting takes the game out of the history and the ratings
	_, err = svc.Games.Reopen(ctx, admin, rep.IDs[0], g.Version)
	wantCode(t, err, club.Invalid)
	wantCode(t, svc.Summaries.Delete(ctx, host, rep.IDs[0]), club.Forbidden)
	wantCode(t, svc.Summaries.Delete(ctx, admin, saved[0]), club.Invalid)
	must(t, svc.Summaries.Delete(ctx, admin, rep.IDs[0]))
	_, err = s.Game(ctx, rep.IDs[0])
	wantCode(t, err, club.NotFound)
	summaryRatings(t, s, svc, host, append(saved, rep.IDs[1]))
	log, err := s.SummaryLog(ctx, 10)
	must(t, err)
	if len(log) != 3 || log[0].Action != "delete" || log[1].Games != 0 || log[1].Skipped != 2 || log[2].Games != 2 || log[2].ByName != "archivist" {
		t.Errorf("log: %+v", log)
	}
	// deleted, it may be imported again
	re, err := svc.Summaries.Import(ctx, admin, "old.csv", data)
	must(t, err)
	if len(re.IDs) != 1 || re.Known != 1 {
		t.Errorf("imported again: %v, %d known", re.IDs, re.Known)
	}
	summaryRatings(t, s, svc, host, append(saved, rep.IDs[1], re.IDs[0]))
	d, err := club.Digest(ctx, s)
	must(t, err)
	if !strings.Contains(d[re.IDs[0]], "summary") || !strings.Contains(d[re.IDs[0]], "1:citizen:185:") {
		t.Errorf("digest: %s", d[re.IDs[0]])
	}
}

// summaryRatings checks the club's rating (points, games, wins, Elo) against a straightforward recomputation over
// the games, replayed ones from their records and summaries from their facts, in the order they were played.
func summaryRatings(t *testing.T, s club.Store, svc *club.Services, host *club.User, ids []int64) {
	t.Helper()
	ctx := context.Background()
	type seat struct {
		player int64
		team   mafia.Team
		won    bool
		points int
	}
	type game struct {
		at     time.Time
		id     int64
		winner string
		seats  []seat
	}
	var list []game
	for _, id := range ids {
		g, err := s.Game(ctx, id)
		must(t, err)
		if !g.Rated || g.Status != club.GameSaved {
			continue
		}
		gm := game{at: g.CreatedAt, id: id, winner: g.Winner}
		var results []mafia.SeatResult
		if g.IsSummary() {
			_, sg, err := svc.Summaries.Game(ctx, id)
			must(t, err)
			results = sg.Points
		} else {
			st, err := svc.Games.Load(ctx, host, id)
			must(t, err)
			results = st.Play.Result().Seats
		}
		for _, sr := range results {
			gm.seats = append(gm.seats, seat{g.Seats[sr.Seat-1].PlayerID, sr.Team, sr.Won, sr.Points})
		}
		list = append(list, gm)
	}
	sort.Slice(list, func(i, j int) bool {
		return list[i].at.Before(list[j].at) || (list[i].at.Equal(list[j].at) && list[i].id < list[j].id)
	})
	want := map[int64]*club.Standing{}
	elo := map[int64]int{}
	games, red := 0, 0
	for _, g := range list {
		var sum [2]float64
		var n [2]int
		for _, st := range g.seats {
			v := club.EloStart
			if e, ok := elo[st.player]; ok && st.player != 0 {
				v = e
			}
			side := 0
			if st.team == mafia.Black {
				side = 1
			}
			sum[side] += float64(v)
			n[side]++
		}
		d := club.EloDelta(sum[0]/float64(max(n[0], 1)), sum[1]/float64(max(n[1], 1)), g.winner, games, red)
		games++
		if g.winner == "red" {
			red++
		}
		for _, st := range g.seats {
			if st.player == 0 {
				continue
			}
			w := want[st.player]
			if w == nil {
				w = &club.Standing{PlayerID: st.player}
				want[st.player] = w
				elo[st.player] = club.EloStart
			}
			w.Games++
			w.Points += st.points
			if st.won {
				w.Wins++
			}
			if st.team == mafia.Black {
				elo[st.player] -= d
			} else {
				elo[st.player] += d
			}
			w.Elo = elo[st.player]
		}
	}
	got, err := s.Standings(ctx, club.RatingFilter{})
	must(t, err)
	if len(got) != len(want) {
		t.Fatalf("%d players in the rating, want %d", len(got), len(want))
	}
	for _, g := range got {
		w := want[g.PlayerID]
		if w == nil || g.Games != w.Games || g.Wins != w.Wins || g.Points != w.Points || g.Elo != w.Elo {
			t.Fatalf("player %d: got %d games, %d wins, %d points, Elo %d; want %+v", g.PlayerID, g.Games, g.Wins, g.Points, g.Elo, w)
		}
	}
}
