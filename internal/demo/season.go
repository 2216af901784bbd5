package demo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
)

// The demo members' password: every one of the twenty players has an account, its login his nickname in lower
// case (MemberLogin). Public, like the demo's other logins.
const MemberPassword = "demo-member"

// memberHash is MemberPassword's argon2id hash, made once with club.HashPassword: the season need not spend a
// slow hash (and its 64 MiB) on a public password. The season's test logs a member in with it.
const memberHash = "$argon2id$v=19$m=65536,t=3,p=2$prYe6U49QAmR32UArGc2ZQ$miQdKyUczsGrdckOK908NjIr+CKbgu3gBAQ73WuUFl8"

// MemberLogin is the login of a demo player's member account.
func MemberLogin(nick string) string { return strings.ToLower(nick) }

// DefaultSeed is the season's seed when none is given.
const DefaultSeed = 2025

// seasonSetting marks a club that has its demo season (its value is the seed): it is made once.
const seasonSetting = "demo_season"

// Options are a season's: its seed, the present it is built around and how many games are played at once.
type Options struct {
	Seed    uint64
	Now     time.Time      // the present: the season is the three months before it; zero is time.Now()
	Zone    *time.Location // the club's time zone (nil: UTC): the nights are on Fridays at 19:00 in it
	Workers int            // games played at once while the season is built (0: 16)
}

// Report says what a season holds and how long it took to build.
type Report struct {
	Members                           int // member accounts made for the demo players
	PastNights, ComingNights          int
	Games, ClubGames, TournamentGames int
	TournamentPlayers                 int
	Took                              time.Duration
}

// Nights is the number of club nights, past and coming.
func (r *Report) Nights() int { return r.PastNights + r.ComingNights }

// Season gives the demo club (SeedDemo's accounts and players, made here if missing) a season, through the club's
// services with their clock set to each past moment, so that every rule holds as it would have: member accounts
// for the twenty players; thirteen weekly club nights of the last three months with registrations, cancellations
// (three late), no-shows, a member put on low priority for his strikes, and about 140 games at two tables (every
// rule set of the club, 7 to 10 players, guests, rated and normal); a finished tournament of 23 players
// (fiim-xcraft, seven qualifying rounds and a final) with a decided protest; and the next two club nights with
// their registrations and reserves. The games are played at random through the engine's plan, deterministically
// from the seed: the same seed and present give the same club. A club that has its season already is left as it
// is (the report is nil).
func Season(ctx context.Context, store club.Store, o Options) (*Report, error) {
	t0 := time.Now()
	if _, ok, err := store.Setting(ctx, seasonSetting); err != nil || ok {
		return nil, err
	}
	b, err := newBuilder(ctx, store, &o, 0x6d61666961636c75)
	if err != nil {
		return nil, err
	}
	b.plan()
	sort.SliceStable(b.steps, func(i, j int) bool { return b.steps[i].at.Before(b.steps[j].at) })
	for _, st := range b.steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if st.at.After(b.now) {
			return nil, fmt.Errorf("demo season: a step at %s is after the present %s", st.at, b.now)
		}
		b.at = st.at
		if err := st.do(); err != nil {
			return nil, fmt.Errorf("demo season, %s at %s: %w", st.what, st.at.Format(time.DateTime), err)
		}
	}
	if err := b.flush(); err != nil {
		return nil, err
	}
	if err := store.SetSetting(ctx, seasonSetting, strconv.FormatUint(o.Seed, 10)); err != nil {
		return nil, err
	}
	b.report.Took = time.Since(t0)
	return &b.report, nil
}

