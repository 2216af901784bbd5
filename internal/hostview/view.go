package hostview

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// SeatView is one seat of the table as the host sees it.
type SeatView struct {
	N                int
	Name             string
	Guest            bool
	Role, RoleLetter string
	Black            bool
	Alive            bool
	Out              string
	Fouls, Warnings  int
	Muted, Nominated bool
	Speaking, Actor  bool
	Candidate, Voted bool
	LastWord         bool
	Disciplinable    bool // a foul, warning or disqualification may be given to him now (the engine says)
	Points           string
}

// StepView is one step of the plan.
type StepView struct {
	Key     string // identifies the step for the page's timer
	Label   string
	Seat    int
	Limit   int
	Event   string
	Current bool
	Lost    bool
}

// VoteView is the voting round under way.
type VoteView struct {
	Candidate int
	Last      bool // the hands not raised yet go to this candidate (the engine's RestToLast)
	Counts    []string
}

// PointsRow is one seat's points.
type PointsRow struct {
	N          int
	Name, Role string
	Total      string
	Items      []string
}

// ChronoLine is one event of the chronology.
type ChronoLine struct {
	Seq  int
	Text string
}

// View is the host page's content.
type View struct {
	Lang       string
	cat        i18n.Catalog
	GameID     int64
	Rated      bool
	SavedAt    string
	IsAdmin    bool
	Version    int64
	RulesName  string
	Phase      string
	Live       bool
	Error      string
	Seats      []SeatView
	Steps      []StepView
	Next       mafia.Next
	Allowed    map[string]bool
	Actors     []int
	Speaker    int
	Vote       *VoteView
	Lift       bool
	Checker    int
	Healer     int
	BestMover  int
	Answers    []string
	Nominated  []string
	Finished   bool
	Winner     string
	Points     []PointsRow
	Adjust     []string // the allowed adjustment steps, for the club's rules
	FreeAdjust bool
	Chrono     []ChronoLine
	Audit      []string
	LastEvent  string
	HasPoints  bool
	IsChief    bool   // the viewer is the chief judge of this tournament game
	Morning    string // the morning's announcement
	// WarningsMatter: warnings are the discipline scale (home-ua), so each seat gets a warning button.
	WarningsMatter bool
	// NewKey gives each action's form a fresh idempotency key.
	NewKey func() string
	// Clock is the first step's time limit as the timer shows it ("1:00"), "" when it has none: the timer is drawn
	// in place from the start, so that nothing moves when the page's script starts it.
	Clock string
}

// T translates a catalogue key in the view's language.
func (v *View) T(key string, args ...any) string { return v.cat.T(v.Lang, key, args...) }

// N translates a plural catalogue key for the count n.
func (v *View) N(key string, n int, args ...any) string { return v.cat.N(v.Lang, key, n, args...) }

