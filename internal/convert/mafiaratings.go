package convert

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// The mafiaratings.com game JSON (szotin/mafiaratings): rounds count from 0 (night 0 is the acquaintance night,
// day 0 the first day, night 1 the first shooting night); seats are the index in players plus one. The engine's
// night and day numbers are the round plus one.

// mrAllFeatures are the letters of "features" (which details the record holds) assumed when it is absent.
const mrAllFeatures = "agsdutclhvknwr"

// mrExt is the "mafiaclub" field our export adds: what the platform's JSON cannot say, so that importing an
// exported record gives the same game. The platform ignores it.
type mrExt struct {
	Rules      string                     `json:"rules"`
	Options    map[string]json.RawMessage `json:"options,omitempty"`
	Players    []string                   `json:"players,omitempty"`
	Adjust     []mrExtAdjust              `json:"adjust,omitempty"`
	Discipline []mrExtDiscipline          `json:"discipline,omitempty"`
	Checks     []mrExtCheck               `json:"checks,omitempty"`
	Lifts      []mrExtLift                `json:"lifts,omitempty"`
	Extra      map[string]json.RawMessage `json:"extra,omitempty"`
	// What mafiaratings' own check (Game::check in their include/game.php) would change or drop in the
	// platform's fields, kept here instead (testdata/mafiaratings-check/README.md).
	Legacy     []mrExtLegacy     `json:"legacy,omitempty"`
	Voting     []mrExtVoting     `json:"voting,omitempty"`
	Nominating []mrExtNominating `json:"nominating,omitempty"`
	Times      []mrExtTime       `json:"times,omitempty"`
	// VotingRounds are the voting rounds begun on a day whose voting did not come to its result, hands or none
	// (a round may stop before any hand was raised).
	VotingRounds []mrExtRounds `json:"votingRounds,omitempty"`
	// Order is the record's order of the fouls, warnings and departures by discipline where the platform's
	// fields, player by player, give another: the position of each in the order they are read (each seat's
	// warnings, then his departure, seat by seat, then Discipline).
	Order []int `json:"order,omitempty"`
}

// mrExtLegacy is a best move their check allows only to the victim of the first shooting night (a later night
// victim's under bm_first_kill_any_night).
type mrExtLegacy struct {
	Seat    int   `json:"seat"`
	Targets []int `json:"targets"`
}

// mrExtVoting is one player's votes of a day whose voting did not come to its result (a disqualification
// cancelled it, R68, or the game ended during it), in the form of the platform's players[].voting[round]: their
// check takes a voting with hands for one that was held.
type mrExtVoting struct {
	Round  int             `json:"round"`
	Seat   int             `json:"seat"`
	Voting json.RawMessage `json:"voting"`
}

// mrExtRounds says that Rounds voting rounds of the platform's round Round were begun.
type mrExtRounds struct {
	Round  int `json:"round"`
	Rounds int `json:"rounds"`
}

// mrExtNominating is a nomination of a day that has no votes where their check wants them (day1_no_vote, a
// draw declared before the voting, a vote cancelled in a way their rules do not know).
type mrExtNominating struct {
	Round  int `json:"round"`
	By     int `json:"by"`
	Target int `json:"target"`
}

// mrExtTime is the exact moment of a seat's foul (Warning, from 0) or departure (Death) where the platform's
// fields hold the nearest moment their check accepts: the end of a day that left nobody with a last word
// (written as the next night's start, as their own client does), a departure during the speeches of a day
// whose speaking order theirs does not know (opener_follows_night_victim), a black removed after the night's
// shots whose own shot the kill did not need.
type mrExtTime struct {
	Seat    int             `json:"seat"`
	Warning *int            `json:"warning,omitempty"`
	Death   bool            `json:"death,omitempty"`
	Time    json.RawMessage `json:"time"`
}

type mrExtAdjust struct {
	Seat   int             `json:"seat"`
	Points json.RawMessage `json:"points"`
	Reason string          `json:"reason,omitempty"`
}

// mrExtDiscipline is a warning (sport rule sets count them) or a disqualification of a player already out (a
// penalty only), at its moment in the platform's game time form.
type mrExtDiscipline struct {
	Type   string          `json:"type"`
	Seat   int             `json:"seat"`
	Time   json.RawMessage `json:"time"`
	Reason string          `json:"reason,omitempty"`
}

// mrExtCheck is a check the per-player "don"/"sheriff" fields cannot hold (a player checked twice by the same
// role). Night is the platform's round.
type mrExtCheck struct {
	Night  int `json:"night"`
	By     int `json:"by"`
	Target int `json:"target"`
}

// mrExtLift is a recorded lift vote of a game whose export leaves out the kill-all votes because another of its
// lift votes was reconstructed ("k" says for the whole game whether they are recorded). Round is the platform's.
type mrExtLift struct {
	Round int   `json:"round"`
	Yes   []int `json:"yes"`
}

// mrRules are the digits of the platform's 13-digit rules code (szotin/mafiaratings include/rules.php).
type mrRules struct {
	code                                                              string
	rotation, firstVoting, splitOrder, killAll, splitOnFour, splitOn9 int
	legacy, threeFouls, techFouls                                     int
}