// builder builds a season: the plan is made first, all of it from the seed (every game played in memory), as
// steps at moments of the past; the steps then run in time order through the services, and the games' events
// are recorded at their own moments, many games at once (each game's services have a clock of their own), and
// newBuilder seeds the demo's accounts and players and makes the builder that plays a demo through the club's
// services on its own clock: the options' defaults filled in, its random numbers from o.Seed and salt (one salt
// per kind of demo, so that two kinds never play the same games).
func newBuilder(ctx context.Context, store club.Store, o *Options, salt uint64) (*builder, error) {
	if _, err := club.SeedDemo(ctx, store); err != nil {
		return nil, err
	}
	if o.Zone == nil {
		o.Zone = time.UTC
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.Workers <= 0 {
		o.Workers = 16
	}
	b := &builder{ctx: ctx, store: store, zone: o.Zone, now: o.Now.In(o.Zone), workers: o.Workers,
		rng: rand.New(rand.NewPCG(o.Seed, o.Seed^salt))}
	b.clock = club.NewClock(o.Zone, func() time.Time { return b.at })
	b.svc = club.NewServices(store, b.clock)
	if err := b.accounts(); err != nil {
		return nil, err
	}
	return b, nil
}

// saved in the order they began.
type builder struct {
	ctx     context.Context
	store   club.Store
	zone    *time.Location
	now     time.Time
	rng     *rand.Rand
	workers int

	at    time.Time // the main clock's time: the moment of the step that runs
	clock *club.Clock
	svc   *club.Services

	admin, host *club.User
	members     []*club.User // the demo players' accounts, in DemoNicks' order
	nicks       []string

	steps   []step
	pending []*pendingGame
	report  Report
}

type step struct {
	at   time.Time
	what string
	do   func() error
}

func (b *builder) add(at time.Time, what string, do func() error) {
	b.steps = append(b.steps, step{at: at, what: what, do: do})
}

// gamePlan is a game of the season as planned: where and when it is played, its table, and its events.
type gamePlan struct {
	at    time.Time
	host  *club.User
	rules string
	opts  map[string][]byte
	seats []club.NewSeat
	rated bool
	gen   *generated
}

// end is when the host saves the game.
func (p *gamePlan) end() time.Time {
	t := p.at
	for _, a := range p.gen.actions {
		t = t.Add(a.After)
	}
	return t.Add(p.gen.tail)
}

// pendingGame is a game started and not yet played out and saved.
type pendingGame struct {
	id   int64
	plan *gamePlan
	end  time.Time // the moment of its result (its last event), once played
}

// accounts finds the demo's accounts and gives each demo player a member account (made pending, then approved by
// the admin, as a sign-up is), all with one password hash.
func (b *builder) accounts() error {
	ctx := b.ctx
	var err error
	if b.admin, err = b.store.UserByLogin(ctx, club.DemoAdminLogin); err != nil {
		return err
	}
	if b.host, err = b.store.UserByLogin(ctx, club.DemoHostLogin); err != nil {
		return err
	}
	b.nicks = club.DemoNicks()
	joined := b.now.AddDate(0, -4, 0)
	for i, nick := range b.nicks {
		p, err := b.store.PlayerByNick(ctx, nick)
		if err != nil {
			return err
		}
		u, err := b.store.UserByLogin(ctx, MemberLogin(nick))
		switch {
		case err == nil && u.PlayerID == p.ID:
			b.members = append(b.members, u)
			continue
		case err == nil:
			return fmt.Errorf("demo members: the login %s is another player's", MemberLogin(nick))
		case club.ErrorCode(err) != club.NotFound:
			return err
		}
		at := joined.AddDate(0, 0, -20*i-b.rng.IntN(15))
		u = &club.User{Login: MemberLogin(nick), Name: nick, Role: club.RoleMember, PasswordHash: memberHash, PlayerID: p.ID,
			Status: club.StatusPending, CreatedAt: at}
		if err := b.store.CreateUser(ctx, u); err != nil {
			return err
		}
		b.at = at.Add(time.Duration(2+b.rng.IntN(40)) * time.Hour)
		if err := b.svc.Accounts.ChangeMember(ctx, b.admin, u.ID, "status", string(club.StatusActive), "a player of the club"); err != nil {
			return err
		}
		u.Status = club.StatusActive
		b.members = append(b.members, u)
		b.report.Members++
	}
	return nil
}

// The season's members with a story: Quest cancels late twice and misses a night, and the admin puts him on low
// priority; Lada cancels late once, Emil misses a night once.
const (
	questIdx = 15
	ladaIdx  = 10
	emilIdx  = 4
)

var guestNames = []string{"Marta", "Oleh", "Taras", "Yulia", "Zenon"}

const (
	pastNights = 13
	clubPlace  = "Club room, 12 Market Square"
)

// friday returns the Friday of t's week at 19:00, in the club's zone (the same Friday when t is one).
func (b *builder) friday(t time.Time) time.Time {
	t = t.In(b.zone)
	d := (int(t.Weekday()) - int(time.Friday) + 7) % 7
	return time.Date(t.Year(), t.Month(), t.Day()-d, 19, 0, 0, 0, b.zone)
}

func (b *builder) plan() {
	last := b.friday(b.now)
	if last.Add(6 * time.Hour).After(b.now) {
		last = last.AddDate(0, 0, -7) // tonight's night is not over (or not begun): the one before is the last
	}
	var nights []time.Time
	for i := pastNights - 1; i >= 0; i-- {
		nights = append(nights, last.AddDate(0, 0, -7*i))
	}
	coming := last.AddDate(0, 0, 7)
	if !coming.After(b.now.Add(time.Hour)) {
		coming = coming.AddDate(0, 0, 7)
	}
	regular := make([]float64, len(b.members))
	for i := range regular {
		regular[i] = 0.65 + 0.33*b.rng.Float64()
	}
	games := 0
	for i, start := range nights {
		var story nightStory
		switch i {
		case 2, 5:
			story.late = []int{questIdx}
		case 10:
			story.late = []int{ladaIdx}
		}
		switch i {
		case 8:
			story.noShow = []int{questIdx}
		case 11:
			story.noShow = []int{emilIdx}
		}
		games += b.pastNight(i, start, regular, story, games)
		if i == 8 {
			at := time.Date(start.Year(), start.Month(), start.Day()+1, 12, 0, 0, 0, b.zone)
			reason := fmt.Sprintf("three strikes within eight weeks: late cancellations on %s and %s, no-show on %s",
				nights[2].Format("2 Jan"), nights[5].Format("2 Jan"), nights[8].Format("2 Jan"))
			quest := b.members[questIdx]
			b.add(at, "low priority", func() error {
				if err := b.svc.Accounts.ChangeMember(b.ctx, b.admin, quest.ID, "status", string(club.StatusLowPriority), reason); err != nil {
					return err
				}
				quest.Status = club.StatusLowPriority
				return nil
			})
		}
	}
	b.tournament(nights[6].AddDate(0, 0, 1))
	b.comingNight(coming, 1, 10, 13, "Table 2 plays FSM 2026 tonight.")
	b.comingNight(coming.AddDate(0, 0, 7), 2, 8, 19, "")
	b.report.PastNights, b.report.ComingNights = pastNights, 2
}

// nightStory is what happens to a night's registrations beyond the usual: late cancellations and no-shows by
// the members of these indexes.
type nightStory struct{ late, noShow []int }

// pastNight plans a club night of the past: the admin creates it ten days before; members register (the regular
// ones more often), a few cancel in time, the story's members cancel late or do not come; at the night, rounds
// of games at two tables (a host and the admin), the players mixed again each round, until about 23:00.
func (b *builder) pastNight(idx int, start time.Time, regular []float64, story nightStory, gamesBefore int) int {
	created := start.AddDate(0, 0, -10)
	var night club.ClubNight
	b.add(created, "club night", func() error {
		n, err := b.svc.Nights.Create(b.ctx, b.admin, club.NightForm{StartsAt: start, Place: clubPlace, Tables: 2, PerTable: 9})
		if err == nil {
			night = *n
		}
		return err
	})
	deadline := club.CancelDeadline(club.ClubNight{StartsAt: start}, b.zone)
	var come []string
	var regs []int
	for m := range b.members {
		if slices.Contains(story.late, m) || slices.Contains(story.noShow, m) || b.rng.Float64() < regular[m] {
			regs = append(regs, m)
		}
	}
	for _, m := range b.rng.Perm(len(b.members)) {
		if len(regs) < 17 && !slices.Contains(regs, m) {
			regs = append(regs, m)
		}
	}
	slices.Sort(regs)
	// who stays in the main line-up: two tables of 7 at least, whatever the cancellations
	stay := len(regs) - len(story.late) - len(story.noShow)
	for _, m := range regs {
		u := b.members[m]
		forced := slices.Contains(story.late, m) || slices.Contains(story.noShow, m)
		at := created.Add(time.Hour + time.Duration(b.rng.Int64N(int64(deadline.Sub(created)-3*time.Hour))))
		if forced {
			at = created.Add(time.Duration(1+m) * time.Minute * 7) // early: in the main line-up
		}
		b.add(at, "registration", func() error {
			_, err := b.svc.Nights.Register(b.ctx, u, night.ID)
			return err
		})
		switch {
		case slices.Contains(story.late, m):
			late := time.Date(start.Year(), start.Month(), start.Day(), 13+b.rng.IntN(4), b.rng.IntN(60), 0, 0, b.zone)
			b.add(late, "late cancellation", func() error {
				reg, err := b.svc.Nights.Cancel(b.ctx, u, night.ID)
				if err == nil && !reg.Late {
					err = errors.New("the cancellation is not late")
				}
				return err
			})
		case slices.Contains(story.noShow, m):
			b.add(start.Add(20*time.Minute), "no-show", func() error {
				return b.svc.Nights.SetNoShow(b.ctx, b.admin, night.ID, u.ID, true)
			})
		case b.rng.IntN(12) == 0 && stay > 14:
			stay--
			cancel := at.Add(time.Duration(b.rng.Int64N(int64(deadline.Sub(at) - time.Hour))))
			b.add(cancel, "cancellation", func() error {
				_, err := b.svc.Nights.Cancel(b.ctx, u, night.ID)
				return err
			})
		default:
			come = append(come, b.nicks[m])
		}
	}
	guests := 0
	switch x := b.rng.IntN(100); {
	case x < 15:
		guests = 2
	case x < 55:
		guests = 1
	}
	for _, k := range b.rng.Perm(len(guestNames))[:guests] {
		come = append(come, guestNames[k])
	}
	guest := func(name string) bool { return slices.Contains(guestNames, name) }
	// the rounds
	games := 0
	at := start.Add(15 * time.Minute)
	for round := 0; round < 6 && at.Before(time.Date(start.Year(), start.Month(), start.Day(), 23, 0, 0, 0, b.zone)); round++ {
		players := slices.Clone(come)
		b.rng.Shuffle(len(players), func(i, j int) { players[i], players[j] = players[j], players[i] })
		m := len(players)
		t1 := min(10, (m+1)/2)
		if m >= 17 && b.rng.IntN(3) > 0 {
			t1 = 10
		}
		sizes := []int{t1, min(10, m-t1)}
		if sizes[1] < 7 {
			sizes = []int{min(10, m)}
		}
		next := at
		off := 0
		for tb, size := range sizes {
			names := players[off : off+size]
			off += size
			p := b.clubGame(names, guest, []*club.User{b.host, b.admin}[tb], at, gamesBefore+games)
			games++
			next = maxTime(next, p.end())
			b.startClubGame(p, func() int64 { return night.ID })
		}
		at = next.Add(time.Duration(5+b.rng.IntN(8)) * time.Minute)
	}
	return games
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// clubGame plans a game of a club night: the rule set by the table's size (mostly the club's own; fsm-2026 at some
// tables of ten; now and then a home game, never rated), the deal, and the game itself.
func (b *builder) clubGame(names []string, guest func(string) bool, host *club.User, at time.Time, k int) *gamePlan {
	n := len(names)
	rules := mafia.DefaultRuleSetID
	switch x := b.rng.Float64(); {
	case n == 10 && x < 0.2:
		rules = "fsm-2026"
	case n == 10 && x < 0.28, n < 10 && x < 0.08:
		rules = "home-ua"
	case n == 10 && x < 0.34, n < 10 && x < 0.13:
		rules = "home-doctor"
	}
	rated := false
	switch rules {
	case mafia.DefaultRuleSetID:
		rated = b.rng.IntN(10) > 0
	case "fsm-2026":
		rated = b.rng.IntN(4) > 0
	}
	roles, opts := dealDemo(b.rng, rules, n)
	seats := make([]club.NewSeat, n)
	for i, name := range names {
		seats[i] = club.NewSeat{Name: name, Role: roles[i].String(), Guest: guest(name)}
	}
	gen, err := play(rand.New(rand.NewPCG(b.rng.Uint64(), b.rng.Uint64())), rules, opts, roles, Style{Disqualify: k%37 == 20})
	if err != nil {
		panic(err) // dealDemo's deal fits its rule set
	}
	return &gamePlan{at: at, host: host, rules: rules, opts: opts, seats: seats, rated: rated, gen: gen}
}

// comingNight plans a club night to come: created a few days ago, with registrations until a few minutes ago —
// more than its places, so that it has a reserve (the member on low priority is always in it) — and one
// cancellation in time, whose place goes to the first of the reserve.
func (b *builder) comingNight(start time.Time, tables, perTable, registrations int, note string) {
	created := minTime(start.AddDate(0, 0, -9), b.now.Add(-time.Duration(30+b.rng.IntN(30))*time.Hour))
	var night club.ClubNight
	b.add(created, "club night", func() error {
		n, err := b.svc.Nights.Create(b.ctx, b.admin, club.NightForm{StartsAt: start, Place: clubPlace, Tables: tables, PerTable: perTable, Note: note})
		if err == nil {
			night = *n
		}
		return err
	})
	end := minTime(b.now.Add(-10*time.Minute), club.CancelDeadline(club.ClubNight{StartsAt: start}, b.zone).Add(-time.Hour))
	span := end.Sub(created)
	order := b.rng.Perm(len(b.members))
	if i := slices.Index(order[:registrations], questIdx); i < 0 {
		order[registrations-1] = questIdx // he registers too, and stays in the reserve
	}
	var times []time.Time
	for range registrations {
		times = append(times, created.Add(time.Duration(b.rng.Int64N(int64(span*3/4)))))
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	for k, m := range order[:registrations] {
		u := b.members[m]
		b.add(times[k], "registration", func() error {
			_, err := b.svc.Nights.Register(b.ctx, u, night.ID)
			return err
		})
	}
	first := b.members[order[0]]
	if order[0] == questIdx {
		first = b.members[order[1]]
	}
	b.add(times[registrations-1].Add(span/8), "cancellation", func() error {
		reg, err := b.svc.Nights.Cancel(b.ctx, first, night.ID)
		if err == nil && reg.Late {
			err = errors.New("the cancellation is late")
		}
		return err
	})
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// flush plays out every game started and not yet played, many at once, each through services with a clock of
// its own set to the moment of each action; then saves them in the order they began, each at its own end.
func (b *builder) flush() error {
	jobs := b.pending
	b.pending = nil
	errs := make([]error, len(jobs))
	clocks := make([]*time.Time, len(jobs))
	svcs := make([]*club.Services, len(jobs))
	versions := make([]int64, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, b.workers)
	for i, j := range jobs {
		at := j.plan.at
		clocks[i] = &at
		svcs[i] = club.NewServices(b.store, club.NewClock(b.zone, func() time.Time { return *clocks[i] }))
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			versions[i], j.end, errs[i] = b.playOut(svcs[i], clocks[i], j)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for i, j := range jobs {
		*clocks[i] = j.plan.end()
		if _, err := svcs[i].Games.Save(b.ctx, j.plan.host, j.id, versions[i], j.plan.rated); err != nil {
			return fmt.Errorf("demo season: saving game %d: %w", j.id, err)
		}
	}
	return nil
}

// playOut records a game's actions, each at its moment; it returns the game's version and the moment of its
// last event.
func (b *builder) playOut(svc *club.Services, at *time.Time, j *pendingGame) (int64, time.Time, error) {
	st, err := svc.Games.Load(b.ctx, j.plan.host, j.id)
	if err != nil {
		return 0, time.Time{}, err
	}
	for _, a := range j.plan.gen.actions {
		*at = at.Add(a.After)
		if st, err = svc.Games.ActOnce(b.ctx, j.plan.host, st, st.Game.Version, "", a.Events); err != nil {
			return 0, time.Time{}, fmt.Errorf("demo season: game %d: %w", j.id, err)
		}
	}
	if !st.Play.Finished() {
		return 0, time.Time{}, fmt.Errorf("demo season: game %d has no result", j.id)
	}
	return st.Game.Version, *at, nil
}

// tournament plans the Demo Cup on the weekend of day: the admin (its chief judge) creates it four weeks before;
// twelve members register themselves and he approves them, he adds the other eight and three guests; on
// Saturday seven qualifying rounds at two tables (a host and the admin judge them), the three players left over
// sitting out in turn; a player protests a game and the chief judge decides before Sunday's final of the top ten
// (three rounds at one table).
func (b *builder) tournament(day time.Time) {
	ctx := b.ctx
	sat := time.Date(day.Year(), day.Month(), day.Day(), 11, 0, 0, 0, b.zone)
	sun := sat.AddDate(0, 0, 1).Add(time.Hour)
	t := &club.Tournament{Name: "Demo Cup", StartsOn: sat.Format(time.DateOnly), EndsOn: sun.Format(time.DateOnly), Place: clubPlace,
		Rules: club.DefaultTournamentRules, ChiefJudge: b.admin.ID, LotSeed: 1 + b.rng.Int64N(1<<62)}
	b.add(sat.AddDate(0, 0, -28), "tournament", func() error { return b.svc.Tournaments.Create(ctx, b.admin, t) })
	for k, m := range b.rng.Perm(len(b.members)) {
		u, nick := b.members[m], b.nicks[m]
		if k < 12 {
			at := sat.AddDate(0, 0, -27).Add(time.Duration(b.rng.Int64N(int64(20 * 24 * time.Hour))))
			var part *club.Participant
			b.add(at, "tournament registration", func() error {
				var err error
				part, err = b.svc.Tournaments.Register(ctx, u, t.ID)
				return err
			})
			b.add(at.Add(time.Duration(1+b.rng.IntN(20))*time.Hour), "approval", func() error {
				return b.svc.Tournaments.Approve(ctx, b.admin, t.ID, part.ID)
			})
			continue
		}
		b.add(sat.AddDate(0, 0, -3).Add(time.Duration(k)*time.Minute), "participant", func() error {
			_, err := b.svc.Tournaments.AddParticipant(ctx, b.admin, t.ID, nick)
			return err
		})
	}
	for k, g := range guestNames[:3] {
		b.add(sat.AddDate(0, 0, -2).Add(time.Duration(k)*time.Minute), "guest participant", func() error {
			_, err := b.svc.Tournaments.AddParticipant(ctx, b.admin, t.ID, g)
			return err
		})
	}
	b.report.TournamentPlayers = len(b.members) + 3

	var qual, final *club.Stage
	seed1, seed2 := 1+b.rng.Int64N(1<<62), 1+b.rng.Int64N(1<<62)
	b.add(sat.Add(-30*time.Minute), "qualifying stage", func() error {
		var err error
		if qual, err = b.stage(t.ID, club.StageForm{Name: "Qualifying", Rounds: 7, PerTable: 10, Tables: 2}, seed1); err != nil {
			return err
		}
		if err := b.svc.Tournaments.SetJudge(ctx, b.admin, t.ID, qual.ID, 1, b.host.ID); err != nil {
			return err
		}
		return b.svc.Tournaments.SetJudge(ctx, b.admin, t.ID, qual.ID, 2, b.admin.ID)
	})
	var protested *pendingGame
	at := sat
	for round := 1; round <= 7; round++ {
		next := at
		for tb := 1; tb <= 2; tb++ {
			p := b.tournamentGame([]*club.User{b.host, b.admin}[tb-1], at, round == 5 && tb == 2)
			next = maxTime(next, p.end())
			b.add(at, "tournament game", func() error {
				g, err := b.svc.Tournaments.StartGame(ctx, p.host, t.ID, qual.ID, round, tb, p.roles())
				if err != nil {
					return err
				}
				pg := &pendingGame{id: g.ID, plan: p}
				if round == 3 && tb == 1 {
					protested = pg
				}
				b.pending = append(b.pending, pg)
				b.report.Games++
				b.report.TournamentGames++
				return nil
			})
		}
		at = next.Add(10 * time.Minute)
		if round == 4 {
			at = at.Add(30 * time.Minute) // lunch
		}
	}
	b.add(sun.Add(-45*time.Minute), "protest and final stage", func() error {
		if err := b.flush(); err != nil { // the qualifying games are saved: the final's top ten are known
			return err
		}
		if err := b.protest(protested); err != nil {
			return err
		}
		b.at = sun.Add(-45 * time.Minute)
		var err error
		if final, err = b.stage(t.ID, club.StageForm{Name: "Final", Rounds: 3, Top: 10, PerTable: 10, Tables: 1}, seed2); err != nil {
			return err
		}
		return b.svc.Tournaments.SetJudge(ctx, b.admin, t.ID, final.ID, 1, b.host.ID)
	})
	at = sun
	for round := 1; round <= 3; round++ {
		p := b.tournamentGame(b.host, at, false)
		b.add(at, "final game", func() error {
			g, err := b.svc.Tournaments.StartGame(ctx, p.host, t.ID, final.ID, round, 1, p.roles())
			if err != nil {
				return err
			}
			b.pending = append(b.pending, &pendingGame{id: g.ID, plan: p})
			b.report.Games++
			b.report.TournamentGames++
			return nil
		})
		at = p.end().Add(15 * time.Minute)
	}
}

// stage adds a tournament's stage, seated from the season's seed.
func (b *builder) stage(tournamentID int64, f club.StageForm, seed int64) (*club.Stage, error) {
	f.Seed = seed
	st, _, err := b.svc.Tournaments.AddStage(b.ctx, b.admin, tournamentID, f)
	return st, err
}

// tournamentGame plans a fiim-xcraft game of ten, its roles dealt from the seed.
func (b *builder) tournamentGame(judge *club.User, at time.Time, dq bool) *gamePlan {
	roles, _ := dealDemo(b.rng, club.DefaultTournamentRules, 10)
	gen, err := play(rand.New(rand.NewPCG(b.rng.Uint64(), b.rng.Uint64())), club.DefaultTournamentRules, nil, roles, Style{Disqualify: dq})
	if err != nil {
		panic(err)
	}
	seats := make([]club.NewSeat, len(roles))
	for i, r := range roles {
		seats[i].Role = r.String()
	}
	return &gamePlan{at: at, host: judge, rules: club.DefaultTournamentRules, seats: seats, rated: true, gen: gen}
}

// roles are the plan's cards, seat by seat.
func (p *gamePlan) roles() []string {
	out := make([]string, len(p.seats))
	for i, s := range p.seats {
		out[i] = s.Role
	}
	return out
}

// protest files a player's protest about a saved tournament game four minutes after its end, and the chief
// judge's decision half an hour later.
func (b *builder) protest(pg *pendingGame) error {
	ctx := b.ctx
	st, err := b.svc.Games.Load(ctx, b.admin, pg.id)
	if err != nil {
		return err
	}
	end := b.svc.Tournaments.GameEnd(st)
	var by *club.User
	for _, seat := range st.Game.Seats {
		for _, u := range b.members {
			if by == nil && seat.PlayerID != 0 && u.PlayerID == seat.PlayerID && seat.Role != "mafia" && seat.Role != "don" {
				by = u
			}
		}
	}
	if by == nil {
		return errors.New("nobody at the protested table has an account")
	}
	b.at = end.Add(4 * time.Minute)
	p, err := b.svc.Tournaments.FileProtest(ctx, by, pg.id, "the vote on day 2",
		"A hand was raised after the judge's \"thank you\": the vote should not count.")
	if err != nil {
		return err
	}
	b.at = end.Add(35 * time.Minute)
	return b.svc.Tournaments.DecideProtest(ctx, b.admin, pg.id, p.ID, false,
		"The table's judge and the players next to him agree that the hand was raised in time; the result stands.")
}

// startClubGame starts a club night's game as its plan says, at the plan's time (the night's id is known only once
// the night is made, hence a function).
func (b *builder) startClubGame(p *gamePlan, night func() int64) {
	b.add(p.at, "game", func() error {
		g, err := b.svc.Games.Start(b.ctx, p.host, club.NewGame{Rules: p.rules, Options: p.opts, Seats: p.seats, Rated: p.rated, NightID: night()})
		if err != nil {
			return err
		}
		b.pending = append(b.pending, &pendingGame{id: g.ID, plan: p})
		b.report.Games++
		b.report.ClubGames++
		return nil
	})
}
