package demo

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/storetest"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// the present of the tests' seasons: a Wednesday afternoon in the server's default zone
var (
	testZone, _ = time.LoadLocation("America/Edmonton")
	testNow     = time.Date(2026, 3, 18, 15, 30, 0, 0, testZone)
)

func sqliteStore(t *testing.T) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), filepath.Join(t.TempDir(), "club.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func buildSeason(t *testing.T, s club.Store) *Report {
	t.Helper()
	rep, err := Season(context.Background(), s, Options{Seed: DefaultSeed, Now: testNow, Zone: testZone})
	if err != nil {
		t.Fatal(err)
	}
	if rep == nil {
		t.Fatal("no season was made")
	}
	t.Logf("the demo club is ready: %d games (%d at club nights, %d in the tournament), %d nights, %d members, in %v",
		rep.Games, rep.ClubGames, rep.TournamentGames, rep.Nights(), rep.Members, rep.Took.Round(time.Millisecond))
	return rep
}

// TestDemoSeason builds the season on SQLite and checks it (checkSeason), then builds it again from the same seed
// and present: every game's record (its seats, players, events and their times) and the rating are the same.
func TestDemoSeason(t *testing.T) {
	first := sqliteStore(t)
	checkSeason(t, first)
	if !testing.Short() { // -short builds it once
		second := sqliteStore(t)
		buildSeason(t, second)
		sameSeason(t, first, second)
	}
}

