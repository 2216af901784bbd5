// Package demo builds the demo club: a season of club nights and a tournament played through the club's services
// (Season), and a game the demo host plays live at a real pace (Live). Every game is played at random through
// the rules engine's own plan, so it is valid by construction; the same seed gives the same games.
package demo

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// Action is one thing the host records (a speech, a nomination, a round's vote on one candidate, the night's
// shots), and how long after the previous action it comes: the speeches, last words and wake-ups in between, at
// the rule set's times.
type Action struct {
	After  time.Duration
	Events []record.Event
}

// Style asks a generated game for what real games show only now and then.
type Style struct {
	Disqualify bool // a player is disqualified during a day
}

// maxActions ends a game that has not ended by itself (none does in practice: every night and most days take a
// player off the table).
const maxActions = 600

// table plays one game at random through the engine's plan: it picks among the events the rules allow now, as a
// table of real players would. Black players know each other and vote and shoot red; red players suspect blacks a
// little better than by chance, the sheriff acts on his checks; shots mostly hit; fouls come now and then.
type table struct {
	rng   *rand.Rand
	g     *mafia.Game
	style Style

	blackKnown, redKnown mafia.Seats // the sheriff's checks
	claimed              mafia.Seats // the blacks the sheriff has nominated: the other reds believe him
	donChecked           mafia.Seats
	sheriffFound         int                     // the sheriff, once the don found him
	choice               [mafia.MaxSeats + 1]int // each player's candidate in the voting round under way (0: no hand)
	decided              [2]int                  // the day and the speaker whose nomination is decided
	speechLeft           float64                 // seconds left of the speech under way
	extras               bool                    // the extra points after the end are given (or not)
	actions              int
	fallbacks            int        // events the table had to replace by a plain one (a test counts them: none)
	scratch              mafia.Game // where the engine tries what an action would do
}

func newTable(rng *rand.Rand, g *mafia.Game, style Style) *table {
	return &table{rng: rng, g: g, style: style}
}

// options returns a rule set's options from their JSON, as the club stores them.
func options(rules string, opts map[string][]byte, roles []mafia.Role) (mafia.Options, error) {
	raw := rawOptions(opts)
	seats := make([]record.Seat, len(roles))
	for i, r := range roles {
		seats[i] = record.Seat{Seat: i + 1, Role: r, Name: "p" + string(rune('a'+i))}
	}
	rec, err := record.Build(rules, raw, seats, nil)
	if err != nil {
		return mafia.Options{}, err
	}
	return rec.Options, nil
}

// generated is a game played at random: its actions in order, how long the table takes after the last one (last
// words, the summary) before the host saves it, and the events the table had to replace (none, as tests check).
type generated struct {
	actions   []Action
	tail      time.Duration
	fallbacks int
}

// play plays a whole game at random.
func play(rng *rand.Rand, rules string, opts map[string][]byte, roles []mafia.Role, style Style) (*generated, error) {
	rs, _ := mafia.RuleSet(rules)
	opt, err := options(rules, opts, roles)
	if err != nil {
		return nil, err
	}
	g, err := mafia.NewGame(rs, opt, roles)
	if err != nil {
		return nil, err
	}
	t := newTable(rng, g, style)
	out := &generated{}
	for {
		a, ok := t.next()
		if !ok {
			break
		}
		out.actions = append(out.actions, a)
	}
	out.tail, out.fallbacks = t.tail(), t.fallbacks
	return out, nil
}

// homeDoctor is the demo's choice of home-doctor's options (it has no defaults for them): the doctor wakes after
// the mafia, the default vote, the lift on a repeated tie, cards shown on leaving, last words, no self-heal and
// no second night in a row on one player.
var homeDoctor = map[string][]byte{"night_order": []byte(`["mafia","doctor","commissar"]`), "default_vote_to_last": []byte(`true`),
	"tie_model": []byte(`"lift"`), "reveal_on_elimination": []byte(`true`), "last_word": []byte(`true`),
	"doctor_self_heal": []byte(`false`), "doctor_repeat_target": []byte(`false`)}