// mrUpgradeRules brings an older rules code to the 13-digit form, as the platform itself does.
func mrUpgradeRules(c string) string {
	if len(c) == 29 {
		c = c[:20]
		c = c[:17] + c[19:]
		c = c[:12] + c[15:]
		c = c[:9] + c[10:]
		c = c[:6] + c[8:]
		c = c[:4] + c[5:]
		c = c[:1] + c[3:]
		c = c[:2] + "00" + c[2:]
		c = c[:6] + "0" + c[6:]
		c = c[:9] + "0" + c[9:]
	}
	if len(c) == 12 {
		c = c[:11] + "00" + c[11:]
	}
	if len(c) == 14 {
		c = c[:13]
	}
	return c
}

func parseMRRules(code string) (mrRules, error) {
	c := mrUpgradeRules(code)
	if len(c) != 13 {
		return mrRules{}, inputErr("rules", "%q is not a rules code of 13 digits", code)
	}
	d := make([]int, 13)
	for i := range d {
		if c[i] < '0' || c[i] > '9' {
			return mrRules{}, inputErr("rules", "%q is not a rules code of 13 digits", code)
		}
		d[i] = int(c[i] - '0')
	}
	return mrRules{code: c, rotation: d[0], firstVoting: d[4], splitOrder: d[5], killAll: d[6], splitOnFour: d[7],
		splitOn9: d[8], legacy: d[9], threeFouls: d[11], techFouls: d[12]}, nil
}

// ImportMafiaratings converts one mafiaratings game JSON to our record.
func ImportMafiaratings(data []byte) (*Imported, error) {
	g, err := parseMafiaratings(data)
	if err != nil {
		return nil, err
	}
	return g.build()
}

