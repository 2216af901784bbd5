// Package convert imports games recorded by other platforms (mafiaratings.com, Polemica) into our game record
// (spec game-record.md, format 1) and exports our records as mafiaratings game JSON.
//
// An importer never guesses. It reads the platform's facts into a neutral form (the game by engine night and day
// numbers), then replays them through the rules engine step by step: the engine's "what happens next" says who
// speaks, which candidate is voted now and whether a lift vote is due, and the importer fills in only what the
// platform leaves implicit and our record needs (speech events in speaking order, default votes, an unrecorded
// lift vote whose outcome the departures fix). Where the platform's facts fit no event sequence under the chosen
// rule set, the import fails with a *GameError naming the round and the seat; malformed input is an *InputError
// naming the field and the player.
package convert

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// InputError is input that is not a valid game of the platform: bad JSON, a field of the wrong type, a seat that
// does not exist. Where names the field and the player or round.
type InputError struct {
	Where string
	What  string
	// Format and Args are what What was made of: an interface says Format in its reader's language (the
	// catalogue's "convert:" + Format), each argument that is words (a Phrase, a RuleSet, an Option, a role, an
	// error) said in it too; Place says Where in it.
	Format string
	Args   []any
}

func (e *InputError) Error() string {
	if e.Where == "" {
		return e.What
	}
	return e.Where + ": " + e.What
}

// GameError is a valid platform game that cannot become our record: its facts fit no event sequence under the
// rule set (a difference of rules, or facts that contradict each other). Where names the round and the seat.
type GameError struct {
	Where string
	What  string
	// Format and Args are what What was made of, as InputError's.
	Format string
	Args   []any
}

func (e *GameError) Error() string {
	if e.Where == "" {
		return e.What
	}
	return e.Where + ": " + e.What
}

// inputErr and gameErr make the importers' errors. Every format (and every Phrase format, and every phrase a
// Where says beside its field path: wherePhrases) has its entry "convert:" + format in the catalogues
// internal/web/i18n/{uk,en,ru}.convert.json; a test in this package fails on one that has none.
func inputErr(where, format string, args ...any) error {
	return &InputError{Where: where, What: fmt.Sprintf(format, args...), Format: format, Args: args}
}

func gameErr(where, format string, args ...any) error {
	return &GameError{Where: where, What: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// Phrase is words inside a message (an event, a moment of the game, who won): said in English by String, in a
// reader's language by the catalogue's "convert:" + Format with the arguments said in it too.
type Phrase struct {
	Format string
	Args   []any
}

func (p Phrase) String() string { return fmt.Sprintf(p.Format, p.Args...) }

func phrase(format string, args ...any) Phrase { return Phrase{Format: format, Args: args} }

// Phrases are phrases said one after another, "; " between them.
type Phrases []Phrase

func (l Phrases) String() string {
	s := make([]string, len(l))
	for i, p := range l {
		s[i] = p.String()
	}
	return strings.Join(s, "; ")
}

// RuleSet is a rule set named in a message: its id in English, its title in a reader's language.
type RuleSet string

// Option is an option named in a message: its key in English, its title in a reader's language.
type Option string

// Ordinal is a place in an order: "3rd" in English; a reader's language writes it with %d ("3-м").
type Ordinal int

func (n Ordinal) String() string {
	suf := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suf = "st"
	case n%10 == 2:
		suf = "nd"
	case n%10 == 3:
		suf = "rd"
	}
	return fmt.Sprintf("%d%s", int(n), suf)
}

// wherePhrases are the words a Where may say beside the file's field path: the whole Where ("day 2"), or in
// parentheses after the path ("players[0] (seat 1)"). Each is a catalogue format too ("convert:seat %d").
var wherePhrases = []string{
	"seat %d",
	"day %d",
	"night %d",
	"day %d, seat %d",
	"night %d, seat %d",
	"day %d, round %d",
	"day %d, num %d, voter %d",
	"day %d, round %d, seat %d's vote",
	"kill-all votes",
	"lift",
	"the end of day %d",
	"the morning after night %d",
}

var wherePatterns = func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(wherePhrases))
	for i, f := range wherePhrases {
		out[i] = regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(f), "%d", `(\d+)`) + "$")
	}
	return out
}()

// wherePhrase reads s as one of wherePhrases.
func wherePhrase(s string) (Phrase, bool) {
	for i, re := range wherePatterns {
		m := re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		args := make([]any, len(m)-1)
		for k, a := range m[1:] {
			args[k], _ = strconv.Atoi(a)
		}
		return Phrase{Format: wherePhrases[i], Args: args}, true
	}
	return Phrase{}, false
}

// Place splits a Where into what an interface says as it is (the file's field path, "players[0]", ".role") and
// what it says in its reader's language (a Phrase: "seat 1" of "players[0] (seat 1).role", a whole "day 2").
// Each part is a string or a Phrase; joined as strings they are the Where.
func Place(where string) []any {
	if p, ok := wherePhrase(where); ok {
		return []any{p}
	}
	var parts []any
	rest := where
	for {
		open := strings.IndexByte(rest, '(')
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open:], ')')
		if end < 0 {
			break
		}
		end += open
		if p, ok := wherePhrase(rest[open+1 : end]); ok {
			parts = append(parts, rest[:open+1], p)
			rest = rest[end:]
			continue
		}
		parts = append(parts, rest[:end+1])
		rest = rest[end+1:]
	}
	if rest != "" {
		parts = append(parts, rest)
	}
	return parts
}

// Imported is the result of an import: the record and how it replays.
type Imported struct {
	Record *record.Record
	Game   *mafia.Game // the replayed game
	Notes  []string    // what was chosen or synthesized, also in the record's "note"
}

// JSON is the record in its canonical form.
func (im *Imported) JSON() []byte { return record.Encode(im.Record) }

