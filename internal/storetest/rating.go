package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"rating", rating})
}

// genGame plays a short random but valid club game: a few manual corrections and fouls, then a team loss by a
// random seat (so winners, roles and points vary), through club.Games like the host page does.
func genGame(t *testing.T, games *club.Games, host *club.User, rng *rand.Rand, players []club.Player, at time.Time) (int64, bool) {
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	rng.Shuffle(len(roles), func(i, j int) { roles[i], roles[j] = roles[j], roles[i] })
	perm := rng.Perm(len(players))
	seats := make([]club.Seat, 10)
	for i := range seats {
		seats[i] = club.Seat{Seat: i + 1, Role: roles[i]}
		if rng.IntN(10) == 0 {
			seats[i].Name = fmt.Sprintf("Guest %d", rng.IntN(1000))
		} else {
			p := players[perm[i]]
			seats[i].Name, seats[i].PlayerID = p.Nick, p.ID
		}
	}
	rated := rng.IntN(4) != 0
	games.Now = func() time.Time { return at }
	g, err := games.Start(context.Background(), host, club.NewGame{Rules: "fiim-2025-club", Seats: seats, Rated: rated})
	must(t, err)
	var evs []record.Event
	steps := []int{10, 30, 50, -10, -30, -50}
	for k := rng.IntN(4); k > 0; k-- {
		evs = append(evs, record.Event{Event: mafia.Adjust(1+rng.IntN(10), steps[rng.IntN(len(steps))])})
	}
	for k := rng.IntN(3); k > 0; k-- {
		evs = append(evs, record.Event{Event: mafia.Foul(1 + rng.IntN(10))})
	}
	evs = append(evs, record.Event{Event: mafia.TeamLoss(1 + rng.IntN(10))})
	st, err := games.Act(context.Background(), host, g.ID, 0, evs)
	must(t, err)
	_, err = games.Save(context.Background(), host, g.ID, st.Game.Version, rated)
	must(t, err)
	return g.ID, rated
}

// rating checks the standings against a straightforward recomputation: every saved game's record replayed, its
// points summed per club player, rated games only, within the season.
func rating(t *testing.T, s club.Store) {
	ctx := context.Background()
	host := NewHost(t, s, "rater")
	var players []club.Player
	for i := 0; i < 40; i++ {
		p := club.Player{Nick: fmt.Sprintf("player%02d", i)}
		must(t, s.CreatePlayer(ctx, &p))
		players = append(players, p)
	}
	games := &club.Games{Store: s, Zone: time.UTC}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 2000 // thousands of games; -short plays fewer
	if testing.Short() {
		n = 200
	}
	base := time.Date(2025, 1, 1, 18, 0, 0, 0, time.UTC)
	type played struct {
		id    int64
		rated bool
		at    time.Time
	}
	var all []played
	for i := 0; i < n; i++ {
		at := base.Add(time.Duration(rng.IntN(2*365*24)) * time.Hour)
		id, rated := genGame(t, games, host, rng, players, at)
		all = append(all, played{id, rated, at})
	}
	// a reopened game leaves the rating until it is saved again
	reopened := all[0]
	st, err := games.Load(ctx, host, reopened.id)
	must(t, err)
	admin := &club.User{ID: host.ID, Role: club.RoleAdmin}
	_, err = games.Reopen(ctx, admin, reopened.id, st.Game.Version)
	must(t, err)

	season := club.RatingFilter{From: time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}
	for _, f := range []club.RatingFilter{{}, season} {
		want := map[int64]*club.Standing{}
		for _, p := range all {
			if !p.rated || p.id == reopened.id || (!f.From.IsZero() && p.at.Before(f.From)) || (!f.To.IsZero() && !p.at.Before(f.To)) {
				continue
			}
			st, err := games.Load(ctx, host, p.id)
			must(t, err)
			for _, sr := range st.Play.Result().Seats {
				pid := st.Game.Seats[sr.Seat-1].PlayerID
				if pid == 0 {
					continue // R96: guests never count
				}
				w := want[pid]
				if w == nil {
					w = &club.Standing{PlayerID: pid}
					want[pid] = w
				}
				won := (st.Play.Winner() == mafia.RedWins) == (sr.Team == mafia.Red)
				w.Games++
				w.Points += sr.Points
				i := club.RoleIndex(sr.Role.String())
				w.ByRole[i].Games++
				w.ByRole[i].Points += sr.Points
				if won {
					w.Wins++
					w.ByRole[i].Wins++
				}
			}
		}
		got, err := s.Standings(ctx, f)
		must(t, err)
		if len(got) != len(want) {
			t.Fatalf("season %v: %d players in the standings, want %d", f, len(got), len(want))
		}
		for _, g := range got {
			w := want[g.PlayerID]
			if w == nil || g.Games != w.Games || g.Wins != w.Wins || g.Points != w.Points || g.ByRole != w.ByRole {
				t.Fatalf("season %v, player %d: got %+v, want %+v", f, g.PlayerID, g, w)
			}
		}
	}
}