func parseMafiaratings(data []byte) (*game, error) {
	top, err := decodeObject(data, "")
	if err != nil {
		return nil, err
	}
	rawPlayers, ok := top["players"]
	if !ok || isNull(rawPlayers) {
		return nil, inputErr("players", "missing")
	}
	plist, err := listOf(rawPlayers, "players")
	if err != nil {
		return nil, err
	}
	n := len(plist)
	if n != 10 {
		return nil, inputErr("players", "%d players; a mafiaratings game has 10", n)
	}
	g := newGame("mafiaratings", n)
	g.voteField = func(day, round, voter int) string {
		return fieldf("players[%d] (seat %d).voting[%d]", voter-1, voter, day-1)
	}
	features := mrAllFeatures
	if present(top, "features") {
		if features, err = strOf(top["features"], "features"); err != nil {
			return nil, err
		}
	}
	has := func(letter byte) bool { return strings.IndexByte(features, letter) >= 0 }
	g.allDeaths = has('d') && has('u') && has('t')

	var ext *mrExt
	if present(top, "mafiaclub") {
		ext = &mrExt{}
		if err := json.Unmarshal(top["mafiaclub"], ext); err != nil {
			return nil, inputErr("mafiaclub", "not the field our export writes: %v", jsonProblem(err))
		}
	}
	players := make([]map[string]json.RawMessage, n)
	for i, raw := range plist {
		if players[i], err = objOf(raw, fieldf("players[%d]", i)); err != nil {
			return nil, err
		}
	}
	if ext != nil {
		if err := mrExtTimes(ext, players); err != nil {
			return nil, err
		}
	}
	// seats
	g.seats = make([]record.Seat, n)
	for i, p := range players {
		where := fieldf("players[%d] (seat %d)", i, i+1)
		s := record.Seat{Seat: i + 1, Role: mafia.Citizen, Name: fmt.Sprintf("Seat %d", i+1)}
		if present(p, "name") {
			name, err := strOf(p["name"], where+".name")
			if err != nil {
				return nil, err
			}
			if strings.TrimSpace(name) != "" {
				s.Name = name
			}
		}
		if present(p, "role") {
			r, err := strOf(p["role"], where+".role")
			if err != nil {
				return nil, err
			}
			switch r {
			case "civ":
			case "sheriff":
				s.Role = mafia.Sheriff
			case "maf":
				s.Role = mafia.Mafia
			case "don":
				s.Role = mafia.Don
			default:
				return nil, inputErr(where+".role", "unknown role %q (civ, sheriff, maf, don)", r)
			}
		}
		if present(p, "id") {
			id, err := intOf(p["id"], where+".id")
			if err != nil {
				return nil, err
			}
			s.Player = "mafiaratings:" + strconv.Itoa(id)
		}
		if ext != nil && i < len(ext.Players) {
			s.Player = ext.Players[i]
		}
		g.seats[i] = s
	}

	// the rule set
	code := "0000000000000"
	if present(top, "rules") {
		if code, err = strOf(top["rules"], "rules"); err != nil {
			return nil, err
		}
	}
	rules, err := parseMRRules(code)
	if err != nil {
		return nil, err
	}
	if ext != nil {
		if err := g.extRules(ext); err != nil {
			return nil, err
		}
	} else if err := g.mrRules(rules); err != nil {
		return nil, err
	}
	if g.rules.ValidateRoles(seatRoles(g.seats)) != nil {
		return nil, rolesErr(g.rules, g.seats)
	}

	// the result
	if present(top, "winner") {
		w, err := strOf(top["winner"], "winner")
		if err != nil {
			return nil, err
		}
		switch w {
		case "civ":
			g.winner = mafia.RedWins
		case "maf":
			g.winner = mafia.BlackWins
		case "tie":
			g.winner = mafia.Draw
		default:
			return nil, inputErr("winner", "unknown winner %q (civ, maf, tie)", w)
		}
		g.finished = true
	} else {
		if !present(top, "time") {
			return nil, inputErr("winner", "missing, and no \"time\" says where the unfinished game stopped")
		}
		t, err := objOf(top["time"], "time")
		if err != nil {
			return nil, err
		}
		at, err := mrStop(t, n)
		if err != nil {
			return nil, err
		}
		g.stop = &at
		g.touch(at.num)
		g.note("The game is unfinished; it stops at %s.", at)
	}
	if g.winner == mafia.Draw && present(top, "time") {
		t, err := objOf(top["time"], "time")
		if err != nil {
			return nil, err
		}
		at, err := mrStop(t, n)
		if err != nil {
			return nil, err
		}
		g.stop = &at
		g.touch(at.num)
	}

	// the players' facts
	for i, p := range players {
		if err := g.mrPlayer(i+1, p, has, rules); err != nil {
			return nil, err
		}
	}
	if ext != nil {
		if err := g.mrExtFacts(ext); err != nil {
			return nil, err
		}
		if err := g.mrExtMoved(ext, has); err != nil {
			return nil, err
		}
		if err := g.mrExtOrder(ext); err != nil {
			return nil, err
		}
	}
	if !has('n') {
		g.note("The platform did not record nominations.")
	}
	if ext == nil && rules.firstVoting != 0 && len(g.rounds[1]) > 0 { // with our field, its rule set decides
		return nil, gameErr("rules", "day 1 was voted under the platform's first-day rule %d (7.16), which keeps the winner at the table; no rule set of ours has it: a rule difference",
			rules.firstVoting)
	}

	// carried fields
	if present(top, "id") {
		id, err := intOf(top["id"], "id")
		if err != nil {
			return nil, err
		}
		g.extra["id"], _ = json.Marshal("mafiaratings:" + strconv.Itoa(id))
	}
	if present(top, "startTime") {
		st, err := intOf(top["startTime"], "startTime")
		if err != nil {
			return nil, err
		}
		g.extra["started"], _ = json.Marshal(time.Unix(int64(st), 0).UTC().Format(time.RFC3339))
	}
	var carried mrCarried
	for _, f := range []struct {
		key string
		dst *int
	}{{"clubId", &carried.ClubID}, {"eventId", &carried.EventID}} {
		if present(top, f.key) {
			if *f.dst, err = intOf(top[f.key], f.key); err != nil {
				return nil, err
			}
		}
	}
	if present(top, "moderator") {
		m, err := objOf(top["moderator"], "moderator")
		if err != nil {
			return nil, err
		}
		if present(m, "id") {
			if carried.Moderator, err = intOf(m["id"], "moderator.id"); err != nil {
				return nil, err
			}
		}
	}
	if present(top, "language") {
		if carried.Language, err = strOf(top["language"], "language"); err != nil {
			return nil, err
		}
	}
	if carried != (mrCarried{}) {
		g.extra["mafiaratings"], _ = json.Marshal(carried)
	}
	if present(top, "endTime") {
		et, err := intOf(top["endTime"], "endTime")
		if err != nil {
			return nil, err
		}
		g.extra["ended"], _ = json.Marshal(time.Unix(int64(et), 0).UTC().Format(time.RFC3339))
	}
	if present(top, "tournamentId") {
		g.extra["tournament"] = json.RawMessage(strings.TrimSpace(string(top["tournamentId"])))
	}
	if ext != nil {
		for k, v := range ext.Extra {
			if k != "note" {
				g.extra[k] = v
			}
		}
	}
	g.extra["source"], _ = json.Marshal("mafiaratings")
	return g, nil
}

func seatRoles(seats []record.Seat) []mafia.Role {
	out := make([]mafia.Role, len(seats))
	for i, s := range seats {
		out[i] = s.Role
	}
	return out
}