// dealDemo deals the roles of a table of n at random, as the site deals them (club.TableRoles: the rule set's table;
// for the home rule sets a commissar, a doctor in home-doctor, and two or three mafia), and the options the demo
// plays the rule set with.
func dealDemo(rng *rand.Rand, rules string, n int) ([]mafia.Role, map[string][]byte) {
	rs, _ := mafia.RuleSet(rules)
	mafiaN := 2
	if n >= 10 {
		mafiaN = 3
	}
	var opts map[string][]byte
	if rules == "home-doctor" {
		opts = homeDoctor
	}
	roles, err := club.TableRoles(rs, n, mafiaN, rules == "home-doctor")
	if err != nil {
		panic(fmt.Sprintf("demo: no table of %d for %s: %v", n, rules, err)) // the demo deals only tables its rule sets have
	}
	rng.Shuffle(n, func(i, j int) { roles[i], roles[j] = roles[j], roles[i] })
	return roles, opts
}

// rawOptions is the options' JSON as a record takes it.
func rawOptions(opts map[string][]byte) map[string]json.RawMessage {
	raw := map[string]json.RawMessage{}
	for k, v := range opts {
		raw[k] = v
	}
	return raw
}

func (t *table) seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// between returns a random number of seconds in [lo, hi).
func (t *table) between(lo, hi float64) float64 { return lo + t.rng.Float64()*(hi-lo) }

// try applies an event to the table's game; false when the rules refuse it (nothing changed).
func (t *table) try(e mafia.Event) bool { return t.g.Apply(e) == nil }

// act makes an action of events already applied, after secs seconds.
func (t *table) act(secs float64, events ...mafia.Event) Action {
	a := Action{After: t.seconds(secs)}
	for _, e := range events {
		a.Events = append(a.Events, record.Event{Event: e})
	}
	return a
}

// firstEvent returns the step of the plan that records the next event.
func firstEvent(nx *mafia.Next) mafia.PlanStep {
	for _, p := range nx.Plan() {
		if p.Event != mafia.NoEvent {
			return p
		}
	}
	return mafia.PlanStep{}
}

// waits is the time the table takes before the step of the plan that records the next event: the rest of the
// speech under way and the steps the host only times (last words, tie speeches, the first night's wake-ups), at
// most of their limits, and the host's few seconds.
func (t *table) waits(nx *mafia.Next) float64 {
	secs := t.speechLeft + t.between(2, 5)
	t.speechLeft = 0
	for _, p := range nx.Plan() {
		if p.Event != mafia.NoEvent {
			break
		}
		if p.Current {
			continue
		}
		if p.Limit > 0 {
			secs += float64(p.Limit) * t.between(0.7, 1)
		} else {
			secs += t.between(3, 8)
		}
	}
	return secs
}

// tail is how long the table takes from the last event to the save: the last words and the summary.
func (t *table) tail() time.Duration {
	nx := t.g.Next()
	return t.seconds(t.waits(&nx) + t.between(40, 120))
}

// weighted picks one of the seats by weight; 0 when none has any.
func (t *table) weighted(seats []int, weight func(int) float64) int {
	total := 0.0
	for _, s := range seats {
		total += weight(s)
	}
	if total <= 0 {
		return 0
	}
	x := t.rng.Float64() * total
	for _, s := range seats {
		if x -= weight(s); x < 0 {
			return s
		}
	}
	return seats[len(seats)-1]
}

// redSense is how much likelier a red player is to name a black player than a red one, by his own sense of the
// table: enough for red to win about half of the games.
var redSense = 3.0

func (t *table) black(s int) bool { return t.g.Role(s).Team() == mafia.Black }

