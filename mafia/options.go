package mafia

import "fmt"

// NightGroup is one part of the night in a home-doctor night order.
type NightGroup uint8

// The night groups.
const (
	GroupMafia NightGroup = iota + 1
	GroupDon
	GroupDoctor
	GroupCommissar
)

var groupNames = map[string]NightGroup{"mafia": GroupMafia, "don": GroupDon, "doctor": GroupDoctor, "commissar": GroupCommissar}

// Options are a rule set's options with their values (spec section 4). The zero value is not meaningful: start
// from Rules.DefaultOptions.
type Options struct {
	ClubExtras              bool   // club_extras: 000 R86-R94, C-13
	OpenerFollowsVictim     bool   // opener_follows_night_victim: C-01
	BMLostIfTwoLeftDay1     bool   // bm_lost_if_two_left_day1: C-07
	BMFirstKillAnyNight     bool   // bm_first_kill_any_night: C-08, C-20
	BMPoints                [2]int // bm_points: hundredths for two and for three blacks named (C-26)
	TwoOfFourNoLift         bool   // xcraft_7_6_two_of_four_no_lift: C-09, 002 §7.6
	ShortSpeechAtThreeFour  bool   // xcraft_7_8_short_speech: C-10, 002 §7.8
	DonFoundSheriffOnce     bool   // don_found_sheriff_once: C-12
	SheriffBlackPerDistinct bool   // sheriff_black_per_distinct: C-12
	DecisiveTieSaved        bool   // decisive_vote_tie_counts_as_saved: C-13
	UgaykaAllBlacks         bool   // ugayka_all_blacks: C-13
	FSMDQVoteEffect         bool   // fsm_dq_vote_effect: C-22
	DrawWindowIncludesN1    bool   // draw_window_includes_n1: C-24
	NightOrder              [4]NightGroup
	NightOrderLen           int
	DefaultVoteToLast       bool // default_vote_to_last
	TieStay                 bool // tie_model "stay"
	RevealOnElimination     bool // reveal_on_elimination
	LastWord                bool // last_word
	DoctorSelfHeal          bool // doctor_self_heal
	DoctorRepeatTarget      bool // doctor_repeat_target
	// CandidateSelfVote: a candidate may raise his own hand against himself (candidate_self_vote, C-03); true
	// wherever the rule set does not forbid it.
	CandidateSelfVote bool
	// Day1LiftOnly: on day 1 a single leader of the vote leaves only by a lift vote of more than half of the
	// table (day1_lift_only; Polemica's first-day "zero voting" liftOnly; changes R31 on day 1, R35 for the lift).
	Day1LiftOnly bool
	// Day1NoVote: day 1 has nominations but no vote; nobody leaves by vote that day (day1_no_vote; Polemica's
	// first-day "zero voting" none; changes R23-R31 on day 1).
	Day1NoVote bool
	// Day1Respeech: on day 1 a single leader of the vote makes a defence speech (the tie speech's 30 s), then
	// leaves only by a lift vote of more than half of the table (day1_respeech; Polemica's "zero voting" respeech;
	// changes R31 on day 1, R33 and R35 for the speech and the lift).
	Day1Respeech bool
	set          uint32 // which options were given explicitly, by index in the rule set's list
	rules        *Rules
}

type optionSpec struct {
	key      string
	kind     OptionKind
	required bool
	choices  []string
	def      OptionValue
	apply    func(o *Options, v OptionValue)
}

func boolOpt(key string, def bool, f func(o *Options, v bool)) optionSpec {
	return optionSpec{key: key, kind: OptBool, def: OptionValue{Bool: def}, apply: func(o *Options, v OptionValue) { f(o, v.Bool) }}
}