// slotKind is a moment of the game at which a platform records a foul, a disqualification or the point where an
// unfinished game stops. The builder passes the moments in this order within a night and within a day.
type slotKind uint8

const (
	slNightStart   slotKind = iota + 1 // a night, before its shots (night 1: the acquaintance)
	slAfterShots                       // after the shots
	slAfterDon                         // after the don's check
	slAfterSheriff                     // after the sheriff's check: the end of the night, before "day"
	slMorning                          // after "day" and the best move: the victim's last word
	slSpeechBefore                     // during seat's regular speech, before his nomination
	slSpeech                           // during seat's regular speech (after his nomination)
	slVotingStart                      // after the last speech, before the voting
	slRoundStart                       // before voting round `round` (after the tie speeches)
	slBeforeVote                       // before the vote on seat in voting round `round`
	slBeforeLift                       // before the lift vote
	slAfterVoting                      // after the voting: the last words; the end of the day
	slEnd                              // after the end of the game
)

// slot is one moment. num is the engine's night or day number (nights from 1, the acquaintance night). who is a
// seat the platform names beside the moment, which does not change where the moment is: the speaker of a tie
// speech (slRoundStart) or of a last word (slMorning, slAfterVoting); it goes into the record's "during".
type slot struct {
	kind  slotKind
	num   int
	round int // voting round, from 0
	seat  int
	who   int
}

// at returns the moment without who, as the builder names the moments it reaches.
func (s slot) at() slot {
	s.who = 0
	return s
}

func (s slot) String() string { return s.phrase().String() }

// phrase says the moment in words.
func (s slot) phrase() Phrase {
	switch s.kind {
	case slNightStart:
		return phrase("the start of night %d", s.num)
	case slAfterShots:
		return phrase("night %d after the shots", s.num)
	case slAfterDon:
		return phrase("night %d after the don's check", s.num)
	case slAfterSheriff:
		return phrase("the end of night %d", s.num)
	case slMorning:
		return phrase("the morning of day %d", s.num)
	case slSpeech, slSpeechBefore:
		return phrase("seat %d's speech on day %d", s.seat, s.num)
	case slVotingStart:
		return phrase("the start of the voting on day %d", s.num)
	case slRoundStart:
		return phrase("voting round %d of day %d", s.round+1, s.num)
	case slBeforeVote:
		return phrase("the vote on seat %d in voting round %d of day %d", s.seat, s.round+1, s.num)
	case slBeforeLift:
		return phrase("the lift vote of day %d", s.num)
	case slAfterVoting:
		return phrase("the end of day %d", s.num)
	case slEnd:
		return phrase("the end of the game")
	}
	return phrase("an unknown moment")
}

// order gives a total order of slots for sorting leftovers (nights before the day of the same number).
func (s slot) order() [4]int {
	if s.kind == slEnd {
		return [4]int{1 << 20, 0, 0, 0}
	}
	phase := 0
	if s.kind >= slMorning {
		phase = 1
	}
	return [4]int{s.num*2 + phase, int(s.kind), s.round, s.seat}
}

// pending is a discipline event waiting for its moment.
type pending struct {
	ev    record.Event
	where string // the platform field it came from
	at    slot
	seq   int
}

type nomination struct {
	target int
	where  string
}

type shotFact struct {
	by, target int
	where      string
}

type checkFact struct {
	by     int // 0: the living don / sheriff
	target int
	where  string
}

// liftFact is a day's lift vote as the platform recorded it.
type liftFact struct {
	recorded bool
	yes      []int
	where    string
}

// expectOut is how and when the platform says a seat left.
type expectOut struct {
	known bool // the platform recorded it
	how   mafia.OutHow
	phase mafia.Phase
	num   int
}

// game is a platform's game in a neutral form, by engine night and day numbers.
type game struct {
	platform string
	rules    *mafia.Rules
	options  mafia.Options
	optJSON  map[string]json.RawMessage
	seats    []record.Seat
	extra    map[string]json.RawMessage

	shots       map[int][]shotFact         // by night
	donCheck    map[int][]checkFact        // by night
	sherCheck   map[int][]checkFact        // by night
	noms        map[int]map[int]nomination // by day, by nominator
	rounds      map[int][]map[int]int      // by day: the voting rounds, voter -> candidate
	roundsAt    map[int]string             // by day: where the votes come from, for messages
	lifts       map[int]liftFact           // by day
	bestMove    map[int][]int              // by seat
	bmWhere     map[int]string             // by seat
	pend        []pending
	adjust      []record.Event
	lastNum     int // the last night or day number the platform recorded anything for
	winner      mafia.Winner
	finished    bool  // the platform says the game is over
	stop        *slot // an unfinished game stops at this moment
	expect      []expectOut
	expFouls    []int                              // -1: not recorded
	dayVotes    bool                               // the platform records every living player's vote in each round (Polemica)
	voteField   func(day, round, voter int) string // names the platform field of one vote, for messages
	resultField string                             // the platform's field of who won, for messages
	notes       []string
	seq         int
	// allDeaths: the platform records every departure, so a seat without one stayed to the end
	allDeaths bool
	// liftYesOnly: the platform lists only the yes votes of a lift vote (Polemica), so none listed means none
	liftYesOnly bool
}

func newGame(platform string, n int) *game {
	g := &game{platform: platform, shots: map[int][]shotFact{}, donCheck: map[int][]checkFact{},
		sherCheck: map[int][]checkFact{}, noms: map[int]map[int]nomination{}, rounds: map[int][]map[int]int{},
		roundsAt: map[int]string{}, lifts: map[int]liftFact{}, bestMove: map[int][]int{}, bmWhere: map[int]string{},
		extra: map[string]json.RawMessage{}, optJSON: map[string]json.RawMessage{},
		expect: make([]expectOut, n+1), expFouls: make([]int, n+1)}
	g.voteField = func(day, round, voter int) string {
		return fieldf("day %d, round %d, seat %d's vote", day, round+1, voter)
	}
	g.resultField = "winner"
	for i := range g.expFouls {
		g.expFouls[i] = -1
	}
	return g
}