// suspicion is how likely player by is to name seat s (nominate him, vote against him): blacks go for reds, reds
// find blacks a little better than by chance, and the sheriff follows his checks.
func (t *table) suspicion(by, s int) float64 {
	if by == s {
		return 0
	}
	if t.black(by) {
		if t.black(s) {
			return 0.15
		}
		if s == t.sheriffFound {
			return 4
		}
		return 3
	}
	w := 1.0
	if t.black(s) {
		w = redSense
	}
	if t.claimed.Has(s) {
		w *= 4 // the sheriff named him
	}
	if r := t.g.Role(by); r == mafia.Sheriff || r == mafia.Commissar {
		switch {
		case t.blackKnown.Has(s):
			w *= 10
		case t.redKnown.Has(s):
			w *= 0.1
		}
	}
	return w
}

// next returns the table's next action, applied to its game; false once the game is over and its best move and
// extra points are given.
func (t *table) next() (Action, bool) {
	g := t.g
	if t.actions++; t.actions > maxActions {
		return t.stop()
	}
	nx := g.Next()
	if bm := nx.BestMoveSeat(); bm != 0 {
		return t.bestMove(bm)
	}
	if g.Finished() {
		if t.extras {
			return Action{}, false
		}
		t.extras = true
		if a, ok := t.extraPoints(); ok {
			return a, true
		}
		return Action{}, false
	}
	want := firstEvent(&nx)
	phase, day := g.Phase()
	if phase == mafia.PhaseDay && nx.Speaker != 0 {
		if a, ok := t.duringSpeech(&nx, day); ok {
			return a, true
		}
	}
	switch want.Event {
	case mafia.EvSpeech:
		secs := t.waits(&nx)
		if !t.try(mafia.Speech(want.Seat)) {
			return t.fallback(want)
		}
		t.speechLeft = float64(want.Limit) * t.between(0.75, 1)
		return t.act(secs, mafia.Speech(want.Seat)), true
	case mafia.EvVote:
		return t.vote(&nx, want)
	case mafia.EvLift:
		return t.lift(&nx)
	case mafia.EvShot:
		return t.shoot(&nx)
	case mafia.EvCheck:
		return t.check(&nx, want)
	case mafia.EvHeal:
		return t.heal(&nx, want)
	case mafia.EvDay, mafia.EvNight:
		secs := t.waits(&nx)
		e := mafia.Event{Type: want.Event}
		if !t.try(e) {
			return t.fallback(want)
		}
		return t.act(secs, e), true
	}
	return t.fallback(want)
}

// fallback records the plan's event in its plainest form; if even that is refused, the game is stopped.
func (t *table) fallback(want mafia.PlanStep) (Action, bool) {
	t.fallbacks++
	e := mafia.Event{Type: want.Event, Seat: uint8(want.Seat), Target: uint8(want.Seat)}
	if want.Event == mafia.EvVote {
		e = mafia.Event{Type: mafia.EvVote, Target: uint8(want.Seat), VotersGiven: true}
	}
	if want.Event != mafia.NoEvent && t.try(e) {
		return t.act(t.between(3, 6), e), true
	}
	return t.stop()
}

// stop ends a game that went on too long: a draw where the host may declare one, else a team's loss.
func (t *table) stop() (Action, bool) {
	if t.g.Finished() {
		return Action{}, false
	}
	t.fallbacks++
	if t.try(mafia.DeclareDraw()) {
		return t.act(5, mafia.DeclareDraw()), true
	}
	s := t.g.Alive().List()[0]
	if !t.try(mafia.TeamLoss(s)) {
		return Action{}, false // a refused event is never in the record
	}
	return t.act(5, mafia.TeamLoss(s)), true
}

