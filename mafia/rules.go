package mafia

import (
	"fmt"
	"slices"
	"sort"
)

// MuteModel is what the 3rd foul (or, in home-ua, the 2nd warning) does to the next regular speech (matrix R62,
// C-51).
type MuteModel uint8

// The mute models.
const (
	MuteNone     MuteModel = iota // fouls are counted, nothing more (home-doctor)
	MuteLost                      // the next speech is lost; the player may still nominate (000 L124, 002 §6.4)
	MuteShort                     // the next speech is cut to 30 s (001 L32, L54)
	MuteWarnings                  // home-ua: warnings, not fouls; the 2nd costs a speech, the 3rd removes (004 L47-L48)
)

// TieModel is what happens when the same candidates tie again (matrix R35, C-49).
type TieModel uint8

// The tie models.
const (
	TieLift    TieModel = iota // FIIM lineage: ask whether all the tied leave (000 L114, 002 §4.4.14, 004 L15)
	TieFSM2026                 // they stay, except the 7.11.5 combinations, which get a lift vote (001 L23, L46)
	TieStay                    // they stay (home-doctor with tie_model "stay")
)

// DrawRule says when a game ends in a draw by itself (matrix R74, C-55).
type DrawRule uint8

// The draw rules.
const (
	DrawNone               DrawRule = iota // never drawn (home-ua)
	DrawDeclared                           // only when the host declares it (000, C-15)
	DrawThreeNights                        // three nights with no change in the player count (001 L34, C-24)
	DrawThreeNightsAndDays                 // three nights and three days from a night with nobody leaving (002 §7.9)
)

// BestMoveRule says who makes the best move (matrix R55, R57, C-08, C-20).
type BestMoveRule uint8

// The best-move rules.
const (
	BestMoveNone   BestMoveRule = iota
	BestMoveRed                 // a red player killed on the first shooting night (000 L158)
	BestMoveAnyone              // the first night victim, whatever his colour (001 L30; 002 §8.3); points only to red
)

// DQEffect is what a disqualification does to the day's voting (matrix R68-R70, C-11, C-22, C-30, C-36).
type DQEffect uint8

// The disqualification effects.
const (
	DQNoEffect DQEffect = iota // home rule sets (C-47)
	DQClub                     // 000 L127-L128, read as C-11
	DQXCraft                   // 002 §7.1-§7.2, read as C-30 and C-36
)

// PointsSystem is a rule set's points table (matrix section M).
type PointsSystem uint8

// The points systems.
const (
	NoPoints     PointsSystem = iota
	Points2025                // 000 L175-L199: the FIIM 2025 table with the club's extras
	PointsXCraft              // 002 §8.2-§8.3 and §T6.1
)

// Times are a rule set's time limits in seconds; 0 means the step has no time limit.
type Times struct {
	Speech, Short, Tie      int
	LastWordDay             int
	LastWordNight           int
	BestMove                int // 0 with BestMoveInLastWord: the best move is made inside the last word
	Check                   int
	Acquaintance            int
	DonWake, SheriffWake    int
	FreeSeating             int
	BestMoveInsideLastWord  bool
	NightOneCommissarWakeUp bool
}

// Deal is how a rule set's seats may be dealt (spec section 4; matrix R02, C-02, C-44, C-25a).
type Deal uint8

// The deals.
const (
	DealTable     Deal = iota // a fixed role table by player count: citizens, sheriff, mafia, don (000 L49-L52, 001, 002)
	DealCommissar             // citizens, exactly one commissar, mafia (004 L5, C-44)
	DealFree                  // any composition with at most one doctor and one commissar, and a don (001 L36-L38)
)

// ExportFormat is another platform's game format that a rule set's games can be written in.
type ExportFormat uint8

// The export formats.
const (
	ExportNone         ExportFormat = iota
	ExportMafiaratings              // mafiaratings.com: sport mafia, 10 seats, a sheriff and a don
)

// DefaultRuleSetID is the club's own rule set (seed 000), the one a new game or tournament starts from unless
// another is chosen. ClubRules returns it.
const DefaultRuleSetID = "fiim-2025-club"

// ClubRules returns the club's own rule set, DefaultRuleSetID.
func ClubRules() *Rules {
	r, _ := RuleSet(DefaultRuleSetID)
	return r
}