// Build makes the view of a game's state in the input's language.
func Build(st *State, cat i18n.Catalog, newKey func() string) *View {
	in := st.In
	g := st.Play
	rs := g.Rules()
	next := g.Next()
	res := g.Result()
	v := &View{Lang: in.Lang, cat: cat, GameID: in.Game, Rated: in.Rated, SavedAt: in.Saved, IsAdmin: in.IsAdmin, IsChief: in.IsChief,
		Version: in.Version, RulesName: rs.Title, Live: in.Live, Error: in.Error, Next: next, Allowed: map[string]bool{},
		Finished: g.Finished(), HasPoints: rs.HasPoints(), WarningsMatter: rs.Mute == mafia.MuteWarnings, Audit: in.Audit, NewKey: newKey}
	phase, num := g.Phase()
	v.Phase = v.T("phase."+phase.String(), num)
	if v.Live {
		for _, t := range mafia.EventTypes() {
			if next.Allowed.Has(t) {
				v.Allowed[t.String()] = true
			}
		}
	}
	v.Actors = next.Actors.List()
	v.Speaker = next.Speaker
	for i := 0; i < next.NNom; i++ {
		v.Nominated = append(v.Nominated, v.T("game.nomination", next.Nominators[i], next.Nominations[i]))
	}
	candidates := mafia.Seats(0)
	for i := 0; i < next.NCand; i++ {
		candidates = candidates.Add(int(next.Candidates[i]))
	}
	nominated := mafia.Seats(0)
	for i := 0; i < next.NNom; i++ {
		nominated = nominated.Add(int(next.Nominations[i]))
	}
	for _, sr := range res.Seats {
		info := st.Record.Seats[sr.Seat-1]
		sv := SeatView{N: sr.Seat, Name: info.Name, Guest: info.Player == "", Role: v.T("role." + sr.Role.String()),
			RoleLetter: sr.Role.Letter(), Black: sr.Team == mafia.Black, Alive: sr.Alive, Fouls: sr.Fouls, Warnings: sr.Warnings,
			Muted: next.Muted.Has(sr.Seat), Nominated: nominated.Has(sr.Seat), Speaking: next.Speaker == sr.Seat,
			Actor: next.Actors.Has(sr.Seat), Candidate: candidates.Has(sr.Seat), Voted: next.Voted.Has(sr.Seat),
			Disciplinable: g.Disciplinable(sr.Seat), Points: Points(sr.Points)}
		if sr.Out.How != mafia.NotOut {
			sv.Out = v.T("out."+sr.Out.How.String(), v.T("phase."+sr.Out.Phase.String(), sr.Out.Number))
		}
		v.Seats = append(v.Seats, sv)
	}
	for i, ps := range next.Plan() {
		sv := StepView{Label: v.stepLabel(ps, g.Role(ps.Seat)), Seat: ps.Seat, Limit: ps.Limit, Current: i == 0 || ps.Current,
			Lost: ps.Speech == mafia.SpeechLost}
		if ps.Event != mafia.NoEvent {
			sv.Event = ps.Event.String()
		}
		sv.Key = fmt.Sprintf("g%d-%s%d-%s-%d-%d", in.Game, phase, num, ps.Step, ps.Seat, len(st.Record.Events))
		if ps.Step == mafia.StepSpeech || ps.Step == mafia.StepLastWord {
			sv.Key = fmt.Sprintf("g%d-%s%d-%s-%d", in.Game, phase, num, ps.Step, ps.Seat)
		}
		v.Steps = append(v.Steps, sv)
		if ps.Step == mafia.StepSpeech && ps.Current {
			for j := range v.Seats {
				v.Seats[j].Speaking = v.Seats[j].N == ps.Seat
			}
		}
		if ps.Step == mafia.StepLastWord {
			v.Seats[ps.Seat-1].LastWord = true
		}
	}
	if len(v.Steps) > 0 && v.Steps[0].Limit > 0 {
		v.Clock = fmt.Sprintf("%d:%02d", v.Steps[0].Limit/60, v.Steps[0].Limit%60)
	}
	first := func(step mafia.Step) (mafia.PlanStep, bool) {
		for _, ps := range next.Plan() {
			if ps.Step == step {
				return ps, true
			}
		}
		return mafia.PlanStep{}, false
	}
	if ps, ok := first(mafia.StepVote); ok && v.Allowed["vote"] {
		vv := &VoteView{Candidate: ps.Seat, Last: next.RestToLast}
		for i := 0; i < next.NCand; i++ {
			c := int(next.Candidates[i])
			if c == ps.Seat {
				break
			}
			vv.Counts = append(vv.Counts, v.T("game.votes_for", c, next.Counts[i]))
		}
		v.Vote = vv
	}
	v.Lift = v.Allowed["lift"]
	// the night's checks and the heal come one at a time, in the order the engine's plan gives (R44, night_order)
	for _, ps := range next.Plan() {
		switch ps.Step {
		case mafia.StepDonCheck, mafia.StepSheriffCheck:
			v.Checker = ps.Seat
		case mafia.StepHeal:
			v.Healer = ps.Seat
		default:
			continue
		}
		break
	}
	if v.Allowed["best_move"] {
		for _, ps := range next.Plan() {
			if ps.Step == mafia.StepBestMove || ps.WithBestMove {
				v.BestMover = ps.Seat
				break
			}
		}
	}
	if next.DonAnswer != mafia.NoAnswer {
		v.Answers = append(v.Answers, v.T("game.answer_don", v.T("answer."+next.DonAnswer.String()), v.T("gesture."+next.DonAnswer.Gesture().String())))
	}
	if next.SheriffAnswer != mafia.NoAnswer {
		v.Answers = append(v.Answers, v.T("game.answer_sheriff", v.T("answer."+next.SheriffAnswer.String()), v.T("gesture."+next.SheriffAnswer.Gesture().String())))
	}
	if v.Finished {
		v.Winner = v.T("winner." + g.Winner().String())
	}
	// The morning's news: who was killed tonight, or a miss (R12, R51).
	if phase == mafia.PhaseDay && num >= 2 && v.Live {
		morning := true
		for _, ps := range next.Plan() {
			if ps.Step == mafia.StepSpeech && ps.Current {
				morning = false
			}
		}
		if open := g.Voting() == mafia.VotingPending || g.Voting() == mafia.VotingCancelled; morning && open {
			v.Morning = v.T("game.miss", num)
			for _, sr := range res.Seats {
				if sr.Out.How == mafia.OutKilled && int(sr.Out.Number) == num {
					v.Morning = v.T("game.killed", num, sr.Seat)
				}
			}
		}
	}
	for _, sr := range res.Seats {
		row := PointsRow{N: sr.Seat, Name: st.Record.Seats[sr.Seat-1].Name, Role: v.T("role." + sr.Role.String()), Total: Points(sr.Points)}
		for _, it := range sr.Score {
			row.Items = append(row.Items, v.T("item."+it.Item.String())+" "+Signed(it.Points))
		}
		v.Points = append(v.Points, row)
	}
	for _, h := range rs.AdjustSteps() {
		v.Adjust = append(v.Adjust, strings.TrimRight(Points(h), "0")) // "0.1", "-0.3"
	}
	v.FreeAdjust = rs.Points == mafia.PointsXCraft
	v.Chrono = Chronology(cat, in.Lang, st.Record, in.Times)
	if len(v.Chrono) > 0 {
		v.LastEvent = v.Chrono[len(v.Chrono)-1].Text
	}
	return v
}