// mrRules chooses our rule set for the platform's rules code.
func (g *game) mrRules(r mrRules) error {
	if r.rotation != 0 {
		return gameErr("rules", "the platform's rotation rule 6.3.2 (the day opens so that the last speaker moves on) is not a rule of ours; our rule sets open with the seat after the previous opener (R16, C-01): a rule difference")
	}
	if r.techFouls != 0 {
		return gameErr("rules", "the platform counts technical fouls (9.6.2); no rule set of ours does: a rule difference")
	}
	g.sportRules()
	g.setOption("xcraft_7_6_two_of_four_no_lift", r.splitOnFour == 1)
	g.setOption("xcraft_7_8_short_speech", r.threeFouls == 0)
	g.note("%s", fmt.Sprintf("Imported from mafiaratings (rules code %s). Rule set %s: the platform's FIIM rules as that code sets them match it "+
		"(the day opens with the seat after the previous opener, R16/C-01; the non-voter's vote goes to the last candidate, R26; "+
		"a repeated tie goes to a lift vote, never one covering everyone at the table, R35/C-09; the first night victim makes the best move unless two left on day 1, C-07; "+
		"4 fouls remove a player, R64); nights and days are numbered ours, the platform's round plus one; club_extras off (the club's own points, not the platform's); "+
		"candidate_self_vote on (FIIM tournaments count a candidate's hand against himself, C-03); "+
		"xcraft_7_6_two_of_four_no_lift %v (splitOnFour %d); xcraft_7_8_short_speech %v (threeFouls %d).",
		r.code, g.rules.ID, r.splitOnFour == 1, r.splitOnFour, r.threeFouls == 0, r.threeFouls))
	if r.firstVoting != 0 {
		g.note("The platform's first-day rule %d (7.16: the winner of the day-1 vote does not simply leave) is not ours; it matters only if day 1 was voted.", r.firstVoting)
	}
	if r.splitOn9 != 0 {
		g.note("The platform holds no lift vote when 3 of 9 tie twice (splitOnNine); fiim-2025-club holds one, so such a vote, if any, is recorded as failed: the same outcome.")
	}
	if r.splitOrder != 0 {
		g.note("The platform re-votes in reverse order (splitOrder); every hand is recorded, so the counts are the same in our nomination order.")
	}
	if r.threeFouls == 1 {
		g.note("Under the platform's rules 3 fouls shorten the next speech to 30 s instead of losing it; speech lengths are not part of the record.")
	}
	if r.legacy != 0 {
		g.note("The platform's rules record no best move (legacy 8.17.2).")
	}
	g.note("Speech events are synthesized in the rule set's speaking order (the platform records none); nominations follow it.")
	return nil
}

// extRules takes the rule set and options our export wrote.
func (g *game) extRules(ext *mrExt) error {
	rec, err := record.New(ext.Rules, ext.Options, g.seats, nil, nil)
	if err != nil {
		if _, ok := mafia.RuleSet(ext.Rules); !ok {
			return inputErr("mafiaclub.rules", "unknown rule set %q", ext.Rules)
		}
		return inputErr("mafiaclub.options", "the options do not fit %s: %v", RuleSet(ext.Rules), err)
	}
	g.rules, g.options, g.optJSON = rec.Rules, rec.Options, rec.OptionJSON
	g.note("%s", fmt.Sprintf("Imported from a mafiaratings game exported by mafiaclub; rule set %s and its options as the export recorded them.", ext.Rules))
	return nil
}

// mrSlot reads the platform's game time object ({round, time, speaker, nominee, votingRound}) as a moment.
func mrSlot(t map[string]json.RawMessage, n int, where string) (slot, error) {
	if !present(t, "round") {
		return slot{}, inputErr(where+".round", "missing")
	}
	r, err := intOf(t["round"], where+".round")
	if err != nil {
		return slot{}, err
	}
	if r < 0 || r > 50 {
		return slot{}, inputErr(where+".round", "round %d is out of range", r)
	}
	if !present(t, "time") {
		return slot{}, inputErr(where+".time", "missing")
	}
	tm, err := strOf(t["time"], where+".time")
	if err != nil {
		return slot{}, err
	}
	num := r + 1
	seatField := func(keys ...string) (int, bool, error) {
		for _, k := range keys {
			if present(t, k) {
				s, err := seatOf(t[k], n, where+"."+k)
				return s, true, err
			}
		}
		return 0, false, nil
	}
	switch tm {
	case "start", "arrangement", "relaxed sitting", "night start":
		return slot{kind: slNightStart, num: num}, nil
	case "shooting":
		return slot{kind: slAfterShots, num: num}, nil
	case "don":
		return slot{kind: slAfterDon, num: num}, nil
	case "sheriff":
		return slot{kind: slAfterSheriff, num: num}, nil
	case "day start", "night kill speaking":
		return slot{kind: slMorning, num: num}, nil
	case "speaking":
		s, ok, err := seatField("speaker")
		if err != nil {
			return slot{}, err
		}
		if !ok {
			return slot{}, inputErr(where+".speaker", "missing (a \"speaking\" time names the speaker)")
		}
		if b, ok := boolOf(t["beforeNomination"]); ok && b {
			return slot{kind: slSpeechBefore, num: num, seat: s}, nil
		}
		return slot{kind: slSpeech, num: num, seat: s}, nil
	case "voting start":
		return slot{kind: slVotingStart, num: num}, nil
	case "voting":
		k := 0
		if present(t, "votingRound") {
			if k, err = intOf(t["votingRound"], where+".votingRound"); err != nil {
				return slot{}, err
			}
			if k < 0 || k > 20 {
				return slot{}, inputErr(where+".votingRound", "%d is out of range", k)
			}
		}
		s, ok, err := seatField("nominee", "nominant")
		if err != nil {
			return slot{}, err
		}
		if ok {
			return slot{kind: slBeforeVote, num: num, round: k, seat: s}, nil
		}
		sp, _, err := seatField("speaker") // a tie speech before the re-vote
		if err != nil {
			return slot{}, err
		}
		return slot{kind: slRoundStart, num: num, round: k, who: sp}, nil
	case "voting kill all":
		return slot{kind: slBeforeLift, num: num}, nil
	case "day kill speaking":
		sp, _, err := seatField("speaker")
		if err != nil {
			return slot{}, err
		}
		return slot{kind: slAfterVoting, num: num, who: sp}, nil
	case "end":
		return slot{kind: slEnd}, nil
	}
	return slot{}, inputErr(where+".time", "unknown game time %q", tm)
}

