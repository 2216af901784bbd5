package sqlstore

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// TestRatingsBuiltFromSavedGames: what migration 0010 leaves to Go, on a database that has games. The figures of
// games saved before they existed are computed from their records when the program starts (Records.Backfill),
// and the standings and Elo are built from the saved results when the store opens: the same as if every game had
// been saved with them, and no point changes.
func TestRatingsBuiltFromSavedGames(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "club.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := club.SeedDemo(ctx, db); err != nil {
		t.Fatal(err)
	}
	host, err := db.UserByLogin(ctx, club.DemoHostLogin)
	if err != nil {
		t.Fatal(err)
	}
	svc := club.NewServices(db, club.NewClock(time.UTC, nil))
	nicks := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Visitor"}
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	for k := 0; k < 3; k++ {
		seats := make([]club.NewSeat, 10)
		for i := range seats {
			seats[i] = club.NewSeat{Name: nicks[(i+k)%10], Role: roles[i], Guest: (i+k)%10 == 9}
		}
		g, err := svc.Games.Start(ctx, host, club.NewGame{Rules: club.ClubRules, Seats: seats, Rated: true})
		if err != nil {
			t.Fatal(err)
		}
		evs := []record.Event{{Event: mafia.Day()}}
		for s := 1; s <= 10; s++ {
			evs = append(evs, record.Event{Event: mafia.Speech(s)})
			if s == 2 {
				evs = append(evs, record.Event{Event: mafia.Nominate(2, 3)})
			}
		}
		evs = append(evs, record.Event{Event: mafia.Foul(4)}, record.Event{Event: mafia.TeamLoss([]int{3, 5, 9}[k])})
		st, err := svc.Games.Act(ctx, host, g.ID, 0, evs)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Games.Save(ctx, host, g.ID, st.Game.Version, true); err != nil {
			t.Fatal(err)
		}
	}
	bohdana, err := db.PlayerByNick(ctx, "Bohdana") // seat 2 of the first game: she nominates seat 3, a black
	if err != nil {
		t.Fatal(err)
	}
	wantRes, _ := db.PlayerResults(ctx, bohdana.ID)
	wantStand, _ := db.Standings(ctx, club.RatingFilter{})
	club.SortStandings(wantStand)
	coOf := func() []club.CoPlayer {
		co, err := db.CoPlayers(ctx, bohdana.ID, club.ClubRules)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(co, func(a, b club.CoPlayer) int {
			if a.PlayerID != b.PlayerID {
				return int(a.PlayerID - b.PlayerID)
			}
			return strings.Compare(fmt.Sprint(a.Partner), fmt.Sprint(b.Partner))
		})
		return co
	}
	wantCo := coOf()
	if len(wantCo) == 0 {
		t.Fatal("no partners nor opponents kept as the games were saved")
	}
	// as the migration leaves a database: no figures, no standings, no Elo, to be built
	for _, q := range []string{`UPDATE game_results SET stats_ok = 0, votes = 0, votes_black = 0, noms = 0, noms_black = 0, fouls = 0,
		elo_before = NULL, elo_after = NULL`, `DELETE FROM standings`, `DELETE FROM rated_games`, `DELETE FROM co_players`, `UPDATE rating_state SET built = 0`} {
		if _, err := db.w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n, err := club.NewServices(db, club.NewClock(time.UTC, nil)).Records.Backfill(ctx)
	if err != nil || n != 3 {
		t.Fatalf("backfilled %d games (%v), want 3", n, err)
	}
	gotRes, _ := db.PlayerResults(ctx, bohdana.ID)
	if !reflect.DeepEqual(gotRes, wantRes) {
		t.Errorf("her results rebuilt:\n%+v\nwant\n%+v", gotRes, wantRes)
	}
	if gotRes[0].Stats.Noms != 1 || gotRes[0].Stats.NomsBlack != 1 {
		t.Errorf("her nomination of a black in game 1 is not in her figures: %+v", gotRes[0].Stats)
	}
	gotStand, _ := db.Standings(ctx, club.RatingFilter{})
	club.SortStandings(gotStand)
	if !reflect.DeepEqual(gotStand, wantStand) {
		t.Errorf("the standings rebuilt:\n%+v\nwant\n%+v", gotStand, wantStand)
	}
	if gotCo := coOf(); !reflect.DeepEqual(gotCo, wantCo) {
		t.Errorf("her partners and opponents rebuilt:\n%+v\nwant, as kept while the games were saved,\n%+v", gotCo, wantCo)
	}
}
