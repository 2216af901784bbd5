package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
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
func genGame(t *testing.T, clock *club.Clock, games *club.Games, host *club.User, rng *rand.Rand, players []club.Player, at time.Time) (int64, bool) {
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	rng.Shuffle(len(roles), func(i, j int) { roles[i], roles[j] = roles[j], roles[i] })
	perm := rng.Perm(len(players))
	seats := make([]club.Seat, 10)
	for i := range seats {
		seats[i] = club.Seat{Seat: i + 1, Role: roles[i]}
		if rng.IntN(10) == 0 {
			seats[i].Name = fmt.Sprintf("Guest %d", rng.IntN(1000)*10+i) // never two guests of one name at a table
		} else {
			p := players[perm[i]]
			seats[i].Name, seats[i].PlayerID = p.Nick, p.ID
		}
	}
	rated := rng.IntN(4) != 0
	clock.Set(func() time.Time { return at })
	g, err := games.Start(context.Background(), host, club.NewGame{Rules: "fiim-2025-club", Seats: NewSeats(seats), Rated: rated})
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
	clock := club.NewClock(time.UTC, nil)
	games := club.NewServices(s, clock).Games
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
	// played in order, as a club plays: a game saved before an earlier one moves the Elo of every later game (the
	// Elo pass from that game on), which ratingsHistory tests; thousands of them in random order would make this
	// test quadratic
	times := make([]time.Time, n)
	for i := range times {
		times[i] = base.Add(time.Duration(rng.IntN(2*365*24)) * time.Hour)
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	for i := 0; i < n; i++ {
		at := times[i]
		id, rated := genGame(t, clock, games, host, rng, players, at)
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

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"guests and filters", guests})
}

// guests: a guest never counts in the rating; linked later to a new member, his rated games count and his normal
// games still do not (R96, issue "the club").
func guests(t *testing.T, s club.Store) {
	ctx := context.Background()
	host := NewHost(t, s, "h")
	night := &club.ClubNight{StartsAt: time.Date(2026, 12, 5, 19, 0, 0, 0, time.UTC), Place: "Café", Tables: 1, PerTable: 10, CreatedBy: host.ID}
	must(t, s.CreateNight(ctx, night))
	games := club.NewServices(s, club.NewClock(time.UTC, func() time.Time { return night.StartsAt })).Games
	play := func(rated bool) int64 {
		seats := tenSeats()
		seats[0].Name = "Vasyl" // a citizen; red wins by the blacks' team loss
		g, err := games.Start(ctx, host, club.NewGame{Rules: "fiim-2025-club", Seats: NewSeats(seats), Rated: rated, NightID: night.ID})
		must(t, err)
		st, err := games.Act(ctx, host, g.ID, 0, []record.Event{{Event: mafia.TeamLoss(3)}})
		must(t, err)
		_, err = games.Save(ctx, host, g.ID, st.Game.Version, rated)
		must(t, err)
		return g.ID
	}
	rated, normal := play(true), play(false)
	if got, _ := s.Standings(ctx, club.RatingFilter{}); len(got) != 0 {
		t.Fatalf("guests in the rating: %+v", got)
	}
	admin := &club.User{Login: "a", Name: "A", Role: club.RoleAdmin, PasswordHash: "x"}
	must(t, s.CreateUser(ctx, admin))
	u := &club.User{Login: "vasyl", Name: "Vasyl", Role: club.RoleMember, PasswordHash: "x"}
	p := &club.Player{Nick: "Vasyl"}
	must(t, s.CreateMember(ctx, u, p))
	n, err := s.LinkGuest(ctx, "Vasyl", 0, p.ID, club.MemberChange{At: time.Now(), UserID: u.ID, By: admin.ID, Reason: "the same person"})
	must(t, err)
	if n != 2 {
		t.Errorf("linked %d seats, want 2", n)
	}
	got, _ := s.Standings(ctx, club.RatingFilter{})
	if len(got) != 1 || got[0].PlayerID != p.ID || got[0].Games != 1 || got[0].Points != 130 {
		t.Errorf("after linking: %+v, want one rated game with 1.30", got)
	}
	if res, _ := s.PlayerResults(ctx, p.ID); len(res) != 2 || res[0].GameID != rated || res[1].GameID != normal || res[1].Rated {
		t.Errorf("his results: %+v", res)
	}
	_, err = s.LinkGuest(ctx, "Nobody", 0, p.ID, club.MemberChange{At: time.Now(), UserID: u.ID, By: admin.ID})
	wantCode(t, err, club.NotFound)
	if log, _ := s.MemberLog(ctx, u.ID); len(log) != 1 || log[0].Field != "linked" {
		t.Errorf("the link is not logged: %+v", log)
	}
	for _, c := range []struct {
		f    club.GameFilter
		want int
	}{
		{club.GameFilter{NightID: night.ID}, 2},
		{club.GameFilter{PlayerID: p.ID}, 2},
		{club.GameFilter{Rules: "fsm-2026"}, 0},
		{club.GameFilter{Status: club.GameSaved, From: night.StartsAt, To: night.StartsAt.Add(time.Minute)}, 2},
		{club.GameFilter{To: night.StartsAt}, 0},
	} {
		if list, err := s.Games(ctx, c.f); err != nil || len(list) != c.want {
			t.Errorf("filter %+v: %d games (%v), want %d", c.f, len(list), err, c.want)
		}
	}
}