var (
	optClubExtras      = boolOpt("club_extras", true, func(o *Options, v bool) { o.ClubExtras = v })
	optOpenerVictim    = boolOpt("opener_follows_night_victim", false, func(o *Options, v bool) { o.OpenerFollowsVictim = v })
	optBMLostTwo       = boolOpt("bm_lost_if_two_left_day1", true, func(o *Options, v bool) { o.BMLostIfTwoLeftDay1 = v })
	optDonOnce         = boolOpt("don_found_sheriff_once", true, func(o *Options, v bool) { o.DonFoundSheriffOnce = v })
	optSheriffDistinct = boolOpt("sheriff_black_per_distinct", true, func(o *Options, v bool) { o.SheriffBlackPerDistinct = v })
	optDecisiveTie     = boolOpt("decisive_vote_tie_counts_as_saved", true, func(o *Options, v bool) { o.DecisiveTieSaved = v })
	optUgayka          = boolOpt("ugayka_all_blacks", false, func(o *Options, v bool) { o.UgaykaAllBlacks = v })
	optFSMDQ           = boolOpt("fsm_dq_vote_effect", true, func(o *Options, v bool) { o.FSMDQVoteEffect = v })
	optDrawN1          = boolOpt("draw_window_includes_n1", true, func(o *Options, v bool) { o.DrawWindowIncludesN1 = v })
	optSelfHeal        = required(boolOpt("doctor_self_heal", false, func(o *Options, v bool) { o.DoctorSelfHeal = v }))
	optRepeatHeal      = required(boolOpt("doctor_repeat_target", false, func(o *Options, v bool) { o.DoctorRepeatTarget = v }))
	optNightOrder      = optionSpec{key: "night_order", kind: OptList, required: true,
		choices: []string{"mafia", "don", "doctor", "commissar"},
		apply: func(o *Options, v OptionValue) {
			o.NightOrderLen = 0
			for _, s := range v.List {
				o.NightOrder[o.NightOrderLen] = groupNames[s]
				o.NightOrderLen++
			}
		}}
	optTieModel = optionSpec{key: "tie_model", kind: OptChoice, required: true, choices: []string{"lift", "stay"},
		apply: func(o *Options, v OptionValue) { o.TieStay = v.Choice == "stay" }}
)

var (
	// 000 L105 forbids it; FIIM tournaments (mafiaratings 4871, 4875, 4876) and Polemica (272910) count it (C-03).
	optSelfVote = boolOpt("candidate_self_vote", false, func(o *Options, v bool) { o.CandidateSelfVote = v })
	// Polemica's zeroVoting "liftOnly" (game 334187): the day-1 vote decides only who is put to the lift question.
	optDay1Lift = boolOpt("day1_lift_only", false, func(o *Options, v bool) { o.Day1LiftOnly = v })
	// Polemica's zeroVoting "none" (two real games: 2 and 6 nominations on day 1, no votes, nobody left).
	optDay1NoVote = boolOpt("day1_no_vote", false, func(o *Options, v bool) { o.Day1NoVote = v })
	// Polemica's zeroVoting "respeech": the day-1 leader speaks again before the lift question.
	optDay1Respeech = boolOpt("day1_respeech", false, func(o *Options, v bool) { o.Day1Respeech = v })
)

// day1Variants are Polemica's day-one variants; a game plays at most one of them.
var day1Variants = []string{"day1_lift_only", "day1_no_vote", "day1_respeech"}

// day1Variant counts the day-one variants that are on.
func (o *Options) day1Variant() int {
	n := 0
	for _, on := range []bool{o.Day1LiftOnly, o.Day1NoVote, o.Day1Respeech} {
		if on {
			n++
		}
	}
	return n
}

func required(s optionSpec) optionSpec { s.required = true; return s }

func optBMAnyNight(def bool) optionSpec {
	return boolOpt("bm_first_kill_any_night", def, func(o *Options, v bool) { o.BMFirstKillAnyNight = v })
}
func optTwoOfFour(def bool) optionSpec {
	return boolOpt("xcraft_7_6_two_of_four_no_lift", def, func(o *Options, v bool) { o.TwoOfFourNoLift = v })
}
func optShort34(def bool) optionSpec {
	return boolOpt("xcraft_7_8_short_speech", def, func(o *Options, v bool) { o.ShortSpeechAtThreeFour = v })
}
func optBMPoints(two, three int) optionSpec {
	return optionSpec{key: "bm_points", kind: OptPoints, def: OptionValue{Points: [2]int{two, three}},
		apply: func(o *Options, v OptionValue) { o.BMPoints = v.Points }}
}
func optDefaultVote(def, req bool) optionSpec {
	s := boolOpt("default_vote_to_last", def, func(o *Options, v bool) { o.DefaultVoteToLast = v })
	s.required = req
	return s
}
func optReveal(def, req bool) optionSpec {
	s := boolOpt("reveal_on_elimination", def, func(o *Options, v bool) { o.RevealOnElimination = v })
	s.required = req
	return s
}
func optLastWord(def, req bool) optionSpec {
	s := boolOpt("last_word", def, func(o *Options, v bool) { o.LastWord = v })
	s.required = req
	return s
}