func (g *game) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	for _, n := range g.notes {
		if n == s {
			return
		}
	}
	g.notes = append(g.notes, s)
}

func (g *game) touch(num int) {
	if num > g.lastNum {
		g.lastNum = num
	}
}

func (g *game) addPending(at slot, ev record.Event, where string) {
	g.seq++
	g.pend = append(g.pend, pending{ev: ev, where: where, at: at, seq: g.seq})
	g.touch(at.num)
}

func (g *game) setOption(key string, v bool) {
	if err := g.options.Set(key, mafia.OptionValue{Bool: v}); err != nil {
		panic(err) // the keys are ours
	}
	b, _ := json.Marshal(v)
	g.optJSON[key] = b
}

// builder replays a neutral game through the engine, emitting the record's events.
type builder struct {
	src    *game
	eng    *mafia.Game
	events []record.Event
	done   map[int]bool // pending items applied, by seq
	bmDone map[int]bool
}

func (b *builder) apply(e record.Event, where string) error {
	if err := b.eng.Apply(e.Event); err != nil {
		return gameErr(where, "%s is not allowed under %s here: %v", describeEvent(e.Event), b.ruleSet(), err)
	}
	b.events = append(b.events, e)
	return nil
}

// ruleSet is the rule set the game replays under, as a message names it.
func (b *builder) ruleSet() RuleSet { return RuleSet(b.src.rules.ID) }

// describeEvent says an event in words.
func describeEvent(e mafia.Event) Phrase {
	switch e.Type {
	case mafia.EvSpeech:
		return phrase("the speech of seat %d", e.Seat)
	case mafia.EvNominate:
		return phrase("seat %d nominating seat %d", e.Seat, e.Target)
	case mafia.EvVote:
		if e.VotersGiven {
			return phrase("the vote on seat %d by seats %v", e.Target, e.Voters.List())
		}
		return phrase("the vote on seat %d", e.Target)
	case mafia.EvLift:
		return phrase("the lift vote (yes: seats %v)", e.Voters.List())
	case mafia.EvShot:
		return phrase("seat %d shooting seat %d", e.Seat, e.Target)
	case mafia.EvCheck:
		return phrase("seat %d checking seat %d", e.Seat, e.Target)
	case mafia.EvBestMove:
		return phrase("the best move of seat %d", e.Seat)
	case mafia.EvFoul:
		return phrase("a foul on seat %d", e.Seat)
	case mafia.EvWarning:
		return phrase("a warning on seat %d", e.Seat)
	case mafia.EvDisqualify:
		return phrase("the disqualification of seat %d", e.Seat)
	case mafia.EvTeamLoss:
		return phrase("the team loss caused by seat %d", e.Seat)
	case mafia.EvAdjust:
		return phrase("an adjustment of seat %d's points", e.Seat)
	case mafia.EvDay:
		return phrase("the start of the day")
	case mafia.EvNight:
		return phrase("the start of the night")
	case mafia.EvHeal:
		return phrase("seat %d healing seat %d", e.Seat, e.Target)
	case mafia.EvDraw:
		return phrase("a declared draw")
	}
	return phrase("the event %q", e.Type.String())
}

// flush applies the discipline events recorded at moment s, in the order the platform lists them.
func (b *builder) flush(s slot) error {
	for i := range b.src.pend {
		p := &b.src.pend[i]
		if b.done[p.seq] || p.at.at() != s {
			continue
		}
		b.done[p.seq] = true
		if err := b.applyPending(p); err != nil {
			return err
		}
	}
	return nil
}

// applyPending applies a discipline event at its moment, saying in "during" where it fell (spec section 2).
func (b *builder) applyPending(p *pending) error {
	ev := p.ev
	if ev.Type == mafia.EvFoul || ev.Type == mafia.EvWarning || ev.Type == mafia.EvDisqualify {
		ev.During = b.duringAt(p.at)
	}
	return b.apply(ev, p.where)
}

// duringAt is the record's "during" for a discipline event the platform places at s: what the platform says,
// with a seat it leaves out completed from the replay where the replay knows it exactly (the night victim's last
// word, the candidate voted first in the round). A moment the platform does not give (the end of the game, no
// time at all) stays unrecorded.
func (b *builder) duringAt(s slot) mafia.During {
	now := b.eng.During()
	switch s.kind {
	case slNightStart, slAfterShots, slAfterDon, slAfterSheriff:
		return mafia.During{Kind: mafia.DuringNight}
	case slMorning, slAfterVoting:
		if s.who != 0 {
			return mafia.During{Kind: mafia.DuringLastWord, Seat: uint8(s.who)}
		}
		if now.Kind == mafia.DuringLastWord {
			return now
		}
	case slSpeechBefore, slSpeech:
		return mafia.During{Kind: mafia.DuringSpeech, Seat: uint8(s.seat)}
	case slVotingStart:
		return mafia.During{Kind: mafia.DuringNominationsClosed}
	case slRoundStart:
		if s.who != 0 {
			return mafia.During{Kind: mafia.DuringTieSpeech, Seat: uint8(s.who)}
		}
		n := b.next()
		if c := planSeat(&n, mafia.EvVote); c != 0 {
			return mafia.During{Kind: mafia.DuringVote, Seat: uint8(c)} // the round's first candidate
		}
	case slBeforeVote:
		return mafia.During{Kind: mafia.DuringVote, Seat: uint8(s.seat)}
	case slBeforeLift:
		return mafia.During{Kind: mafia.DuringLift}
	}
	return mafia.During{}
}