// Rules is one rule set: a stable identifier and the parameters the engine plays by. A rule set never changes
// meaning; a change of rules is a new identifier (spec section 5).
type Rules struct {
	ID         string
	Title      string
	MinPlayers int
	MaxPlayers int
	// Club marks the club's own rules (seed 000): its points system with the club's extras and manual steps.
	// Importers of other platforms' games turn the club's own extras off (club_extras).
	Club bool
	// Deal is how the seats may be dealt.
	Deal Deal
	// Export is the other platform's format the rule set's games can be written in, if any.
	Export      ExportFormat
	Mute        MuteModel
	Tie         TieModel
	Draw        DrawRule
	BestMove    BestMoveRule
	DQ          DQEffect
	Points      PointsSystem
	Times       Times
	DefaultVote bool // a non-voter's vote goes to the last candidate (000 L107, 001 L20, 002 §4.4.12)
	// DonMayNotCheckOwnFirstShot: on the first shooting night the don may not check the player he shot
	// (001 L27, matrix R47).
	DonMayNotCheckOwnFirstShot bool
	// SelfVoteForbidden: by default a candidate may not raise his own hand against himself (000 L105, C-03);
	// only the default vote may count against him. Seeds 001, 002 and 004 are silent, and real FIIM and FSM
	// games (the conformance records) show candidates voting against themselves, so only the club forbids it,
	// and its option candidate_self_vote lifts the ban for games played under FIIM tournament rules.
	SelfVoteForbidden bool
	// WrongVote is the sanction for voting against several candidates (matrix R28, C-54): disqualifying in the
	// club (000 L147), a foul in X-Craft (002 §6.6.4, §6.6.6), none in the other seeds. The engine refuses the
	// second vote (ErrVotedTwice) and records only the sanction the host then gives; host mode names it.
	WrongVote Sanction

	tables  map[int][numRoles]int // fixed role tables by player count; nil: composition is free
	options []optionSpec
}

// Sanction is what a rule set gives for a breach it names.
type Sanction int

// The sanctions.
const (
	SanctionNone Sanction = iota
	SanctionFoul
	SanctionDisqualify
)

// AdjustSteps returns the manual corrections the rule set allows, in hundredths, when it fixes them: ±0.1, ±0.3
// and ±0.5 in the 2025 points system (000 L198, during the day and on the summary screen); nil where any amount
// within ±10 points is allowed (X-Craft's judge's points, §T6.1) or the rule set has no points.
func (r *Rules) AdjustSteps() []int {
	if r.Points == Points2025 {
		return slices.Clone(adjustSteps2025)
	}
	return nil
}

var adjustSteps2025 = []int{10, 30, 50, -10, -30, -50}

// Composition returns the role table for n players, if the rule set fixes one.
func (r *Rules) Composition(n int) (map[Role]int, bool) {
	t, ok := r.tables[n]
	if !ok {
		return nil, false
	}
	out := map[Role]int{}
	for role, c := range t {
		if c > 0 {
			out[Role(role)] = c
		}
	}
	return out, true
}

// HasPoints reports whether the rule set has a points system.
func (r *Rules) HasPoints() bool { return r.Points != NoPoints }

var sportTimes = Times{Speech: 60, Short: 30, Tie: 30, LastWordDay: 60, LastWordNight: 60, BestMove: 20,
	Check: 10, Acquaintance: 60, DonWake: 10, SheriffWake: 10, FreeSeating: 40}

func table(c, s, m, d int) [numRoles]int {
	var t [numRoles]int
	t[Citizen], t[Sheriff], t[Mafia], t[Don] = c, s, m, d
	return t
}