// Signed writes hundredths with a sign: "+0.30", "-0.10", "0.00".
func Signed(h int) string {
	if h > 0 {
		return "+" + Points(h)
	}
	return Points(h)
}

func (v *View) stepLabel(ps mafia.PlanStep, role mafia.Role) string {
	key := "step." + ps.Step.String()
	switch {
	case ps.Step == mafia.StepSpeech && ps.Speech == mafia.SpeechLost:
		return v.T("step.speech_lost", ps.Seat)
	case ps.Step == mafia.StepSpeech && ps.Speech == mafia.SpeechShort:
		return v.T("step.speech_short", ps.Seat)
	case ps.WithBestMove:
		return v.T("step.last_word_bm", ps.Seat)
	case ps.Step == mafia.StepDonWake || ps.Step == mafia.StepSheriffWake:
		// 000 L63, L69: the host shows each his role's gesture
		return v.T(key, ps.Seat, v.T("gesture."+mafia.RoleGesture(role).String()))
	case ps.Seat != 0:
		return v.T(key, ps.Seat)
	}
	return v.T(key)
}

// Chronology describes every event of a record with its phase and time: "Day 2, 19:42:05, #4 nominated #7".
// times gives each event's time of day (missing ones are left empty).
func Chronology(cat i18n.Catalog, lang string, rec *record.Record, times []string) []ChronoLine {
	g, err := mafia.NewGame(rec.Rules, rec.Options, rec.Roles())
	if err != nil {
		return nil
	}
	out := make([]ChronoLine, 0, len(rec.Events))
	for i, e := range rec.Events {
		phase, num := g.Phase()
		answer := ""
		shown := e
		if e.Type == mafia.EvVote {
			// the default rule gives the last candidate every hand not raised yet (R26): show them all
			if next := g.Next(); next.RestToLast {
				shown.Voters |= next.Rest
				shown.VotersGiven = true
			}
		}
		if e.Type == mafia.EvCheck {
			a := g.Answer(int(e.Seat), int(e.Target))
			answer = cat.T(lang, "answer."+a.String())
		}
		if err := g.Apply(e.Event); err != nil {
			break // a stored record replays (it was checked when read); a broken one shows what applies
		}
		text := Describe(cat, lang, shown, answer)
		if e.Reason != "" {
			text += " — " + e.Reason
		}
		at := ""
		if i < len(times) {
			at = times[i]
		}
		out = append(out, ChronoLine{Seq: i + 1, Text: cat.T(lang, "phase."+phase.String(), num) + ", " + at + ", " + text})
	}
	return out
}