// mrStop reads the time where an unfinished game stops (or a draw was declared): a night stops before its
// "day", a speech after the speaker's nomination.
func mrStop(t map[string]json.RawMessage, n int) (slot, error) {
	at, err := mrSlot(t, n, "time")
	if err != nil {
		return slot{}, err
	}
	at = at.at()
	switch {
	case at.kind == slEnd:
		return slot{}, inputErr("time", "an unfinished game cannot stop at its end")
	case at.kind < slMorning:
		at.kind = slAfterSheriff
	case at.kind == slSpeechBefore:
		at.kind = slSpeech
	}
	return at, nil
}

func slotPhase(s slot) mafia.Phase {
	if s.kind < slMorning {
		return mafia.PhaseNight
	}
	return mafia.PhaseDay
}

// mrVotes reads one day's votes of one player: a seat, or a list of seats
// (one per voting round) that may end with a kill-all true/false.
func (g *game) mrVotes(seat, r int, raw json.RawMessage, w string, has func(byte) bool) error {
	n, day := len(g.seats), r+1
	var votes []json.RawMessage
	var err error
	if strings.HasPrefix(strings.TrimSpace(string(raw)), "[") {
		if votes, err = listOf(raw, w); err != nil {
			return err
		}
		if len(votes) > 20 {
			return inputErr(w, "%d voting rounds is too many", len(votes))
		}
	} else {
		votes = []json.RawMessage{raw}
	}
	for k, v := range votes {
		if b, ok := boolOf(v); ok {
			if k != len(votes)-1 {
				return inputErr(fieldf("%s[%d]", w, k), "a kill-all vote (true/false) comes last")
			}
			if has('k') {
				f := g.lifts[day]
				f.recorded = true
				f.where = fieldf("players[].voting[%d] (kill-all votes)", r)
				if b {
					f.yes = append(f.yes, seat)
				}
				g.lifts[day] = f
			}
			continue
		}
		if isNull(v) {
			continue
		}
		t, err := seatOf(v, n, fieldf("%s[%d]", w, k))
		if err != nil {
			if len(votes) == 1 {
				t, err = seatOf(v, n, w)
			}
			if err != nil {
				return inputErr(w, "must be a seat, a list of seats (one per voting round, then an optional kill-all true/false) or null, not %s", short(raw))
			}
		}
		for len(g.rounds[day]) <= k {
			g.rounds[day] = append(g.rounds[day], nil)
		}
		if g.rounds[day][k] == nil {
			g.rounds[day][k] = map[int]int{}
		}
		g.rounds[day][k][seat] = t
		g.roundsAt[day] = fieldf("players[].voting[%d]", r)
		g.touch(day)
	}
	return nil
}

// eachRound reads p[key], a list with one entry per day or night, and calls
// each for the entries that are not null, with the entry's field name.
func eachRound(p map[string]json.RawMessage, key, where, unit string, each func(i int, raw json.RawMessage, w string) error) error {
	if !present(p, key) {
		return nil
	}
	field := where + "." + key
	list, err := listOf(p[key], field)
	if err != nil {
		return err
	}
	if len(list) > 50 {
		if unit == "nights" {
			return inputErr(field, "%d nights is too many", len(list))
		}
		return inputErr(field, "%d rounds is too many", len(list))
	}
	for i, raw := range list {
		if isNull(raw) {
			continue
		}
		if err := each(i, raw, fieldf("%s[%d]", field, i)); err != nil {
			return err
		}
	}
	return nil
}