// DefaultOptions returns the rule set's options with every default of spec section 4. For sport rule sets that
// fix them, DefaultVoteToLast and LastWord are true and RevealOnElimination false; CandidateSelfVote is true
// wherever the rule set does not forbid it.
func (r *Rules) DefaultOptions() Options {
	o := Options{rules: r, DefaultVoteToLast: r.DefaultVote, LastWord: true, CandidateSelfVote: !r.SelfVoteForbidden}
	for _, s := range r.options {
		if !s.required {
			s.apply(&o, s.def)
		}
	}
	return o
}

// Set gives option key the value v. It refuses a key the rule set does not have and a value of the wrong shape.
func (o *Options) Set(key string, v OptionValue) error {
	r := o.rules
	if r == nil {
		return fmt.Errorf("options are not bound to a rule set")
	}
	for i, s := range r.options {
		if s.key != key {
			continue
		}
		switch s.kind {
		case OptPoints:
			for _, p := range v.Points {
				if p < 0 || p > 1000 {
					return fmt.Errorf("option %s: points must be between 0 and 10", key)
				}
			}
		case OptChoice:
			if !contains(s.choices, v.Choice) {
				return fmt.Errorf("option %s: %q is not one of %v", key, v.Choice, s.choices)
			}
		case OptList:
			if len(v.List) == 0 || len(v.List) > len(o.NightOrder) {
				return fmt.Errorf("option %s: give 1 to %d of %v", key, len(o.NightOrder), s.choices)
			}
			seen := map[string]bool{}
			for _, item := range v.List {
				if !contains(s.choices, item) {
					return fmt.Errorf("option %s: %q is not one of %v", key, item, s.choices)
				}
				if seen[item] {
					return fmt.Errorf("option %s: %q is listed twice", key, item)
				}
				seen[item] = true
			}
			if !seen["mafia"] {
				return fmt.Errorf("option %s: the night order must include the mafia", key)
			}
		}
		s.apply(o, v)
		o.set |= 1 << uint(i)
		return nil
	}
	return fmt.Errorf("%s has no option %q (it has: %v)", r.ID, key, r.OptionKeys())
}

// IsSet reports whether option key was given explicitly.
func (o *Options) IsSet(key string) bool {
	if o.rules == nil {
		return false
	}
	for i, s := range o.rules.options {
		if s.key == key {
			return o.set&(1<<uint(i)) != 0
		}
	}
	return false
}

// check verifies that every required option was given and that the night order fits the roles at the table
// (matrix C-25a: a home-doctor game does not start until its settings are fixed).
func (o *Options) check(roles []Role) error {
	r := o.rules
	var missing []string
	for i, s := range r.options {
		if s.required && o.set&(1<<uint(i)) == 0 {
			missing = append(missing, s.key)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s needs these options decided before the deal: %v", r.ID, missing)
	}
	if o.day1Variant() > 1 {
		return fmt.Errorf("options %v are day one's variants: at most one of them may be on", day1Variants)
	}
	if o.NightOrderLen > 0 {
		has := map[NightGroup]bool{}
		for _, g := range o.NightOrder[:o.NightOrderLen] {
			has[g] = true
		}
		present := map[NightGroup]bool{GroupMafia: true}
		for _, role := range roles {
			switch role {
			case Don:
				present[GroupDon] = true
			case Doctor:
				present[GroupDoctor] = true
			case Commissar:
				present[GroupCommissar] = true
			}
		}
		for _, g := range []NightGroup{GroupMafia, GroupDon, GroupDoctor, GroupCommissar} {
			if present[g] && !has[g] && g != GroupDon {
				return fmt.Errorf("option night_order: it must name every night role at the table (missing %s)", groupName(g))
			}
			if has[g] && !present[g] {
				return fmt.Errorf("option night_order: %s is not at the table", groupName(g))
			}
		}
	}
	return nil
}

func groupName(g NightGroup) string {
	switch g {
	case GroupMafia:
		return "mafia"
	case GroupDon:
		return "don"
	case GroupDoctor:
		return "doctor"
	case GroupCommissar:
		return "commissar"
	}
	return "?"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