// duringSpeech is what may happen while a player speaks: his nomination, a foul, a disqualification.
func (t *table) duringSpeech(nx *mafia.Next, day int) (Action, bool) {
	g := t.g
	alive := g.Alive().List()
	mid := func() float64 {
		secs := t.speechLeft * t.between(0.2, 0.6)
		t.speechLeft -= secs
		return secs + 1
	}
	if t.style.Disqualify && day >= 2 && t.rng.IntN(5) == 0 {
		s := alive[t.rng.IntN(len(alive))]
		if t.try(mafia.Disqualify(s)) {
			t.style.Disqualify = false
			a := t.act(mid(), mafia.Disqualify(s))
			a.Events[0].Reason = []string{"insulted another player", "peeked during the night", "spoke of the game's cards after a warning"}[t.rng.IntN(3)]
			return a, true
		}
	}
	if t.rng.IntN(100) < 3 {
		s := nx.Speaker
		if t.rng.IntN(3) > 0 {
			s = alive[t.rng.IntN(len(alive))]
		}
		e := mafia.Foul(s)
		if !nx.Allowed.Has(mafia.EvFoul) {
			e = mafia.Warning(s)
		}
		// never a foul that removes the player (the engine says which: a fourth foul, a third warning): the demo's
		// removals are its disqualifications
		if eff, err := g.Effect(e, &t.scratch); err == nil && eff.Leaves == 0 && t.try(e) {
			return t.act(mid(), e), true
		}
	}
	if !nx.Allowed.Has(mafia.EvNominate) || t.decided == [2]int{day, nx.Speaker} {
		return Action{}, false
	}
	t.decided = [2]int{day, nx.Speaker}
	p := 0.4
	if nx.NNom == 0 && firstEvent(nx).Event != mafia.EvSpeech {
		p = 0.6 // the last speaker and nobody nominated
	}
	if nx.NNom >= 3 {
		p = 0.15
	}
	if t.rng.Float64() >= p {
		return Action{}, false
	}
	var free []int
	for _, s := range alive {
		if !mafia.SeatsOf(g.Nominated()...).Has(s) {
			free = append(free, s)
		}
	}
	target := t.weighted(free, func(s int) float64 { return t.suspicion(nx.Speaker, s) })
	if target == 0 || !t.try(mafia.Nominate(nx.Speaker, target)) {
		return Action{}, false
	}
	if r := g.Role(nx.Speaker); (r == mafia.Sheriff || r == mafia.Commissar) && t.blackKnown.Has(target) {
		t.claimed = t.claimed.Add(target)
	}
	return t.act(mid(), mafia.Nominate(nx.Speaker, target)), true
}

// vote records the hands against the candidate whose turn it is; each player chooses his candidate when a round
// begins (after a tie most keep their choice), and raises his hand for him only.
func (t *table) vote(nx *mafia.Next, want mafia.PlanStep) (Action, bool) {
	g := t.g
	cand := want.Seat
	var secs float64
	if nx.NCand > 0 && int(nx.Candidates[0]) == cand { // a round begins
		secs = t.waits(nx) + t.between(5, 12) // the host names the candidates
		cands := nx.Candidates[:nx.NCand]
		for _, v := range g.Alive().List() {
			prev := t.choice[v]
			keep := false
			for _, c := range cands {
				keep = keep || int(c) == prev
			}
			if keep && nx.Tied && t.rng.IntN(4) > 0 {
				continue
			}
			t.choice[v] = 0
			if t.rng.IntN(100) < 6 {
				continue // no hand: under the default vote it counts against the last
			}
			list := make([]int, 0, len(cands))
			for _, c := range cands {
				list = append(list, int(c))
			}
			t.choice[v] = t.weighted(list, func(s int) float64 { return t.suspicion(v, s) })
		}
	} else {
		secs = t.waits(nx) + t.between(2, 5)
	}
	var hands mafia.Seats
	for _, v := range nx.Actors.List() {
		if t.choice[v] == cand {
			hands = hands.Add(v)
		}
	}
	e := mafia.Event{Type: mafia.EvVote, Target: uint8(cand), VotersGiven: true, Voters: hands}
	if !t.try(e) {
		return t.fallback(want)
	}
	return t.act(secs, e), true
}