// mrPlayer reads one player's facts.
func (g *game) mrPlayer(seat int, p map[string]json.RawMessage, has func(byte) bool, rules mrRules) error {
	n := len(g.seats)
	where := fieldf("players[%d] (seat %d)", seat-1, seat)
	role := g.seats[seat-1].Role
	// nominations, one per day
	err := eachRound(p, "nominating", where, "rounds", func(r int, raw json.RawMessage, w string) error {
		t, err := seatOf(raw, n, w)
		if err != nil {
			return err
		}
		day := r + 1
		if g.noms[day] == nil {
			g.noms[day] = map[int]nomination{}
		}
		g.noms[day][seat] = nomination{target: t, where: w}
		g.touch(day)
		return nil
	})
	if err != nil {
		return err
	}
	// votes, one entry per day
	err = eachRound(p, "voting", where, "rounds", func(r int, raw json.RawMessage, w string) error {
		return g.mrVotes(seat, r, raw, w, has)
	})
	if err != nil {
		return err
	}
	// shots, one per shooting night (the first is night 2)
	if present(p, "shooting") && role.Team() != mafia.Black {
		return inputErr(where+".shooting", "seat %d is red and does not shoot", seat)
	}
	err = eachRound(p, "shooting", where, "nights", func(i int, raw json.RawMessage, w string) error {
		t, err := seatOf(raw, n, w)
		if err != nil {
			return err
		}
		night := i + 2
		g.shots[night] = append(g.shots[night], shotFact{by: seat, target: t, where: w})
		g.touch(night)
		return nil
	})
	if err != nil {
		return err
	}
	// checks of this player
	for _, k := range []string{"don", "sheriff"} {
		if !present(p, k) {
			continue
		}
		w := where + "." + k
		r, err := intOf(p[k], w)
		if err != nil {
			return err
		}
		if r < 1 || r > 50 {
			return inputErr(w, "night %d: checks are made from night 1 (the first shooting night)", r)
		}
		night := r + 1
		c := checkFact{target: seat, where: w}
		if k == "don" {
			g.donCheck[night] = append(g.donCheck[night], c)
		} else {
			g.sherCheck[night] = append(g.sherCheck[night], c)
		}
		g.touch(night)
	}
	// best move
	if present(p, "legacy") {
		w := where + ".legacy"
		raw := p["legacy"]
		if !strings.HasPrefix(strings.TrimSpace(string(raw)), "[") {
			g.note("Seat %d's best move is recorded only as a count (simplified legacy); it is not part of the record.", seat)
		} else if rules.legacy == 0 {
			list, err := listOf(raw, w)
			if err != nil {
				return err
			}
			if len(list) == 0 || len(list) > 3 {
				return inputErr(w, "a best move names 1 to 3 seats, not %d", len(list))
			}
			var targets []int
			for i, v := range list {
				t, err := seatOf(v, n, fieldf("%s[%d]", w, i))
				if err != nil {
					return err
				}
				for _, o := range targets {
					if o == t {
						return inputErr(w, "seat %d is named twice", t)
					}
				}
				targets = append(targets, t)
			}
			g.bestMove[seat] = targets
			g.bmWhere[seat] = w
		}
	}
	// fouls
	fouls := 0
	var fourth *slot
	if present(p, "warnings") {
		w := where + ".warnings"
		raw := p["warnings"]
		if !strings.HasPrefix(strings.TrimSpace(string(raw)), "[") {
			c, err := intOf(raw, w)
			if err != nil || c < 0 || c > 10 {
				return inputErr(w, "must be a list of fouls or their count, not %s", short(raw))
			}
			for i := 0; i < c; i++ {
				g.addPending(slot{kind: slEnd}, record.Event{Event: mafia.Foul(seat)}, w)
			}
			if c > 0 {
				g.note("Seat %d's fouls carry no moment; they are recorded after the end.", seat)
			}
			fouls = c
		} else {
			list, err := listOf(raw, w)
			if err != nil {
				return err
			}
			if len(list) > 10 {
				return inputErr(w, "%d fouls is too many", len(list))
			}
			for i, item := range list {
				wi := fieldf("%s[%d]", w, i)
				at := slot{kind: slEnd}
				if !isNull(item) {
					t, err := objOf(item, wi)
					if err != nil {
						return err
					}
					if at, err = mrSlot(t, n, wi); err != nil {
						return err
					}
				} else {
					g.note("Seat %d's foul %d carries no moment; it is recorded after the end.", seat, i+1)
				}
				if i == 3 {
					a := at
					fourth = &a
				}
				g.addPending(at, record.Event{Event: mafia.Foul(seat)}, wi)
			}
			fouls = len(list)
		}
	}
	if has('w') {
		g.expFouls[seat] = fouls
	}
	// departure
	if present(p, "death") {
		w := where + ".death"
		d, err := objOf(p["death"], w)
		if err != nil {
			return err
		}
		typ := ""
		if present(d, "type") {
			if typ, err = strOf(d["type"], w+".type"); err != nil {
				return err
			}
		}
		round := -1
		if present(d, "round") {
			if round, err = intOf(d["round"], w+".round"); err != nil {
				return err
			}
			if round < 0 || round > 50 {
				return inputErr(w+".round", "round %d is out of range", round)
			}
		}
		var at *slot
		if present(d, "time") {
			t, err := objOf(d["time"], w+".time")
			if err != nil {
				return err
			}
			s, err := mrSlot(t, n, w+".time")
			if err != nil {
				return err
			}
			at = &s
		}
		e := expectOut{known: round >= 0 && typ != "", num: round + 1}
		switch typ {
		case "day":
			e.how, e.phase = mafia.OutVoted, mafia.PhaseDay
		case "night":
			e.how, e.phase = mafia.OutKilled, mafia.PhaseNight
			if round == 0 {
				return inputErr(w, "nobody is shot on night 0")
			}
		case "warnings":
			e.how = mafia.OutFouls
			if at == nil {
				at = fourth
			}
			if at == nil {
				e.known = false
			} else {
				e.phase, e.num = slotPhase(*at), at.num
			}
		case "kickOut", "giveUp", "teamKickOut":
			if at == nil {
				return gameErr(w, "seat %d left (%s), but the platform did not record when; the moment decides what it does to the voting (R68, R69)", seat, typ)
			}
			e.how = mafia.OutDisqualified
			ev := record.Event{Event: mafia.Disqualify(seat), Reason: typ}
			if typ == "teamKickOut" {
				e.how = mafia.OutTeamLoss
				ev = record.Event{Event: mafia.TeamLoss(seat), Reason: typ}
			}
			if typ == "giveUp" {
				g.note("Seat %d gave up (left the table), recorded as a disqualification (000 L143).", seat)
			}
			e.phase, e.num = slotPhase(*at), at.num
			g.addPending(*at, ev, w)
		case "techFouls":
			return gameErr(w, "seat %d was removed for technical fouls; no rule set of ours has them: a rule difference", seat)
		case "":
			e.known = false
		default:
			return inputErr(w+".type", "unknown death type %q (day, night, warnings, kickOut, teamKickOut, giveUp)", typ)
		}
		if !has('d') || !has('u') || !has('t') {
			e.known = false
		}
		g.expect[seat] = e
		if e.known {
			g.touch(e.num)
		}
	}
	// points
	if present(p, "bonus") {
		g.mrBonus(seat, p)
	}
	return nil
}