// pastStop refuses the facts an unfinished game records after the moment it stops: the record stops there, and
// nothing the platform recorded is left out silently.
func (b *builder) pastStop() error {
	st := b.src.stop
	key := st.order()[0] // nights 2n, days 2d+1
	past := func(where string) error {
		return gameErr(where, "recorded after the moment where the platform says the unfinished game stops (%s)", st.phrase())
	}
	for _, night := range sortedKeys(b.src.shots) {
		if l := b.src.shots[night]; night*2 > key && len(l) > 0 {
			return past(l[0].where)
		}
	}
	for _, m := range []map[int][]checkFact{b.src.donCheck, b.src.sherCheck} {
		for _, night := range sortedKeys(m) {
			if l := m[night]; night*2 > key && len(l) > 0 {
				return past(l[0].where)
			}
		}
	}
	made := map[int]map[int]bool{} // day -> nominators in the record
	day := 0
	for _, e := range b.events {
		switch e.Type {
		case mafia.EvDay:
			day++
		case mafia.EvNominate:
			if made[day] == nil {
				made[day] = map[int]bool{}
			}
			made[day][int(e.Seat)] = true
		}
	}
	for _, d := range sortedKeys(b.src.noms) {
		for _, by := range sortedKeys(b.src.noms[d]) {
			if !made[d][by] {
				return past(b.src.noms[d][by].where)
			}
		}
	}
	for _, d := range sortedKeys(b.src.rounds) {
		for k, r := range b.src.rounds[d] {
			if len(r) == 0 {
				continue
			}
			if d*2+1 > key || (d == st.num && (st.kind < slRoundStart || (st.kind <= slBeforeVote && k > st.round))) {
				return past(b.src.voteField(d, k, sortedKeys(r)[0]))
			}
			if d == st.num && (st.kind == slRoundStart || st.kind == slBeforeVote) && k == st.round {
				// the round stops at a candidate: no hand against him or those after him is in the record
				n := b.next()
				cur, rest := planSeat(&n, mafia.EvVote), map[int]bool{}
				for _, c := range n.Candidates[:n.NCand] {
					if int(c) == cur || len(rest) > 0 {
						rest[int(c)] = true
					}
				}
				for _, v := range sortedKeys(r) {
					if rest[r[v]] {
						return past(b.src.voteField(d, k, v))
					}
				}
			}
		}
	}
	for _, d := range sortedKeys(b.src.lifts) {
		if f := b.src.lifts[d]; len(f.yes) > 0 && (d*2+1 > key || (d == st.num && st.kind <= slBeforeLift)) {
			return past(f.where)
		}
	}
	return nil
}

// stopped reports whether the unfinished game stops at s.
func (b *builder) stopped(s slot) bool { return b.src.stop != nil && *b.src.stop == s }

func (b *builder) next() mafia.Next { return b.eng.Next() }

func planSeat(n *mafia.Next, ev mafia.EventType) int {
	for _, p := range n.Plan() {
		if p.Event == ev {
			return p.Seat
		}
	}
	return 0
}

// errStop ends the replay at the moment an unfinished game stops.
var errStop = fmt.Errorf("stop")

// build replays the neutral game and returns the record.
func (g *game) build() (*Imported, error) {
	roles := make([]mafia.Role, len(g.seats))
	for i, s := range g.seats {
		roles[i] = s.Role
	}
	eng, err := mafia.NewGame(g.rules, g.options, roles)
	if err != nil {
		return nil, gameErr("players", "the game cannot start under %s: %v", RuleSet(g.rules.ID), err)
	}
	b := &builder{src: g, eng: eng, done: map[int]bool{}, bmDone: map[int]bool{}}
	err = b.run()
	if err != nil && err != errStop {
		return nil, err
	}
	stopped := err == errStop
	if err := b.finish(stopped); err != nil {
		return nil, err
	}
	if stopped {
		if err := b.pastStop(); err != nil {
			return nil, err
		}
	}
	if err := b.verify(); err != nil {
		return nil, err
	}
	extra := map[string]json.RawMessage{}
	for k, v := range g.extra {
		extra[k] = v
	}
	g.note("%s", g.optionNote())
	if len(g.notes) > 0 {
		note, _ := json.Marshal(strings.Join(g.notes, " "))
		extra["note"] = note
	}
	rec, err := record.New(g.rules.ID, g.optJSON, g.seats, b.events, extra)
	if err != nil {
		return nil, gameErr("", "the imported record is not valid: %v", err)
	}
	return &Imported{Record: rec, Game: b.eng, Notes: g.notes}, nil
}