var ruleSets = []*Rules{
	{
		ID: DefaultRuleSetID, Title: "FIIM 2025, club rules",
		MinPlayers: 7, MaxPlayers: 10, Club: true, Export: ExportMafiaratings,
		Mute: MuteLost, Tie: TieLift, Draw: DrawDeclared, BestMove: BestMoveRed, DQ: DQClub, Points: Points2025,
		Times: sportTimes, DefaultVote: true, WrongVote: SanctionDisqualify, SelfVoteForbidden: true,
		// 000 L49-L52, with the 8 and 7 rows completed as C-02 proposes.
		tables: map[int][numRoles]int{10: table(6, 1, 2, 1), 9: table(5, 1, 2, 1), 8: table(5, 1, 1, 1), 7: table(5, 0, 1, 1)},
		options: []optionSpec{
			optClubExtras, optOpenerVictim, optBMLostTwo, optBMAnyNight(false), optBMPoints(50, 70),
			optTwoOfFour(false), optShort34(false), optDonOnce, optSheriffDistinct, optDecisiveTie, optUgayka,
			optSelfVote, optDay1Lift, optDay1NoVote, optDay1Respeech,
		},
	},
	{
		ID: "fsm-2026", Title: "FSM 2026",
		MinPlayers: 10, MaxPlayers: 10, Export: ExportMafiaratings,
		Mute: MuteShort, Tie: TieFSM2026, Draw: DrawThreeNights, BestMove: BestMoveAnyone, DQ: DQXCraft,
		Times: sportTimes, DefaultVote: true, DonMayNotCheckOwnFirstShot: true,
		tables: map[int][numRoles]int{10: table(6, 1, 2, 1)},
		options: []optionSpec{
			optOpenerVictim, optBMLostTwo, optBMAnyNight(true), optFSMDQ, optDrawN1, optDay1Lift, optDay1NoVote, optDay1Respeech,
		},
	},
	{
		ID: "fiim-xcraft", Title: "X-Craft 2.0 (FIIM), tournament points",
		MinPlayers: 10, MaxPlayers: 10, Export: ExportMafiaratings,
		Mute: MuteLost, Tie: TieLift, Draw: DrawThreeNightsAndDays, BestMove: BestMoveAnyone, DQ: DQXCraft,
		Points: PointsXCraft, DefaultVote: true, WrongVote: SanctionFoul,
		// 002 §4.2.4-§4.2.7: one minute of acquaintance, the don and the sheriff up to 10 s; no free seating.
		// The best move is made inside the farewell minute (§4.5.11, §8.3.1(1); C-34).
		Times: Times{Speech: 60, Short: 30, Tie: 30, LastWordDay: 60, LastWordNight: 60, Check: 10,
			Acquaintance: 60, DonWake: 10, SheriffWake: 10, BestMoveInsideLastWord: true},
		tables: map[int][numRoles]int{10: table(6, 1, 2, 1)},
		options: []optionSpec{
			optOpenerVictim, optBMLostTwo, optBMAnyNight(false), optBMPoints(25, 40), optTwoOfFour(true),
			optShort34(true),
		},
	},
	{
		ID: "home-ua", Title: "Ukrainian home rules (commissar, warnings, open cards)",
		MinPlayers: 3, MaxPlayers: MaxSeats, // C-44: one mafia, the commissar and a citizen is the least table
		Deal: DealCommissar,
		Mute: MuteWarnings, Tie: TieLift, Draw: DrawNone, BestMove: BestMoveNone, DQ: DQNoEffect,
		// 004 L9-L21: one minute, 30 s in a tie, last word 1 min after a vote and 30 s after a night kill (C-39).
		Times: Times{Speech: 60, Short: 30, Tie: 30, LastWordDay: 60, LastWordNight: 30, NightOneCommissarWakeUp: true},
		options: []optionSpec{
			optDefaultVote(false, false), optReveal(true, false), optLastWord(true, false),
		},
	},
	{
		ID: "home-doctor", Title: "Home rules with a doctor",
		MinPlayers: 6, MaxPlayers: MaxSeats, Deal: DealFree,
		Mute: MuteNone, Tie: TieLift, Draw: DrawNone, BestMove: BestMoveNone, DQ: DQNoEffect,
		Times: Times{Speech: 60, Short: 30, Tie: 30, LastWordDay: 60, LastWordNight: 60},
		options: []optionSpec{
			optNightOrder, optDefaultVote(false, true), optTieModel, optReveal(false, true), optLastWord(false, true),
			optSelfHeal, optRepeatHeal,
		},
	},
}

// RuleSet returns the rule set with the given identifier.
func RuleSet(id string) (*Rules, bool) {
	for _, r := range ruleSets {
		if r.ID == id {
			return r, true
		}
	}
	return nil, false
}

// RuleSets returns every rule set, in a stable order.
func RuleSets() []*Rules { return append([]*Rules(nil), ruleSets...) }