func (g *game) mrBonus(seat int, p map[string]json.RawMessage) {
	raw := p["bonus"]
	if h, err := record.Hundredths(raw); err == nil {
		if h == 0 {
			return
		}
		if steps := g.rules.AdjustSteps(); steps != nil && !slices.Contains(steps, h) {
			g.note("Seat %d's bonus of %s points is not recorded: %s adjusts in steps of 0.1, 0.3 or 0.5 (R84).", seat, record.FormatPoints(h), g.rules.ID)
			return
		}
		ev := record.Event{Event: mafia.Adjust(seat, h), Reason: "mafiaratings bonus"}
		if present(p, "comment") {
			if c, err := strOf(p["comment"], ""); err == nil && c != "" {
				ev.Reason = c
			}
		}
		g.adjust = append(g.adjust, ev)
		return
	}
	g.note("Seat %d's title %s is not part of the record.", seat, short(raw))
}

// mrExtFacts adds what our export carried beside the platform's fields.
func (g *game) mrExtFacts(ext *mrExt) error {
	n := len(g.seats)
	g.adjust = nil // the export carries the exact adjustments
	for i, a := range ext.Adjust {
		w := fieldf("mafiaclub.adjust[%d]", i)
		if a.Seat < 1 || a.Seat > n {
			return inputErr(w, "seat %d does not exist", a.Seat)
		}
		h, err := record.Hundredths(a.Points)
		if err != nil {
			return inputErr(w+".points", "must be points with at most two decimals, not %s", short(a.Points))
		}
		g.adjust = append(g.adjust, record.Event{Event: mafia.Adjust(a.Seat, h), Reason: a.Reason})
	}
	for i, d := range ext.Discipline {
		w := fieldf("mafiaclub.discipline[%d]", i)
		if d.Seat < 1 || d.Seat > n {
			return inputErr(w, "seat %d does not exist", d.Seat)
		}
		t, err := objOf(d.Time, w+".time")
		if err != nil {
			return err
		}
		at, err := mrSlot(t, n, w+".time")
		if err != nil {
			return err
		}
		var ev mafia.Event
		switch d.Type {
		case "warning":
			ev = mafia.Warning(d.Seat)
		case "disqualify":
			ev = mafia.Disqualify(d.Seat)
		case "foul":
			ev = mafia.Foul(d.Seat)
		case "team_loss":
			ev = mafia.TeamLoss(d.Seat)
		default:
			return inputErr(w+".type", "unknown type %q", d.Type)
		}
		g.addPending(at, record.Event{Event: ev, Reason: d.Reason}, w)
	}
	for i, l := range ext.Lifts {
		w := fieldf("mafiaclub.lifts[%d]", i)
		if l.Round < 0 || l.Round > 50 {
			return inputErr(w, "not a day of this game")
		}
		for _, s := range l.Yes {
			if s < 1 || s > n {
				return inputErr(w, "seat %d does not exist", s)
			}
		}
		g.lifts[l.Round+1] = liftFact{recorded: true, yes: l.Yes, where: w}
	}
	for i, c := range ext.Checks {
		w := fieldf("mafiaclub.checks[%d]", i)
		if c.By < 1 || c.By > n || c.Target < 1 || c.Target > n || c.Night < 1 || c.Night > 50 {
			return inputErr(w, "not a check of this table")
		}
		f := checkFact{by: c.By, target: c.Target, where: w}
		night := c.Night + 1
		if g.seats[c.By-1].Role == mafia.Don {
			g.donCheck[night] = append(g.donCheck[night], f)
		} else {
			g.sherCheck[night] = append(g.sherCheck[night], f)
		}
		g.touch(night)
	}
	return nil
}