// lift records the vote on whether all the tied leave: blacks vote as their side gains, reds split.
func (t *table) lift(nx *mafia.Next) (Action, bool) {
	g := t.g
	reds := 0
	for _, s := range nx.Candidates[:nx.NCand] {
		if !t.black(int(s)) {
			reds++
		}
	}
	var yes []int
	for _, v := range g.Alive().List() {
		p := 0.5
		if t.black(v) {
			p = 0.2
			if reds*2 > nx.NCand {
				p = 0.85
			}
		}
		if t.rng.Float64() < p {
			yes = append(yes, v)
		}
	}
	secs := t.waits(nx) + t.between(5, 10)
	if !t.try(mafia.Lift(yes...)) {
		return t.fallback(firstEvent(nx))
	}
	return t.act(secs, mafia.Lift(yes...)), true
}

// shoot records the night's shots: the black players agree on a red (the sheriff, once the don found him) and
// mostly hit; now and then one of them shoots another seat, and the night misses.
func (t *table) shoot(nx *mafia.Next) (Action, bool) {
	g := t.g
	var reds []int
	for _, s := range g.Alive().List() {
		if !t.black(s) {
			reds = append(reds, s)
		}
	}
	target := t.weighted(reds, func(s int) float64 {
		if s == t.sheriffFound {
			return float64(len(reds)) * 3
		}
		return 1
	})
	shooters := nx.Actors.List()
	secs := t.waits(nx) + t.between(6, 15)
	var events []mafia.Event
	miss := len(shooters) > 1 && t.rng.IntN(100) < 12
	for i, s := range shooters {
		at := target
		if miss && i == len(shooters)-1 && len(reds) > 1 {
			for at == target {
				at = reds[t.rng.IntN(len(reds))]
			}
		}
		if at == 0 || !t.try(mafia.Shot(s, at)) {
			// the shots applied so far are in the game: they go into the record too, with the fallback after them
			now := t.g.Next()
			fb, ok := t.fallback(firstEvent(&now))
			fb.Events = append(t.act(secs, events...).Events, fb.Events...)
			return fb, ok || len(events) > 0
		}
		events = append(events, mafia.Shot(s, at))
	}
	return t.act(secs, events...), true
}

// check records the don's or the sheriff's check of a player he has not checked yet.
func (t *table) check(nx *mafia.Next, want mafia.PlanStep) (Action, bool) {
	g := t.g
	by := want.Seat
	don := g.Role(by) == mafia.Don
	var fresh, any []int
	for _, s := range g.Alive().List() {
		if s == by || don && t.black(s) {
			continue
		}
		any = append(any, s)
		if don && !t.donChecked.Has(s) || !don && !t.blackKnown.Has(s) && !t.redKnown.Has(s) {
			fresh = append(fresh, s)
		}
	}
	if len(fresh) == 0 {
		fresh = any
	}
	secs := t.waits(nx) + float64(want.Limit)*t.between(0.3, 0.9)
	for _, k := range t.rng.Perm(len(fresh)) {
		s := fresh[k]
		if !t.try(mafia.Check(by, s)) {
			continue // the don may not check his own first shot (fsm-2026)
		}
		switch r := g.Role(s); {
		case don:
			t.donChecked = t.donChecked.Add(s)
			if r == mafia.Sheriff || r == mafia.Commissar {
				t.sheriffFound = s
			}
		case r.Team() == mafia.Black:
			t.blackKnown = t.blackKnown.Add(s)
		default:
			t.redKnown = t.redKnown.Add(s)
		}
		return t.act(secs, mafia.Check(by, s)), true
	}
	return t.fallback(want)
}

// heal records the doctor's protection of a living player the rules let him protect.
func (t *table) heal(nx *mafia.Next, want mafia.PlanStep) (Action, bool) {
	alive := t.g.Alive().List()
	secs := t.waits(nx) + t.between(5, 10)
	for _, k := range t.rng.Perm(len(alive)) {
		if t.try(mafia.Heal(want.Seat, alive[k])) {
			return t.act(secs, mafia.Heal(want.Seat, alive[k])), true
		}
	}
	return t.fallback(want)
}