// Roles returns the roles a deal may hold under the rule set, in the order a form lists them: the sport table's
// four, home-ua's citizens, commissar and mafia (004 L5, C-44), home-doctor's with the doctor and the don.
func (r *Rules) Roles() []Role {
	switch r.Deal {
	case DealTable:
		return []Role{Citizen, Sheriff, Mafia, Don}
	case DealCommissar:
		return []Role{Citizen, Commissar, Mafia}
	}
	return []Role{Citizen, Commissar, Doctor, Mafia, Don}
}

// ValidateRoles checks the seats' roles against the rule set: the player count, the role table where the rule
// set fixes one, and the composition rules of the home rule sets (spec section 4; matrix C-02, C-44, C-25a).
func (r *Rules) ValidateRoles(roles []Role) error {
	n := len(roles)
	if n < r.MinPlayers || n > r.MaxPlayers {
		if r.MinPlayers == r.MaxPlayers {
			return fmt.Errorf("%s is played by exactly %d players, not %d", r.ID, r.MinPlayers, n)
		}
		return fmt.Errorf("%s is played by %d to %d players, not %d", r.ID, r.MinPlayers, r.MaxPlayers, n)
	}
	var count [numRoles]int
	for i, role := range roles {
		if role == NoRole || role >= numRoles {
			return fmt.Errorf("seat %d has no role", i+1)
		}
		count[role]++
	}
	if r.Deal == DealTable {
		want := r.tables[n]
		if count != want {
			return fmt.Errorf("%s with %d players needs %s, but the seats have %s", r.ID, n, describe(want), describe(count))
		}
		return nil
	}
	switch r.Deal {
	case DealCommissar:
		// 004 L5: mafia and honest citizens, one of whom (the ace of hearts) is the commissar; C-44.
		if count[Sheriff]+count[Don]+count[Doctor] > 0 {
			return fmt.Errorf("%s has only citizens, one commissar and mafia, but the seats have %s", r.ID, describe(count))
		}
		if count[Commissar] != 1 {
			return fmt.Errorf("%s needs exactly one commissar, but the seats have %d", r.ID, count[Commissar])
		}
	case DealFree:
		if count[Doctor] > 1 || count[Commissar] > 1 {
			return fmt.Errorf("%s allows at most one doctor and one commissar, but the seats have %s", r.ID, describe(count))
		}
		if count[Sheriff] > 0 {
			return fmt.Errorf("%s has a commissar, not a sheriff", r.ID)
		}
	}
	black := count[Mafia] + count[Don]
	if black < 1 {
		return fmt.Errorf("%s needs at least one mafia player", r.ID)
	}
	if black >= n-black {
		return fmt.Errorf("%s needs fewer mafia than the others, but the seats have %d black of %d", r.ID, black, n)
	}
	return nil
}

func describe(c [numRoles]int) string {
	s := ""
	for role := Citizen; role < numRoles; role++ {
		if c[role] == 0 && role != Citizen {
			continue
		}
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("%d %s", c[role], role)
	}
	return s
}

// OptionKeys returns the option keys the rule set accepts, sorted.
func (r *Rules) OptionKeys() []string {
	keys := make([]string, 0, len(r.options))
	for _, o := range r.options {
		keys = append(keys, o.key)
	}
	sort.Strings(keys)
	return keys
}

// OptionKind is the type of an option's value.
type OptionKind uint8

// The option kinds of spec section 4.
const (
	OptBool   OptionKind = iota + 1
	OptPoints            // a pair of point values [two, three]
	OptList              // a list of names
	OptChoice            // one name of a fixed set
)

// OptionInfo describes one option of a rule set.
type OptionInfo struct {
	Key      string
	Kind     OptionKind
	Required bool
	Choices  []string // the allowed names for OptChoice and for the items of OptList
	Default  OptionValue
}

// Option returns the description of the rule set's option key.
func (r *Rules) Option(key string) (OptionInfo, bool) {
	for _, o := range r.options {
		if o.key == key {
			return OptionInfo{Key: o.key, Kind: o.kind, Required: o.required, Choices: o.choices, Default: o.def}, true
		}
	}
	return OptionInfo{}, false
}

// OptionValue is the value of one option. Only the field of the option's kind is read.
type OptionValue struct {
	Bool   bool
	Points [2]int // hundredths
	List   []string
	Choice string
}