func TestDemoSeasonPostgres(t *testing.T) {
	db, err := sqlstore.Open(context.Background(), storetest.FreshPostgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	checkSeason(t, db)
}

// checkSeason builds the season on a fresh store and checks it: every saved game's record replays to its stored
// points, the ratings pass the generated-history check, and the season has what issue 25 lists.
func checkSeason(t *testing.T, s club.Store) {
	rep := buildSeason(t, s)
	ctx := context.Background()
	clock := club.NewClock(testZone, func() time.Time { return testNow })
	svc := club.NewServices(s, clock)
	admin, err := s.UserByLogin(ctx, club.DemoAdminLogin)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := s.GameIDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != rep.Games || rep.Games < 140 || rep.Games > 170 || rep.TournamentGames != 17 {
		t.Fatalf("%d games stored, %d reported (%d in the tournament); want about 150", len(ids), rep.Games, rep.TournamentGames)
	}

	// every saved game replays, through its record's JSON, to the points stored for its players
	stored := map[[2]int64]int{} // game, seat -> points
	for _, nick := range club.DemoNicks() {
		p, err := s.PlayerByNick(ctx, nick)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.PlayerResults(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) == 0 {
			t.Errorf("%s has no results", nick)
		}
		for _, r := range res {
			stored[[2]int64{r.GameID, int64(r.Seat)}] = r.Points
		}
	}
	type tally map[string]int
	seen := tally{}
	checked := 0
	for _, id := range ids {
		st, err := svc.Games.Load(ctx, admin, id)
		if err != nil {
			t.Fatal(err)
		}
		if st.Game.Status != club.GameSaved {
			t.Fatalf("game %d is %s", id, st.Game.Status)
		}
		rec, err := record.Decode(record.Encode(st.Record))
		if err != nil {
			t.Fatalf("game %d: %v", id, err)
		}
		play, err := rec.Replay()
		if err != nil || !play.Finished() {
			t.Fatalf("game %d does not replay to a result: %v", id, err)
		}
		if play.Winner().String() != st.Game.Winner {
			t.Errorf("game %d: the record's winner is %s, the stored one %s", id, play.Winner(), st.Game.Winner)
		}
		res := play.Result()
		for _, sr := range res.Seats {
			seat := st.Game.Seats[sr.Seat-1]
			if seat.PlayerID == 0 {
				seen["guest seats"]++
				continue
			}
			got, ok := stored[[2]int64{id, int64(sr.Seat)}]
			if !ok || got != sr.Points {
				t.Fatalf("game %d, seat %d: the record replays to %d points, the store has %d (%v)", id, sr.Seat, sr.Points, got, ok)
			}
			checked++
		}
		seen[st.Game.Rules]++
		seen[[]string{"normal", "rated"}[b2i(st.Game.Rated)]]++
		seen["players "+string(rune('0'+len(st.Game.Seats)%10))]++
		for _, d := range res.Days {
			for _, r := range d.Rounds {
				switch {
				case r.Lift:
					seen["lifts"]++
				case r.Outcome == mafia.OutcomeRevote:
					seen["ties"]++
				}
			}
		}
		for _, sr := range res.Seats {
			seen["fouls"] += sr.Fouls
			seen["warnings"] += sr.Warnings
			if sr.Out.How == mafia.OutDisqualified {
				seen["disqualifications"]++
			}
		}
		for _, e := range rec.Events {
			if e.Type == mafia.EvBestMove {
				seen["best moves"]++
			}
		}
		if st.Game.NightID != 0 {
			seen["at a night"]++
		}
	}
	t.Logf("%d seats replayed to their stored points; %v", checked, seen)
	for what, least := range map[string]int{"fiim-2025-club": 80, "fsm-2026": 3, "fiim-xcraft": 17, "home-ua": 2, "home-doctor": 2,
		"rated": 100, "normal": 5, "players 7": 1, "players 8": 5, "players 9": 5, "players 0": 30, "guest seats": 10,
		"ties": 10, "lifts": 3, "fouls": 20, "warnings": 1, "disqualifications": 3, "best moves": 50, "at a night": 130} {
		if seen[what] < least {
			t.Errorf("%s: %d, want at least %d", what, seen[what], least)
		}
	}

	// the ratings, Elo and figures against a straightforward replay of the records
	storetest.CheckRatings(t, s, svc, admin, ids)

	// the nights: past ones with their line-ups and strikes, a member on low priority, two to come with a reserve
	nights, err := s.Nights(ctx, testNow.AddDate(-1, 0, 0), testNow.AddDate(1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var past, coming, late, noShow int
	for _, n := range nights {
		regs, err := s.Registrations(ctx, n.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range regs {
			late += b2i(r.Late)
			noShow += b2i(r.NoShow)
		}
		if n.StartsAt.Before(testNow) {
			past++
			if n.Main < 14 {
				t.Errorf("the night of %s has %d in its main line-up", n.StartsAt, n.Main)
			}
			continue
		}
		coming++
		if n.Main != n.MainSize() || n.Reserve == 0 {
			t.Errorf("the coming night of %s: %d of %d places taken, %d in the reserve", n.StartsAt, n.Main, n.MainSize(), n.Reserve)
		}
	}
	if past != 13 || coming != 2 || late < 3 || noShow < 2 || rep.Nights() != 15 {
		t.Errorf("%d past nights, %d to come, %d late cancellations, %d no-shows", past, coming, late, noShow)
	}
	members, err := svc.Accounts.Members(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	low, accounts := 0, 0
	for _, m := range members {
		if m.Role == club.RoleMember {
			accounts++
			if m.Status == club.StatusLowPriority && m.Strikes >= 3 {
				low++
			}
		}
	}
	if low != 1 || accounts != 20 || rep.Members != 20 {
		t.Errorf("%d members on low priority with their strikes, %d member accounts (%d made)", low, accounts, rep.Members)
	}
	// a member logs in with the demo password
	if _, _, err := svc.Accounts.Login(ctx, club.Credentials{Login: MemberLogin(club.DemoNicks()[0]), Password: MemberPassword, Addr: "127.0.0.1"}); err != nil {
		t.Errorf("a demo member's login: %v", err)
	}

	// the tournament: 23 players, qualifying and a final, its standings, a decided protest
	tours, err := svc.Tournaments.List(ctx)
	if err != nil || len(tours) != 1 {
		t.Fatalf("%d tournaments: %v", len(tours), err)
	}
	o, err := svc.Tournaments.Overview(ctx, tours[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Participants) != 23 || len(o.Stages) != 2 || len(o.Stages[0].Games) != 14 || len(o.Stages[1].Games) != 3 || o.Tournament.Rules != "fiim-xcraft" {
		t.Fatalf("the tournament: %d players, %d stages", len(o.Participants), len(o.Stages))
	}
	lines, _, err := svc.Tournaments.Standings(ctx, tours[0].ID, "")
	if err != nil || len(lines) != 23 {
		t.Fatalf("the standings: %d lines, %v", len(lines), err)
	}
	decided := 0
	for _, st := range o.Stages {
		for _, g := range st.Games {
			ps, err := s.Protests(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				decided += b2i(p.Decided && p.Reason != "")
			}
		}
	}
	if decided != 1 {
		t.Errorf("%d decided protests", decided)
	}

	// made once: a second run leaves the club as it is
	if again, err := Season(ctx, s, Options{Seed: DefaultSeed, Now: testNow, Zone: testZone}); err != nil || again != nil {
		t.Errorf("a second season: %v, %v", again, err)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sameSeason compares two clubs: every game's record, byte for byte, and the digests of the games and the rating.
func sameSeason(t *testing.T, a, b club.Store) {
	ctx := context.Background()
	var records [2][][]byte
	var digests [2]map[int64]string
	for k, s := range []club.Store{a, b} {
		svc := club.NewServices(s, club.NewClock(testZone, nil))
		admin, err := s.UserByLogin(ctx, club.DemoAdminLogin)
		if err != nil {
			t.Fatal(err)
		}
		ids, err := s.GameIDs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			st, err := svc.Games.Load(ctx, admin, id)
			if err != nil {
				t.Fatal(err)
			}
			records[k] = append(records[k], record.Encode(st.Record))
		}
		if digests[k], err = club.Digest(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if len(records[0]) != len(records[1]) {
		t.Fatalf("%d games, then %d", len(records[0]), len(records[1]))
	}
	for i := range records[0] {
		if !bytes.Equal(records[0][i], records[1][i]) {
			t.Fatalf("game %d differs:\n%s\n%s", i+1, records[0][i], records[1][i])
		}
	}
	for id, d := range digests[0] {
		if digests[1][id] != d {
			t.Errorf("game %d: %s, then %s", id, d, digests[1][id])
		}
	}
}