// Describe says one event in words; answer is a check's answer, already in words.
func Describe(cat i18n.Catalog, lang string, e record.Event, answer string) string {
	T := func(key string, args ...any) string { return cat.T(lang, key, args...) }
	list := func(set mafia.Seats) string {
		var parts []string
		for _, x := range set.List() {
			parts = append(parts, "#"+strconv.Itoa(x))
		}
		if len(parts) == 0 {
			return "—"
		}
		return strings.Join(parts, " ")
	}
	switch e.Type {
	case mafia.EvDay, mafia.EvNight, mafia.EvDraw:
		return T("ev." + e.Type.String())
	case mafia.EvSpeech, mafia.EvFoul, mafia.EvWarning, mafia.EvDisqualify, mafia.EvTeamLoss:
		return T("ev."+e.Type.String(), e.Seat)
	case mafia.EvNominate, mafia.EvShot, mafia.EvHeal:
		return T("ev."+e.Type.String(), e.Seat, e.Target)
	case mafia.EvCheck:
		return T("ev.check", e.Seat, e.Target, answer)
	case mafia.EvVote:
		if !e.VotersGiven {
			return T("ev.vote_rest", e.Target)
		}
		return T("ev.vote", e.Target, e.Voters.Len(), list(e.Voters))
	case mafia.EvLift:
		return T("ev.lift", e.Voters.Len(), list(e.Voters))
	case mafia.EvBestMove:
		var named mafia.Seats
		for _, t := range e.Targets[:e.NTargets] {
			named = named.Add(int(t))
		}
		return T("ev.best_move", e.Seat, list(named))
	case mafia.EvAdjust:
		return T("ev.adjust", e.Seat, Signed(int(e.Points)))
	}
	return e.Type.String()
}

// RuleText says a broken rule in the language, with the seats it concerns and the rule's reference.
func RuleText(cat i18n.Catalog, lang string, err error, re *mafia.RuleError) string {
	text := cat.T(lang, "rule."+re.Code)
	var v *mafia.Violation
	if errors.As(err, &v) && v.Detail != "" && lang == "en" {
		text += ": " + v.Detail
	} else if errors.As(err, &v) && v.Seat != 0 {
		text += " (#" + strconv.Itoa(v.Seat) + ")"
	}
	if re.Rule != "" {
		text += " [" + re.Rule + "]"
	}
	return text
}

// ErrorText says why the browser's engine refused a form: the form could not be read, or a rule forbids it.
func ErrorText(cat i18n.Catalog, lang string, err error) string {
	var fe *FormError
	if errors.As(err, &fe) {
		return cat.T(lang, "error.invalid", cat.T(lang, "msg:"+fe.Format, fe.Args...))
	}
	var re *mafia.RuleError
	if errors.As(err, &re) {
		return RuleText(cat, lang, err, re)
	}
	return cat.T(lang, "error.invalid", err.Error())
}

// Points writes hundredths as a signed decimal with two places: "1.30", "-0.05".
func Points(h int) string {
	sign := ""
	if h < 0 {
		sign, h = "-", -h
	}
	return fmt.Sprintf("%s%d.%02d", sign, h/100, h%100)
}