// run drives the engine night by night and day by day until the game ends, the platform's facts run out, or an
// unfinished game reaches its stop.
func (b *builder) run() error {
	for !b.eng.Finished() {
		phase, num := b.eng.Phase()
		if num > b.src.lastNum+1 || num > 60 {
			return b.noEnd()
		}
		var err error
		if phase == mafia.PhaseNight {
			err = b.night(num)
		} else {
			err = b.day(num)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// noEnd explains a replay that ran past the platform's facts without a result.
func (b *builder) noEnd() error {
	if !b.src.finished {
		return gameErr("", "the game is unfinished, but the platform does not say where it stopped")
	}
	alive := b.eng.Alive().List()
	return gameErr("", "the platform says %s, but under %s the game is not over after its last recorded round (seats %v still at the table)",
		winnerText(b.src.winner), b.ruleSet(), alive)
}

// winnerText says who won in words.
func winnerText(w mafia.Winner) Phrase {
	switch w {
	case mafia.RedWins:
		return phrase("red won")
	case mafia.BlackWins:
		return phrase("black won")
	case mafia.Draw:
		return phrase("the game was drawn")
	}
	return phrase("the game goes on")
}

func (b *builder) night(num int) error {
	if num >= 2 {
		if err := b.flush(slot{kind: slNightStart, num: num}); err != nil {
			return err
		}
		for _, s := range b.src.shots[num] {
			if err := b.apply(record.Event{Event: mafia.Shot(s.by, s.target)}, s.where); err != nil {
				return err
			}
		}
		if err := b.victimShot(num); err != nil {
			return err
		}
		if err := b.flush(slot{kind: slAfterShots, num: num}); err != nil {
			return err
		}
		if err := b.checks(num, b.src.donCheck[num], mafia.Don); err != nil {
			return err
		}
		if err := b.flush(slot{kind: slAfterDon, num: num}); err != nil {
			return err
		}
		if err := b.checks(num, b.src.sherCheck[num], mafia.Sheriff); err != nil {
			return err
		}
	} else {
		for _, k := range []slotKind{slNightStart, slAfterShots, slAfterDon} {
			if err := b.flush(slot{kind: k, num: num}); err != nil {
				return err
			}
		}
	}
	end := slot{kind: slAfterSheriff, num: num}
	if err := b.flush(end); err != nil {
		return err
	}
	if b.stopped(end) {
		return errStop
	}
	if b.eng.Finished() {
		return nil
	}
	if err := b.apply(record.Event{Event: mafia.Day()}, fieldf("the morning after night %d", num)); err != nil {
		return err
	}
	return b.morning(num)
}

// victimShot fills in the one shot a platform leaves out: a black player killed by his partners' shots, whose own
// shot it does not record. Under our rules the kill needs every black at the table to shoot the same target
// (R43), so the only reading that fits the recorded death is that he shot at himself too.
func (b *builder) victimShot(num int) error {
	shot := map[int]int{}
	for _, s := range b.src.shots[num] {
		shot[s.by] = s.target
	}
	for _, v := range sortedKeys(shot) {
		victim := shot[v]
		e := b.src.expect[victim]
		if !e.known || e.how != mafia.OutKilled || e.num != num || b.src.seats[victim-1].Role.Team() != mafia.Black {
			continue
		}
		if _, own := shot[victim]; own || !b.eng.Alive().Has(victim) {
			return nil
		}
		for s, t := range shot {
			if t != victim && b.eng.Alive().Has(s) {
				return nil // the partners disagree: no reading gives the kill
			}
		}
		b.src.note("Night %d: the platform records seat %d (black) killed by his partners' shots but not his own shot; the kill needs every black to shoot him (R43), so his shot at himself is filled in.", num, victim)
		return b.apply(record.Event{Event: mafia.Shot(victim, victim), Reconstructed: true, Note: "synthesized: the platform does not record the victim's own shot"},
			fieldf("night %d", num))
	}
	return nil
}

func (b *builder) checks(num int, list []checkFact, role mafia.Role) error {
	for _, c := range list {
		by := c.by
		if by == 0 {
			by = b.seatWith(role)
		}
		if by == 0 {
			return gameErr(c.where, "night %d: the %s checked seat %d, but nobody at this table is the %s", num, role, c.target, role)
		}
		if !b.eng.Alive().Has(by) {
			return gameErr(c.where, "night %d: the %s (seat %d) checked seat %d, but he is no longer at the table under %s",
				num, role, by, c.target, b.ruleSet())
		}
		if c.target != by && c.target >= 1 && c.target <= len(b.src.seats) && !b.eng.Alive().Has(c.target) {
			// The platform lets a checker look at a player who already left; ours check only players at the
			// table (matrix 2.6.4). Such a check tells the checker nothing the table does not know.
			b.src.note("Night %d: the platform records the %s (seat %d) checking seat %d, who had already left; our rule sets check only players at the table (matrix 2.6.4), so this check is not recorded.",
				num, role, by, c.target)
			continue
		}
		if err := b.apply(record.Event{Event: mafia.Check(by, c.target)}, c.where); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) seatWith(r mafia.Role) int {
	for i, s := range b.src.seats {
		if s.Role == r {
			return i + 1
		}
	}
	return 0
}

// morning records the best move of the night victim who has the right, and the discipline of the last word.
func (b *builder) morning(num int) error {
	if err := b.bestMove(); err != nil {
		return err
	}
	s := slot{kind: slMorning, num: num}
	if err := b.flush(s); err != nil {
		return err
	}
	if b.stopped(s) {
		return errStop
	}
	return nil
}

// bestMove records a best move the platform holds for the seat that has the right to one now.
func (b *builder) bestMove() error {
	n := b.next()
	if !n.Allowed.Has(mafia.EvBestMove) {
		return nil
	}
	seat := 0
	for _, p := range n.Plan() {
		if p.Step == mafia.StepBestMove || (p.Step == mafia.StepLastWord && p.WithBestMove) {
			seat = p.Seat
			break
		}
	}
	targets, ok := b.src.bestMove[seat]
	if !ok || b.bmDone[seat] {
		return nil
	}
	b.bmDone[seat] = true
	return b.apply(record.Event{Event: mafia.BestMove(seat, targets...)}, b.src.bmWhere[seat])
}

func (b *builder) day(num int) error {
	noms := b.src.noms[num]
	used := map[int]bool{}
	for !b.eng.Finished() {
		n := b.next()
		if !n.Allowed.Has(mafia.EvSpeech) {
			break
		}
		s := planSeat(&n, mafia.EvSpeech)
		if s == 0 {
			break
		}
		if err := b.apply(record.Event{Event: mafia.Speech(s)}, fieldf("day %d", num)); err != nil {
			return err
		}
		if err := b.flush(slot{kind: slSpeechBefore, num: num, seat: s}); err != nil {
			return err
		}
		if nom, ok := noms[s]; ok && b.eng.Alive().Has(s) && !b.eng.Finished() {
			used[s] = true
			if err := b.apply(record.Event{Event: mafia.Nominate(s, nom.target)}, nom.where); err != nil {
				return err
			}
		}
		at := slot{kind: slSpeech, num: num, seat: s}
		if err := b.flush(at); err != nil {
			return err
		}
		if b.stopped(at) {
			return errStop
		}
	}
	for _, by := range sortedKeys(noms) {
		if !used[by] {
			return gameErr(noms[by].where, "day %d: seat %d nominated seat %d, but under %s he did not speak that day (not at the table, or the day was over)",
				num, by, noms[by].target, b.ruleSet())
		}
	}
	if b.eng.Finished() {
		return b.afterVoting(num)
	}
	at := slot{kind: slVotingStart, num: num}
	if err := b.flush(at); err != nil {
		return err
	}
	if b.stopped(at) {
		return errStop
	}
	if err := b.voting(num); err != nil {
		return err
	}
	return b.afterVoting(num)
}

func (b *builder) afterVoting(num int) error {
	at := slot{kind: slAfterVoting, num: num}
	if err := b.flush(at); err != nil {
		return err
	}
	if b.stopped(at) {
		return errStop
	}
	if b.eng.Finished() {
		return nil
	}
	return b.apply(record.Event{Event: mafia.Night()}, fieldf("the end of day %d", num))
}

// voting records the day's voting rounds and the lift vote, as the engine calls for them.
func (b *builder) voting(num int) error {
	rounds := b.src.rounds[num]
	where := b.src.roundsAt[num]
	k := 0
	for !b.eng.Finished() {
		n := b.next()
		if !n.Allowed.Has(mafia.EvVote) {
			break
		}
		votes := map[int]int(nil)
		if k < len(rounds) {
			votes = rounds[k]
		}
		if votes == nil {
			st := b.src.stop
			if st != nil && st.num == num && st.round == k && (st.kind == slRoundStart || st.kind == slBeforeVote) {
				votes = map[int]int{} // the unfinished game stops before these votes
			} else if k == 0 && n.Allowed.Has(mafia.EvNight) {
				break // C-36: the platform's missing vote says the list was still open
			} else {
				// a disqualification recorded before the first vote may cancel the voting
				if err := b.flush(slot{kind: slRoundStart, num: num, round: k}); err != nil {
					return err
				}
				if n.NCand > 0 {
					if err := b.flush(slot{kind: slBeforeVote, num: num, round: k, seat: int(n.Candidates[0])}); err != nil {
						return err
					}
				}
				if b.eng.Finished() || !b.next().Allowed.Has(mafia.EvVote) {
					break
				}
				return b.missingRound(num, k, &n)
			}
		}
		if err := b.round(num, k, votes, where); err != nil {
			return err
		}
		k++
	}
	lifted := false
	if !b.eng.Finished() && b.next().Allowed.Has(mafia.EvLift) {
		lifted = true
		if err := b.lift(num, k); err != nil {
			return err
		}
	}
	if f := b.src.lifts[num]; f.recorded && !lifted && len(f.yes) > 0 && b.src.stop == nil {
		return gameErr(f.where, "day %d: the platform recorded a vote on lifting the tied candidates, but under %s none is held (%s)",
			num, b.ruleSet(), b.votingState())
	}
	if k < len(rounds) {
		extraVotes := false
		for _, r := range rounds[k:] {
			if len(r) > 0 {
				extraVotes = true
			}
		}
		if extraVotes {
			return gameErr(where, "day %d: the platform recorded %d voting round(s), but under %s the voting ends after %d (%s)",
				num, len(rounds), b.ruleSet(), k, b.votingState())
		}
	}
	return nil
}

// votingState says in words where today's voting stands.
func (b *builder) votingState() Phrase {
	if b.eng.Finished() {
		return phrase("the game is over")
	}
	r := b.eng.Result()
	if len(r.Days) > 0 {
		d := r.Days[len(r.Days)-1]
		return phrase("the voting is %s", d.Voting)
	}
	return phrase("no voting")
}

func (b *builder) missingRound(num, k int, n *mafia.Next) error {
	var cands []int
	for _, c := range n.Candidates[:n.NCand] {
		cands = append(cands, int(c))
	}
	if k == 0 {
		return gameErr(fieldf("day %d", num), "under %s the nominated seats %v are voted on, but the platform recorded no votes that day",
			b.ruleSet(), cands)
	}
	return gameErr(fieldf("day %d", num), "under %s seats %v tied and are voted on again (round %d), but the platform recorded no such round",
		b.ruleSet(), cands, k+1)
}

// round records one voting round: each candidate in voting order with the hands raised against him.
func (b *builder) round(num, k int, votes map[int]int, where string) error {
	n := b.next()
	cands := make([]int, n.NCand)
	isCand := map[int]bool{}
	for i := range cands {
		cands[i] = int(n.Candidates[i])
		isCand[cands[i]] = true
	}
	rwhere := fieldf("%s (day %d, round %d)", where, num, k+1)
	for _, voter := range sortedKeys(votes) {
		c := votes[voter]
		vwhere := b.src.voteField(num, k, voter)
		if !isCand[c] {
			return gameErr(vwhere, "day %d, round %d: seat %d voted against seat %d, who is not a candidate in this round under %s (candidates %v)",
				num, k+1, voter, c, b.ruleSet(), cands)
		}
		if !b.eng.Alive().Has(voter) {
			return gameErr(vwhere, "day %d, round %d: seat %d voted, but under %s he is no longer at the table", num, k+1, voter, b.ruleSet())
		}
	}
	start := slot{kind: slRoundStart, num: num, round: k}
	if err := b.flush(start); err != nil {
		return err
	}
	if b.stopped(start) {
		return errStop
	}
	if nn := b.next(); !b.eng.Finished() && nn.Allowed.Has(mafia.EvVote) && nn.NCand > 0 && nn.NCand != len(cands) {
		// a tied candidate left before the re-vote, which restarts without him (fsm_dq_vote_effect off, C-22)
		cands = cands[:0]
		for _, c := range nn.Candidates[:nn.NCand] {
			cands = append(cands, int(c))
		}
	}
	cast := mafia.Seats(0)
	for i, c := range cands {
		at := slot{kind: slBeforeVote, num: num, round: k, seat: c}
		if err := b.flush(at); err != nil {
			return err
		}
		if b.stopped(at) {
			return errStop
		}
		nn := b.next()
		if b.eng.Finished() || !nn.Allowed.Has(mafia.EvVote) {
			// a disqualification cancelled the voting (R68); hands recorded after it do not count
			for _, v := range sortedKeys(votes) {
				if !cast.Has(v) && b.eng.Alive().Has(v) && !b.eng.Finished() {
					return gameErr(rwhere, "the voting was cancelled by a disqualification under %s, but the platform recorded seat %d's vote after it",
						b.ruleSet(), v)
				}
			}
			return nil
		}
		if want := planSeat(&nn, mafia.EvVote); want != c {
			return gameErr(rwhere, "under %s seat %d is voted on now, not seat %d", b.ruleSet(), want, c)
		}
		var voters mafia.Seats
		for v, t := range votes {
			if t == c {
				voters = voters.Add(v)
			}
		}
		last := i == len(cands)-1
		selfVote := b.src.options.CandidateSelfVote
		if voters.Has(c) && !last && !selfVote {
			return gameErr(b.src.voteField(num, k, c), "day %d, round %d: seat %d raised his hand against himself; under %s without candidate_self_vote a candidate never does (000 L105, C-03): a rule difference",
				num, k+1, c, b.ruleSet())
		}
		hands := voters
		if !selfVote || last {
			hands = hands.Remove(c) // the last candidate's own hand is also his default vote (R26, C-03)
		}
		ev := mafia.Vote(c, hands.List()...)
		if last {
			rest := b.eng.Alive() &^ cast
			missing := rest &^ voters
			if missing.Remove(c) != 0 {
				if b.src.options.DefaultVoteToLast {
					b.src.note("Day %d, round %d: the platform has no vote of seats %v; their vote goes to the last candidate, seat %d (the default vote, R26).",
						num, k+1, missing.Remove(c).List(), c)
				}
			}
			if b.src.dayVotes && missing != 0 {
				return gameErr(rwhere, "seats %v are at the table under %s, but the platform has no vote of theirs in this round", missing.List(), b.ruleSet())
			}
			if voters == rest || (missing == mafia.SeatsOf(c) && b.src.options.DefaultVoteToLast) {
				ev = mafia.VoteRest(c)
			}
		}
		if err := b.apply(record.Event{Event: ev}, rwhere); err != nil {
			return err
		}
		cast |= voters
		if last {
			cast = b.eng.Alive()
		}
	}
	return nil
}

// lift records the lift vote: as the platform recorded it, or, where it did not, the only vote that fits who
// left (all the tied, or none of them).
func (b *builder) lift(num, k int) error {
	// a speech before the lift (day1_respeech's leader) is recorded as the speech before round k+1
	speech := slot{kind: slRoundStart, num: num, round: k}
	if err := b.flush(speech); err != nil {
		return err
	}
	if b.stopped(speech) {
		return errStop
	}
	at := slot{kind: slBeforeLift, num: num}
	if err := b.flush(at); err != nil {
		return err
	}
	if b.stopped(at) {
		return errStop
	}
	n := b.next()
	if !n.Allowed.Has(mafia.EvLift) {
		return nil
	}
	var tied []int
	for _, c := range n.Candidates[:n.NCand] {
		tied = append(tied, int(c))
	}
	f := b.src.lifts[num]
	where := fieldf("day %d", num)
	if f.where != "" {
		where = f.where
	}
	if f.recorded {
		return b.apply(record.Event{Event: mafia.Lift(f.yes...)}, where)
	}
	if b.src.liftYesOnly {
		b.src.note("Day %d: the platform lists only the yes votes of a lift vote and lists none for the lift on seats %v: nobody voted yes.", num, tied)
		return b.apply(record.Event{Event: mafia.Lift()}, where)
	}
	left, stayed := 0, 0
	for _, s := range tied {
		e := b.src.expect[s]
		switch {
		case e.known && e.how == mafia.OutVoted && e.phase == mafia.PhaseDay && e.num == num:
			left++
		default:
			stayed++
		}
	}
	if left > 0 && stayed > 0 {
		return gameErr(where, "under %s the tied seats %v all leave or all stay by the lift vote, but the platform says only some of them left", b.ruleSet(), tied)
	}
	if left > 0 {
		yes := b.eng.Alive().List()
		b.src.note("Day %d: the platform did not record the vote on lifting the tied seats %v; they left, so the lift passed; its hands are not known and every player at the table is listed as yes.", num, tied)
		return b.apply(record.Event{Event: mafia.Lift(yes...), Reconstructed: true, Note: "synthesized: the platform did not record this vote"}, where)
	}
	b.src.note("Day %d: the platform did not record the vote on lifting the tied seats %v; they stayed, so the lift failed; its hands are not known and none is listed.", num, tied)
	return b.apply(record.Event{Event: mafia.Lift(), Reconstructed: true, Note: "synthesized: the platform did not record this vote"}, where)
}

// finish applies what comes after the end: a declared draw the platform records, a best move after a game-ending
// kill, the discipline recorded after the end, and point adjustments.
func (b *builder) finish(stopped bool) error {
	if !b.eng.Finished() {
		if b.src.finished && b.src.winner == mafia.Draw && b.eng.Rules().Draw == mafia.DrawDeclared {
			if err := b.apply(record.Event{Event: mafia.DeclareDraw()}, b.src.resultField); err != nil {
				return err
			}
			b.src.note("The platform records a draw; under %s a draw is declared by the host, recorded here after the last recorded event.", b.src.rules.ID)
		}
	}
	if b.eng.Finished() {
		if err := b.bestMove(); err != nil {
			return err
		}
	}
	var left []pending
	for _, p := range b.src.pend {
		if !b.done[p.seq] {
			left = append(left, p)
		}
	}
	sort.SliceStable(left, func(i, j int) bool {
		a, c := left[i].at.order(), left[j].at.order()
		for k := range a {
			if a[k] != c[k] {
				return a[k] < c[k]
			}
		}
		return left[i].seq < left[j].seq
	})
	for _, p := range left {
		if !b.eng.Finished() && p.at.kind != slEnd {
			return gameErr(p.where, "its moment (%s) never comes when the game replays under %s", p.at.phrase(), b.ruleSet())
		}
		b.done[p.seq] = true
		if err := b.applyPending(&p); err != nil {
			return err
		}
	}
	for _, a := range b.src.adjust {
		if err := b.apply(a, "points"); err != nil {
			return err
		}
	}
	for seat := range b.src.bestMove {
		if !b.bmDone[seat] {
			b.src.note("Seat %d named seats %v as black; it is not recorded as a best move: under %s he has no right to one (R55, R57).", seat, b.src.bestMove[seat], b.src.rules.ID)
		}
	}
	return nil
}

// verify compares the replayed game with the result the platform recorded.
func (b *builder) verify() error {
	g := b.eng
	if b.src.finished {
		if g.Winner() != b.src.winner {
			got := winnerText(g.Winner())
			if !g.Finished() {
				got = phrase("the game is not over")
			}
			return gameErr(b.src.resultField, "the platform says %s, but under %s %s", winnerText(b.src.winner), b.ruleSet(), got)
		}
	} else if g.Finished() {
		return gameErr(b.src.resultField, "the platform's game is unfinished, but under %s %s", b.ruleSet(), winnerText(g.Winner()))
	}
	for s := 1; s <= len(b.src.seats); s++ {
		e := b.src.expect[s]
		out := g.Out(s)
		where := fieldf("seat %d", s)
		if e.known {
			if out.How != e.how || out.Phase != e.phase || int(out.Number) != e.num {
				return gameErr(where, "the platform says he left %s; under %s %s", outText(e.how, e.phase, e.num), b.ruleSet(), outOf(out))
			}
		} else if b.src.expectAll() && out.How != mafia.NotOut {
			return gameErr(where, "the platform says he stayed to the end; under %s %s", b.ruleSet(), outOf(out))
		}
		if f := b.src.expFouls[s]; f >= 0 && g.Fouls(s) != f {
			return gameErr(where, "the platform records %d fouls; the replay has %d", f, g.Fouls(s))
		}
	}
	return nil
}

// expectAll says the platform records every departure, so a seat without one stayed.
func (g *game) expectAll() bool { return g.allDeaths && g.finished }

// outOf says in words where a seat stands: still at the table, or how and when he left.
func outOf(o mafia.Out) Phrase {
	if o.How == mafia.NotOut {
		return phrase("he is still at the table")
	}
	return phrase("he left %s", outText(o.How, o.Phase, int(o.Number)))
}

// outText says how and when a seat left: "by vote on day 2".
func outText(how mafia.OutHow, phase mafia.Phase, num int) Phrase {
	if phase == mafia.PhaseNight {
		return phrase("%s on night %d", howText(how), num)
	}
	return phrase("%s on day %d", howText(how), num)
}

func howText(h mafia.OutHow) Phrase {
	switch h {
	case mafia.OutVoted:
		return phrase("by vote")
	case mafia.OutKilled:
		return phrase("killed")
	case mafia.OutFouls:
		return phrase("by fouls")
	case mafia.OutDisqualified:
		return phrase("disqualified")
	case mafia.OutTeamLoss:
		return phrase("for his team's loss")
	}
	return phrase("in an unknown way")
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

// sportRules picks our rule set for a FIIM-lineage platform game: the club's own rule set (mafia.ClubRules), which
// plays the FIIM rules for 7 to 10 players, with the club's own extra points off (they are that club's, not the
// platform's) and a candidate's hand against himself counted, as FIIM tournaments count it (C-03).
func (g *game) sportRules() {
	g.useRules(mafia.ClubRules())
}

// useRules sets the rule set and, for the club's own rule set, the options that make it play another platform's
// FIIM-lineage game: club_extras off (R86-R94 are the club's points) and candidate_self_vote on (C-03: only the
// club forbids the hand; mafiaratings and Polemica count it).
func (g *game) useRules(r *mafia.Rules) {
	g.rules = r
	g.options = r.DefaultOptions()
	if r.Club {
		g.setOption("club_extras", false)
		g.setOption("candidate_self_vote", true)
	}
}

// optionNote says which options differ from the rule set's defaults (spec section 4), for the record's note.
func (g *game) optionNote() string {
	var diff []string
	for _, k := range g.rules.OptionKeys() {
		raw, ok := g.optJSON[k]
		if !ok {
			continue
		}
		info, _ := g.rules.Option(k)
		if def, _ := json.Marshal(info.Default.Bool); info.Kind != mafia.OptBool || info.Required || string(raw) != string(def) {
			diff = append(diff, k+" "+string(raw))
		}
	}
	if len(diff) == 0 {
		return fmt.Sprintf("Options: %s's defaults.", g.rules.ID)
	}
	return fmt.Sprintf("Options that differ from %s's defaults: %s.", g.rules.ID, strings.Join(diff, ", "))
}
