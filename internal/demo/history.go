package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
)

// HistoryOptions size a long history: how many games in all (the Demo Cup's 17 among them) and how many players.
type HistoryOptions struct {
	Seed    uint64
	Now     time.Time      // the present: the history ends the week before it; zero is time.Now()
	Zone    *time.Location // the club's time zone (nil: UTC)
	Games   int            // games in all, at least the tournament's 17 (0: 5,000)
	Players int            // players in all, at least the twenty demo players (0: 329)
	Workers int            // games played at once (0: 16)
}

// historyTournamentGames is what the Demo Cup plays: seven qualifying rounds at two tables and a final of three.
const historyTournamentGames = 7*2 + 3

// History gives a club a long history for measuring its pages against another platform's with the same games:
// the demo's accounts and players (the twenty with member accounts) and as many more players as asked ("Player
// 021" ...), club nights on Tuesdays and Fridays at 19:00 going back as far as the games need, each of two tables of
// ten and six rounds, and the Demo Cup in the last month. Every game is of ten players, rated, and of a rule set
// that exports to mafiaratings (the club's own, now and then fsm-2026), so that the same games can be stored
// there too; each is played at random through the engine and saved through the club's services at its own
// moment, as the season's games are. Players play more or less often (a weight drawn for each), so that the
// most regular plays about twice the average. A club that has a demo season or history already is left alone
// (the report is nil).
func History(ctx context.Context, store club.Store, o HistoryOptions) (*Report, error) {
	t0 := time.Now()
	if _, ok, err := store.Setting(ctx, seasonSetting); err != nil || ok {
		return nil, err
	}
	if o.Games == 0 {
		o.Games = 5000
	}
	if o.Players == 0 {
		o.Players = 329
	}
	if o.Games < historyTournamentGames || o.Players < len(club.DemoNicks()) {
		return nil, fmt.Errorf("demo history: at least %d games and %d players", historyTournamentGames, len(club.DemoNicks()))
	}
	so := Options{Seed: o.Seed, Now: o.Now, Zone: o.Zone, Workers: o.Workers}
	b, err := newBuilder(ctx, store, &so, 0x686973746f727921)
	if err != nil {
		return nil, err
	}
	names := append([]string(nil), b.nicks...)
	for i := len(names); i < o.Players; i++ {
		nick := fmt.Sprintf("Player %03d", i+1)
		if _, err := store.PlayerByNick(ctx, nick); err == nil {
			names = append(names, nick)
			continue
		}
		if err := store.CreatePlayer(ctx, &club.Player{Nick: nick}); err != nil {
			return nil, err
		}
		names = append(names, nick)
	}
	b.planHistory(names, o.Games-historyTournamentGames)
	sort.SliceStable(b.steps, func(i, j int) bool { return b.steps[i].at.Before(b.steps[j].at) })
	for _, st := range b.steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b.at = st.at
		if err := st.do(); err != nil {
			return nil, fmt.Errorf("demo history, %s at %s: %w", st.what, st.at.Format(time.DateTime), err)
		}
		if len(b.pending) >= 500 { // played and saved in batches: the plans' events are not all held at once
			if err := b.flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := b.flush(); err != nil {
		return nil, err
	}
	if err := store.SetSetting(ctx, seasonSetting, fmt.Sprintf("history %d", o.Seed)); err != nil {
		return nil, err
	}
	b.report.Took = time.Since(t0)
	return &b.report, nil
}

// planHistory plans the club nights of a history, the latest a week before the present, each with up to twelve
// games (two tables, six rounds) until games are planned, and the Demo Cup three weeks before the present.
func (b *builder) planHistory(names []string, games int) {
	weight := make([]float64, len(names))
	for i := range weight {
		weight[i] = 0.25 + 0.75*b.rng.Float64()
	}
	const perNight = 12
	nights := (games + perNight - 1) / perNight
	var starts []time.Time
	day := b.friday(b.now).AddDate(0, 0, -7)
	for len(starts) < nights {
		starts = append(starts, day)
		if day.Weekday() == time.Friday {
			day = day.AddDate(0, 0, -3) // the Tuesday before
		} else {
			day = day.AddDate(0, 0, -4)
		}
	}
	for i := len(starts) - 1; i >= 0; i-- {
		n := min(perNight, games)
		games -= n
		b.historyNight(starts[i], names, weight, n)
	}
	b.tournament(b.friday(b.now).AddDate(0, 0, -20))
	b.report.PastNights = nights
}

// historyNight plans a club night of n games: created ten days before, two tables of ten each round, the twenty
// drawn afresh each round by the players' weights.
func (b *builder) historyNight(start time.Time, names []string, weight []float64, n int) {
	var night club.ClubNight
	b.add(start.AddDate(0, 0, -10), "club night", func() error {
		nt, err := b.svc.Nights.Create(b.ctx, b.admin, club.NightForm{StartsAt: start, Place: clubPlace, Tables: 2, PerTable: 10})
		if err == nil {
			night = *nt
		}
		return err
	})
	at := start.Add(15 * time.Minute)
	for k := 0; k < n; k += 2 {
		chosen := b.draw(names, weight, 20)
		next := at
		for tb := 0; tb < 2 && k+tb < n; tb++ {
			p := b.historyGame(chosen[tb*10:tb*10+10], []*club.User{b.host, b.admin}[tb], at)
			next = maxTime(next, p.end())
			b.startClubGame(p, func() int64 { return night.ID })
		}
		at = next.Add(time.Duration(5+b.rng.IntN(8)) * time.Minute)
	}
}

// draw picks k different names, each by its weight.
func (b *builder) draw(names []string, weight []float64, k int) []string {
	keys := make([]float64, len(names))
	idx := make([]int, len(names))
	for i := range names {
		// Efraimidis-Spirakis: the k largest u^(1/w) are a weighted sample without replacement
		keys[i] = -b.rng.ExpFloat64() / weight[i]
		idx[i] = i
	}
	sort.Slice(idx, func(a, c int) bool { return keys[idx[a]] > keys[idx[c]] })
	out := make([]string, k)
	for i := range out {
		out[i] = names[idx[i]]
	}
	return out
}

// historyGame plans a rated game of ten: mostly the club's rule set, one in six fsm-2026.
func (b *builder) historyGame(names []string, host *club.User, at time.Time) *gamePlan {
	rules := mafia.DefaultRuleSetID
	if b.rng.IntN(6) == 0 {
		rules = "fsm-2026"
	}
	roles, opts := dealDemo(b.rng, rules, len(names))
	seats := make([]club.NewSeat, len(names))
	for i, name := range names {
		seats[i] = club.NewSeat{Name: name, Role: roles[i].String()}
	}
	gen, err := play(rand.New(rand.NewPCG(b.rng.Uint64(), b.rng.Uint64())), rules, opts, roles, Style{Disqualify: b.rng.IntN(37) == 0})
	if err != nil {
		panic(err) // dealDemo's deal fits its rule set
	}
	return &gamePlan{at: at, host: host, rules: rules, opts: opts, seats: seats, rated: true, gen: gen}
}