// bestMove records the night victim's best move: usually three seats, a red victim finding blacks somewhat
// better than by chance, and the sheriff naming the blacks he found.
func (t *table) bestMove(by int) (Action, bool) {
	g := t.g
	k := 3
	switch x := t.rng.IntN(100); {
	case x < 8:
		k = 1
	case x < 25:
		k = 2
	}
	var others []int
	for s := 1; s <= g.Players(); s++ {
		if s != by {
			others = append(others, s)
		}
	}
	var named []int
	for len(named) < k {
		s := t.weighted(others, func(s int) float64 {
			for _, n := range named {
				if n == s {
					return 0
				}
			}
			w := 1.0
			if !g.Alive().Has(s) {
				w = 0.05
			}
			if t.black(s) != t.black(by) {
				w *= 2.2
			}
			if t.blackKnown.Has(s) && !t.black(by) {
				w *= 20
			}
			return w
		})
		if s == 0 {
			break
		}
		named = append(named, s)
	}
	secs := t.speechLeft + t.between(8, 18)
	t.speechLeft = 0
	e := mafia.BestMove(by, named...)
	if !t.try(e) {
		return t.stop()
	}
	return t.act(secs, e), true
}

// extraPoints gives the extras after the end: in X-Craft the judge's extra points to one or two winners (at most
// 0.5 each, which needs nobody's agreement) and now and then a loser; in the club's rules now and then the host's
// correction of ±0.1 to ±0.5.
func (t *table) extraPoints() (Action, bool) {
	g := t.g
	res := g.Result()
	var winners, losers []int
	for _, sr := range res.Seats {
		if sr.Won {
			winners = append(winners, sr.Seat)
		} else {
			losers = append(losers, sr.Seat)
		}
	}
	var events []mafia.Event
	add := func(s, points int) {
		if e := mafia.Adjust(s, points); t.try(e) {
			events = append(events, e)
		}
	}
	switch g.Rules().Points {
	case mafia.PointsXCraft:
		if len(winners) == 0 || t.rng.IntN(10) < 3 {
			break
		}
		for _, k := range t.rng.Perm(len(winners))[:1+t.rng.IntN(2)] {
			add(winners[k], 10*(2+t.rng.IntN(4)))
		}
		if len(losers) > 0 && t.rng.IntN(5) == 0 {
			add(losers[t.rng.IntN(len(losers))], 10*(1+t.rng.IntN(3)))
		}
	case mafia.Points2025:
		if t.rng.IntN(100) < 15 && len(winners) > 0 {
			add(winners[t.rng.IntN(len(winners))], []int{10, 30, 50}[t.rng.IntN(3)])
		}
		if t.rng.IntN(100) < 5 && len(losers) > 0 {
			add(losers[t.rng.IntN(len(losers))], []int{-10, -30}[t.rng.IntN(2)])
		}
	}
	if len(events) == 0 {
		return Action{}, false
	}
	nx := g.Next()
	return t.act(t.waits(&nx)+t.between(20, 60), events...), true
}

// Play plays a whole game of rules at random through the engine's plan, with the rule set's default options and
// roles[i] at seat i+1, and returns its actions in order: a host's valid game, for a load tool to replay through
// the site's forms (cmd/clubload). The same rng gives the same game.
func Play(rng *rand.Rand, rules string, roles []mafia.Role) ([]Action, error) {
	g, err := play(rng, rules, nil, roles, Style{})
	if err != nil {
		return nil, err
	}
	return g.actions, nil
}

// Deal deals the roles of a table of n at rules at random, as the demo's live game deals them.
func Deal(rng *rand.Rand, rules string, n int) []mafia.Role {
	roles, _ := dealDemo(rng, rules, n)
	return roles
}