// mrExtTimes puts back the exact moments our export kept in its field where the platform's fields hold the
// nearest one their check accepts, before the players' facts are read.
func mrExtTimes(ext *mrExt, players []map[string]json.RawMessage) error {
	for i, t := range ext.Times {
		w := fieldf("mafiaclub.times[%d]", i)
		if t.Seat < 1 || t.Seat > len(players) {
			return inputErr(w, "seat %d does not exist", t.Seat)
		}
		p := players[t.Seat-1]
		if _, err := objOf(t.Time, w+".time"); err != nil {
			return err
		}
		if t.Warning != nil {
			var list []json.RawMessage
			if present(p, "warnings") {
				list, _ = listOf(p["warnings"], "")
			}
			if *t.Warning < 0 || *t.Warning >= len(list) {
				return inputErr(w, "seat %d has no foul %d", t.Seat, *t.Warning+1)
			}
			list[*t.Warning] = t.Time
			p["warnings"], _ = json.Marshal(list)
		}
		if t.Death {
			if !present(p, "death") {
				return inputErr(w, "seat %d did not leave", t.Seat)
			}
			d, err := objOf(p["death"], "")
			if err != nil {
				return inputErr(w, "seat %d did not leave", t.Seat)
			}
			d["time"] = t.Time
			p["death"], _ = json.Marshal(d)
		}
	}
	return nil
}

// mrExtMoved reads the facts our export kept in its field because their check would change or drop them in the
// platform's: best moves, the votes of a voting that did not come to its result, nominations of a day without
// votes, and the fouls after a 4th (counted with the platform's own).
func (g *game) mrExtMoved(ext *mrExt, has func(byte) bool) error {
	n := len(g.seats)
	for i, l := range ext.Legacy {
		w := fieldf("mafiaclub.legacy[%d]", i)
		if l.Seat < 1 || l.Seat > n {
			return inputErr(w, "seat %d does not exist", l.Seat)
		}
		if len(l.Targets) == 0 || len(l.Targets) > 3 {
			return inputErr(w, "a best move names 1 to 3 seats, not %d", len(l.Targets))
		}
		for _, t := range l.Targets {
			if t < 1 || t > n {
				return inputErr(w, "seat %d does not exist", t)
			}
		}
		g.bestMove[l.Seat] = l.Targets
		g.bmWhere[l.Seat] = w
	}
	for i, v := range ext.Voting {
		w := fieldf("mafiaclub.voting[%d]", i)
		if v.Seat < 1 || v.Seat > n {
			return inputErr(w, "seat %d does not exist", v.Seat)
		}
		if v.Round < 0 || v.Round > 50 {
			return inputErr(w, "not a day of this game")
		}
		if err := g.mrVotes(v.Seat, v.Round, v.Voting, w, has); err != nil {
			return err
		}
	}
	for i, v := range ext.VotingRounds {
		if v.Round < 0 || v.Round > 50 || v.Rounds < 1 || v.Rounds > 20 {
			return inputErr(fieldf("mafiaclub.votingRounds[%d]", i), "not a day of this game")
		}
		day := v.Round + 1
		for len(g.rounds[day]) < v.Rounds {
			g.rounds[day] = append(g.rounds[day], nil)
		}
		for k := range g.rounds[day][:v.Rounds] {
			if g.rounds[day][k] == nil {
				g.rounds[day][k] = map[int]int{}
			}
		}
		g.touch(day)
	}
	for i, m := range ext.Nominating {
		w := fieldf("mafiaclub.nominating[%d]", i)
		for _, s := range []int{m.By, m.Target} {
			if s < 1 || s > n {
				return inputErr(w, "seat %d does not exist", s)
			}
		}
		if m.Round < 0 || m.Round > 50 {
			return inputErr(w, "not a day of this game")
		}
		day := m.Round + 1
		if g.noms[day] == nil {
			g.noms[day] = map[int]nomination{}
		}
		g.noms[day][m.By] = nomination{target: m.Target, where: w}
		g.touch(day)
	}
	for _, d := range ext.Discipline {
		if d.Type == "foul" && d.Seat >= 1 && d.Seat <= n && g.expFouls[d.Seat] >= 0 {
			g.expFouls[d.Seat]++
		}
	}
	return nil
}

// mrExtOrder puts the fouls, warnings and departures by discipline in the record's order our export kept, where
// the platform's fields list them player by player.
func (g *game) mrExtOrder(ext *mrExt) error {
	if len(ext.Order) == 0 {
		return nil
	}
	seen := make([]bool, len(g.pend))
	for _, k := range ext.Order {
		if k < 0 || k >= len(g.pend) || seen[k] || len(ext.Order) != len(g.pend) {
			return inputErr("mafiaclub.order", "not an order of this game's %d fouls, warnings and departures", len(g.pend))
		}
		seen[k] = true
	}
	pend := make([]pending, 0, len(g.pend))
	for _, k := range ext.Order {
		pend = append(pend, g.pend[k])
	}
	g.pend = pend
	return nil
}
