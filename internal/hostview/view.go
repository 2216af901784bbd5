package hostview

import (
	"errors"
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
	"mafiaclub/mafia/spectator"
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
	Disciplinable    bool // a foul, warning or disqualification may be given to him now (the engine says)
	// What the seat's card offers, decided once in Build rather than in the template (its conditions and calls
	// are reflective, and slow in the browser's WebAssembly): the forms, each with its own idempotency key, and the
	// badges' words.
	CanNominate, CanShoot, CanCheck, CanHeal, CanFoul, CanWarn bool
	// ShowNominate: the card shows its nomination button, greyed when CanNominate is false. From the plan's first
	// regular speech of a day to its last one every seat in the game keeps its button, so that a nomination or
	// "next speaker" only greys or lights the buttons: taking ten forms out of the page and putting them back made
	// "next speaker" the slowest tap (10-14 ms to draw here).
	ShowNominate                                               bool
	KeyNominate, KeyShoot, KeyCheck, KeyHeal, KeyFoul, KeyWarn string
	FoulsText, WarningsText, ShootLabel                        string
	// What the page asks before a foul, a warning, a disqualification or a team's loss of this seat's that would
	// remove a player, with what the engine says it would do ("" asks nothing): see asks.
	FoulConfirm, WarnConfirm, DQConfirm, TeamConfirm string
	// P is what of the page the card shows (set by Render).
	P *CardPage
}

// Labels are the words every seat card repeats, translated once per page.
type Labels struct {
	Guest, Foul, Warning, Muted, Nominated string
}

// StepView is one step of the plan.
type StepView struct {
	Key     string // identifies the step for the page's timer
	Label   string
	Limit   int
	Event   string
	Current bool
}

// VoteView is the voting round under way.
type VoteView struct {
	Candidate int
	Last      bool // the hands not raised yet go to this candidate (the engine's RestToLast)
	Counts    []string
}

// AdjustStep is one correction of points the rules allow: the form's value as the record writes points ("0.3",
// "-0.5", "1"; record.Hundredths reads it back, and refuses a "+") and its label with a sign, as the language writes
// it ("+0,3" in Ukrainian, "+0.3" in English, "+1").
type AdjustStep struct {
	Value, Label string
}

func adjustStep(lang string, h int) AdjustStep {
	s := AdjustStep{Value: record.FormatPoints(h), Label: i18n.Decimal(lang, record.FormatPoints(h))}
	if h > 0 {
		s.Label = "+" + s.Label
	}
	return s
}

// PointsRow is one seat's points.
type PointsRow struct {
	N          int
	Name, Role string
	Total      string
	Items      []string
}

// ChronoLine is one event of the chronology. Secret marks what the public view hides while the game goes on
// (spectator.Hidden): a night action (a shot, a check, a protection), which names a role's seat, and a correction
// of points, which tells teams apart; the host page hides it unless the host shows the roles.
type ChronoLine struct {
	Text   string
	Secret bool
	// Note: the line is no event of the record (Input.Notes).
	Note bool
}

// ShotView is one black player's shot tonight, as recorded.
type ShotView struct {
	By, Target int
	Twice      bool // he shot more than once: tonight's shot is a miss (R43)
}

// View is the host page's content.
type View struct {
	Lang       string
	cat        i18n.Catalog
	Base       string // the club's path prefix, before every address of the page (Input.Base)
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
	Adjust     []AdjustStep // the allowed adjustment steps, for the club's rules
	FreeAdjust bool
	// AdjustHint is the free correction's example ("0,2" in Ukrainian); the form reads a comma or a point.
	AdjustHint string
	Chrono     []ChronoLine
	Audit      []string
	LastEvent  string
	LastSecret bool // the last event is secret (a night action): the undo box hides it with the roles
	HasPoints  bool
	IsChief    bool   // the viewer agrees to a winner's 0.6 or 0.7 here (the chief judge, or the organiser in his place)
	Morning    string // the morning's announcement
	// MorningWhy says why the night was a miss where the engine knows it (a black shot more than once); it names
	// a black seat, so the page hides it with the roles.
	MorningWhy string
	// Secret: the game goes on, so whatever reveals a role or a team (the points and their items, the night's
	// actions in the chronology, the audit) is shown only when the host asks for the roles.
	Secret bool
	// Announce is what the host says now: each voting round of the day with its counts and what it decided, why
	// there is no vote today.
	Announce []string
	// Shooters are the black players who have not shot yet tonight; Shots are the shots recorded (R42, R43).
	Shooters []int
	Shots    []ShotView
	// BMDue: the best move is due, so the main action records it, and the next speech (which ends the morning
	// and with it the best move) is a separate, explicit choice.
	BMDue bool
	// SkipBM is the next speaker when the host may skip the best move to call him (0 when not).
	SkipBM int
	// WarningsMatter: warnings are the discipline scale (home-ua), so each seat gets a warning button.
	WarningsMatter bool
	// NewKey gives each action's form a fresh idempotency key (none on a page drawn by the page's engine).
	NewKey func() string
	// FormVersion is the version the forms of actions name ("" on a page drawn by the page's engine).
	FormVersion string
	// speeches: the day's regular speeches are under way or in the plan (nominations may come)
	speeches bool
	// L are the words every seat card repeats.
	L Labels
	// Clock is the first step's time limit as the timer shows it ("1:00"), "" when it has none: the timer is drawn
	// in place from the start, so that nothing moves when the page's script starts it.
	Clock string
	// Voting is how the vote under way begins (nil when there is none): see taps.
	Voting *Voting
	// cards keeps parts of pages drawn before (RenderCached); nil draws each.
	cards *PartCache
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
	v := &View{Lang: in.Lang, cat: cat, Base: in.Base, GameID: in.Game, Rated: in.Rated, SavedAt: in.Saved, IsAdmin: in.IsAdmin, IsChief: in.IsChief,
		Version: in.Version, Live: in.Live, Error: in.Error, Next: next, Allowed: map[string]bool{},
		Finished: g.Finished(), HasPoints: rs.HasPoints(), WarningsMatter: rs.Mute == mafia.MuteWarnings, Audit: in.Audit, NewKey: newKey,
		FormVersion: strconv.FormatInt(in.Version, 10)}
	if in.Page {
		v.NewKey, v.FormVersion = func() string { return "" }, ""
	}
	v.RulesName = RulesTitle(cat, in.Lang, rs)
	v.Secret = !v.Finished
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
			RoleLetter: RoleLetter(cat, in.Lang, sr.Role), Black: sr.Team == mafia.Black, Alive: sr.Alive, Fouls: sr.Fouls, Warnings: sr.Warnings,
			Muted: next.Muted.Has(sr.Seat), Nominated: nominated.Has(sr.Seat), Speaking: next.Speaker == sr.Seat,
			Actor: next.Actors.Has(sr.Seat), Candidate: candidates.Has(sr.Seat), Voted: next.Voted.Has(sr.Seat),
			Disciplinable: g.Disciplinable(sr.Seat)}
		if sr.Out.How != mafia.NotOut {
			sv.Out = v.T("out."+sr.Out.How.String(), v.T("phase."+sr.Out.Phase.String(), sr.Out.Number))
		}
		v.Seats = append(v.Seats, sv)
	}
	if in.Dealt && phase == mafia.PhaseNight && num == 1 && !v.Finished {
		// The roles were dealt at random on the server: before the acquaintance the host hands them out, seat by
		// seat, with the gesture of each role (000 L69). Steps he only walks through: no event records them.
		for _, sr := range res.Seats {
			v.Steps = append(v.Steps, StepView{Limit: handoutLimit, Current: len(v.Steps) == 0,
				Key:   fmt.Sprintf("g%d-night1-handout-%d", in.Game, sr.Seat),
				Label: v.T("step.handout", sr.Seat, v.T("role."+sr.Role.String()), v.T("gesture."+mafia.RoleGesture(sr.Role).String()))})
		}
	}
	for _, ps := range next.Plan() {
		if v.Finished && ps.Step == mafia.StepLastWord {
			// The player who left by the game's deciding vote or shot still has his minute (matrix R73, 2.6.1: seed
			// 002 §7.11). Nothing records a last word once the game is over, so the plan says it as what is left to
			// do, with its time, beside checking the points and saving, never as a speech of a game going on
			// (issue 24: "Остання промова" stood as the current step until the save).
			v.Steps = append(v.Steps, StepView{Key: fmt.Sprintf("g%d-end-last-word-%d-%d", in.Game, ps.Seat, len(st.Record.Events)),
				Label: v.T("step.end_last_word", ps.Seat), Limit: ps.Limit, Current: len(v.Steps) == 0})
			continue
		}
		if v.Finished && ps.Step == mafia.StepGameOver {
			v.Steps = append(v.Steps, v.endSteps(len(st.Record.Events))...)
			continue
		}
		sv := StepView{Label: v.stepLabel(ps, g.Role(ps.Seat)), Limit: ps.Limit, Current: len(v.Steps) == 0 || ps.Current}
		if ps.Event != mafia.NoEvent {
			sv.Event = ps.Event.String()
		}
		sv.Key = fmt.Sprintf("g%d-%s%d-%s-%d-%d", in.Game, phase, num, ps.Step, ps.Seat, len(st.Record.Events))
		if ps.Step == mafia.StepSpeech || ps.Step == mafia.StepLastWord {
			sv.Key = fmt.Sprintf("g%d-%s%d-%s-%d", in.Game, phase, num, ps.Step, ps.Seat)
		}
		v.Steps = append(v.Steps, sv)
		v.speeches = v.speeches || ps.Step == mafia.StepSpeech
		if ps.Step == mafia.StepSpeech && ps.Current {
			for j := range v.Seats {
				v.Seats[j].Speaking = v.Seats[j].N == ps.Seat
			}
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
	v.taps(g, &next, &res)
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
	v.BestMover = next.BestMoveSeat()
	// The next speech ends the morning, and the best move with it (R56): while it is due, recording it is the
	// main action and calling the next speaker is a separate choice.
	v.BMDue = v.BestMover != 0
	if v.BMDue && v.Allowed["speech"] && len(v.Actors) > 0 {
		v.SkipBM = v.Actors[0]
	}
	if phase == mafia.PhaseNight && v.Allowed["shot"] {
		v.Shots, v.Shooters = nightShots(st.Record, g)
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
			killed := false
			for _, sr := range res.Seats {
				if sr.Out.How == mafia.OutKilled && int(sr.Out.Number) == num {
					v.Morning = v.T("game.killed", num, sr.Seat)
					killed = true
				}
			}
			if twice := g.ShotTwice().List(); !killed && len(twice) > 0 {
				v.MorningWhy = v.T("game.miss_twice", twice[0]) // the engine keeps last night's until the next (R43)
			}
		}
	}
	if phase == mafia.PhaseDay && v.Live {
		v.Announce = v.announce(g, res, num)
	}
	for _, sr := range res.Seats {
		row := PointsRow{N: sr.Seat, Name: st.Record.Seats[sr.Seat-1].Name, Role: v.T("role." + sr.Role.String()), Total: PointsIn(in.Lang, sr.Points)}
		for _, it := range sr.Score {
			row.Items = append(row.Items, v.T("item."+it.Item.String())+" "+SignedIn(in.Lang, it.Points))
		}
		v.Points = append(v.Points, row)
	}
	for _, h := range rs.AdjustSteps() {
		v.Adjust = append(v.Adjust, adjustStep(in.Lang, h))
	}
	v.FreeAdjust = rs.Points == mafia.PointsXCraft
	v.AdjustHint = i18n.Decimal(in.Lang, "0.2")
	v.Chrono = chronology(cat, in.Lang, st.Record, in.Times, in.Notes)
	if !v.Secret {
		for i := range v.Chrono {
			v.Chrono[i].Secret = false
		}
	}
	for i := len(v.Chrono) - 1; i >= 0; i-- {
		if last := v.Chrono[i]; !last.Note {
			v.LastEvent, v.LastSecret = last.Text, last.Secret
			break
		}
	}
	v.seatCards()
	return v
}

// endSteps are the plan's steps once the game is over, after the best move if it is due: check the points (where
// the rule set has them) and save the game.
func (v *View) endSteps(events int) []StepView {
	var out []StepView
	if v.HasPoints {
		out = append(out, StepView{Key: fmt.Sprintf("g%d-end-points-%d", v.GameID, events), Label: v.T("step.end_points")})
	}
	out = append(out, StepView{Key: fmt.Sprintf("g%d-end-save-%d", v.GameID, events), Label: v.T("step.end_save")})
	if len(v.Steps) == 0 {
		out[0].Current = true
	}
	return out
}

// UndoConfirm is the undo box's question with the last event, which is inside a secret element when it is secret:
// the catalogue's sentence is escaped around it, wherever the language puts it.
func (v *View) UndoConfirm() template.HTML {
	const mark = "\x01"
	last := template.HTMLEscapeString(v.LastEvent)
	if v.LastSecret {
		last = `<span class="secret">` + last + `</span>`
	}
	return template.HTML(strings.Replace(template.HTMLEscapeString(v.T("game.undo_confirm", mark)), mark, last, 1))
}

// seatCards decides what each seat's card shows and offers, as the template did with its conditions.
func (v *View) seatCards() {
	v.L = Labels{Guest: v.T("new.guest"), Foul: v.T("game.foul"), Warning: v.T("game.warning"), Muted: v.T("game.muted"), Nominated: v.T("game.nominated_tag")}
	for i := range v.Seats {
		s := &v.Seats[i]
		if s.Fouls > 0 {
			s.FoulsText = v.N("game.fouls.n", s.Fouls)
		}
		if s.Warnings > 0 {
			s.WarningsText = v.N("game.warnings.n", s.Warnings)
		}
		if !v.Live {
			continue
		}
		s.CanNominate = v.Allowed["nominate"] && s.Alive && !s.Nominated
		s.ShowNominate = s.CanNominate || s.Alive && (v.Speaker != 0 || v.speeches)
		s.CanShoot = v.Allowed["shot"] && len(v.Shooters) > 0 && s.Alive
		s.CanCheck = v.Checker != 0 && s.Alive && s.N != v.Checker
		s.CanHeal = v.Healer != 0 && s.Alive
		s.CanFoul = s.Disciplinable && v.Allowed["foul"]
		s.CanWarn = s.Disciplinable && v.Allowed["warning"] && v.WarningsMatter
		s.KeyNominate, s.KeyShoot, s.KeyCheck = v.key(s.CanNominate), v.key(s.CanShoot), v.key(s.CanCheck)
		s.KeyHeal, s.KeyFoul, s.KeyWarn = v.key(s.CanHeal), v.key(s.CanFoul), v.key(s.CanWarn)
		if s.CanShoot {
			s.ShootLabel = v.T("game.shoot_all", s.N)
		}
	}
}

// handoutLimit is the time the host takes to show one player his role's gesture: as long as the don's and the
// sheriff's wake on night 1 (000 L63: "не більше 10 секунд").
const handoutLimit = 10

// RulesTitle is the rule set's title in the language (the engine's Title is English).
func RulesTitle(cat i18n.Catalog, lang string, rs *mafia.Rules) string {
	if key := "ruleset." + rs.ID; cat.Known(lang, key) {
		return cat.T(lang, key)
	}
	return rs.Title
}

// RoleLetter is the role's protocol letter in the language (seed 002 §P7.4.1 gives the Russian ones).
func RoleLetter(cat i18n.Catalog, lang string, r mafia.Role) string {
	if key := "letter." + r.String(); cat.Known(lang, key) {
		return cat.T(lang, key)
	}
	return r.Letter()
}

// tonight returns the events of the night under way (nightShots is asked at night only): those after the last
// "night" event, or from the start on night 1.
func tonight(rec *record.Record) []record.Event {
	for i := len(rec.Events) - 1; i >= 0; i-- {
		if rec.Events[i].Type == mafia.EvNight {
			return rec.Events[i+1:]
		}
	}
	return rec.Events
}

// nightShots lists tonight's shots in the order recorded, each black once (his last target), and the living black
// players who have not shot yet.
func nightShots(rec *record.Record, g *mafia.Game) ([]ShotView, []int) {
	var shots []ShotView
	var shot mafia.Seats
	twice := g.ShotTwice()
	for _, e := range tonight(rec) {
		if e.Type != mafia.EvShot {
			continue
		}
		by := int(e.Seat)
		if shot.Has(by) {
			for i := range shots {
				if shots[i].By == by {
					shots[i].Target = int(e.Target)
				}
			}
			continue
		}
		shot = shot.Add(by)
		shots = append(shots, ShotView{By: by, Target: int(e.Target), Twice: twice.Has(by)})
	}
	return shots, g.Shooters().List()
}

// announce says what the host announces today: each voting round with its counts (the default votes the last
// candidate got, R26, and a single candidate's whole table) and what the engine decided; why today's vote is
// cancelled or not held, as the engine says (Game.NoVote).
func (v *View) announce(g *mafia.Game, res mafia.Result, num int) []string {
	var out []string
	seats := func(list []int) string {
		parts := make([]string, len(list))
		for i, s := range list {
			parts[i] = "#" + strconv.Itoa(s)
		}
		return strings.Join(parts, ", ")
	}
	var today *mafia.DayResult
	if n := len(res.Days); n > 0 && res.Days[n-1].Day == num {
		today = &res.Days[n-1]
	}
	rounds := 0
	if today != nil {
		for _, r := range today.Rounds {
			var text string
			if r.Lift {
				text = v.N("announce.lift.n", r.Yes)
			} else {
				rounds++
				var parts []string
				for i, c := range r.Counts {
					last := i == len(r.Counts)-1
					switch {
					case last && len(r.Counts) == 1 && g.Options().DefaultVoteToLast:
						parts = append(parts, v.T("announce.single", c.Seat, c.Votes))
					case last && r.Default > 0:
						parts = append(parts, v.T("announce.count_default", c.Seat, c.Votes, r.Default))
					default:
						parts = append(parts, v.T("announce.count", c.Seat, c.Votes))
					}
				}
				text = v.T("announce.round", rounds, strings.Join(parts, ", "))
			}
			switch r.Outcome {
			case mafia.OutcomeLeave:
				if len(r.Seats) == 1 {
					text += " → " + v.T("announce.leave", r.Seats[0])
				} else {
					text += " → " + v.T("announce.leave_all", seats(r.Seats))
				}
			case mafia.OutcomeRevote:
				text += " → " + v.T("announce.revote", seats(r.Seats), g.Rules().Times.Tie)
			case mafia.OutcomeLift:
				if len(r.Seats) == 1 {
					text += " → " + v.T("announce.lift_one", r.Seats[0]) // day1_lift_only: the single leader
				} else {
					text += " → " + v.T("announce.lift_due", seats(r.Seats))
				}
			case mafia.OutcomeStay:
				text += " → " + v.T("announce.stay")
			}
			out = append(out, text)
		}
	}
	// why there is no vote today, as the engine decided it (R29, R68, R69, C-11, C-36); the view only words it
	nv := g.NoVote()
	who := "" // "#4 — disqualified, Day 2": the removal that caused it (the engine removes before it cancels)
	if o := g.Out(nv.Seat); nv.Seat != 0 && o.How != mafia.NotOut {
		who = "#" + strconv.Itoa(nv.Seat) + " — " + v.T("out."+o.How.String(), v.T("phase."+o.Phase.String(), int(o.Number)))
	}
	switch nv.Why {
	case mafia.NoVoteBefore, mafia.NoVoteNight, mafia.NoVoteAfterResult:
		out = append(out, v.T("announce.cancelled", who))
	case mafia.NoVoteListOpen:
		out = append(out, v.T("announce.cancelled_list_open", who))
	case mafia.NoVoteListClosed:
		out = append(out, v.T("announce.cancelled_list_closed", who))
	case mafia.NoVoteUnsure:
		out = append(out, v.T("announce.list_unsure", who))
	case mafia.NoVoteNoCandidates:
		out = append(out, v.T("announce.no_candidates"))
	case mafia.NoVoteCandidatesLeft:
		if nv.Seat != 0 {
			out = append(out, v.T("announce.candidate_left", nv.Seat))
		} else {
			out = append(out, v.T("announce.candidates_left"))
		}
	case mafia.NoVoteSingleDay1:
		out = append(out, v.T("announce.single_day1"))
	case mafia.NoVoteDay1:
		out = append(out, v.T("announce.day1_no_vote"))
	}
	return out
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
	return chronology(cat, lang, rec, times, nil)
}

// chronology is Chronology with notes, each said in the phase it fell in (after the events it follows).
func chronology(cat i18n.Catalog, lang string, rec *record.Record, times []string, notes []ChronoNote) []ChronoLine {
	g, err := mafia.NewGame(rec.Rules, rec.Options, rec.Roles())
	if err != nil {
		return nil
	}
	out := make([]ChronoLine, 0, len(rec.Events)+len(notes))
	note := func(i int) {
		for _, n := range notes {
			if n.After == i || (i == len(rec.Events) && n.After > i) {
				phase, num := g.Phase()
				out = append(out, ChronoLine{Text: cat.T(lang, "phase."+phase.String(), num) + ", " + n.Text, Note: true})
			}
		}
	}
	whole := true
	for i, e := range rec.Events {
		note(i)
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
			whole = false
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
		// what the public view hides while the game goes on: the night's actions, and the points' corrections, since
		// points reveal teams
		secret := spectator.Hidden(e.Type)
		out = append(out, ChronoLine{Text: cat.T(lang, "phase."+phase.String(), num) + ", " + at + ", " + text, Secret: secret})
	}
	if whole { // the notes after the last event
		note(len(rec.Events))
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
		return T("ev.adjust", e.Seat, SignedIn(lang, int(e.Points)))
	}
	return e.Type.String()
}

// RuleText says a broken rule in the language, in words, with the seat it concerns: "That player is already
// nominated today (#7)". The rule's reference (re.Rule: "R22, C-19", "000 L105") and the engine's English detail
// stay out of it: a host reads words, not the matrix's ids (issue 24), and the detail is English only (and names
// events by their record type, "best_move").
func RuleText(cat i18n.Catalog, lang string, err error, re *mafia.RuleError) string {
	text := cat.T(lang, "rule."+re.Code)
	var v *mafia.Violation
	if errors.As(err, &v) && v.Seat != 0 {
		text += " (#" + strconv.Itoa(v.Seat) + ")"
	}
	return text
}

// ErrorText says why the browser's engine refused a form: the form could not be read, or a rule forbids it. Any
// other error is no refusal but a failure: ok is false, and the text is empty.
func ErrorText(cat i18n.Catalog, lang string, err error) (text string, ok bool) {
	var fe *FormError
	if errors.As(err, &fe) {
		msg, ok := cat.Msg(lang, fe.Format, fe.Args...)
		if !ok {
			msg = "[msg:" + fe.Format + "]"
		}
		return cat.T(lang, "error.invalid", msg), true
	}
	var re *mafia.RuleError
	if errors.As(err, &re) {
		return RuleText(cat, lang, err, re), true
	}
	return "", false
}

// PointsIn writes hundredths as the language writes a number with two places: "1,30", "-0,05" in Ukrainian and
// Russian, "1.30" in English. Every page shows points this way (i18n.Decimal).
func PointsIn(lang string, h int) string { return i18n.Decimal(lang, Points(h)) }

// SignedIn writes hundredths with a sign as the language writes them: "+0,30" in Ukrainian, "+0.30" in English.
func SignedIn(lang string, h int) string { return i18n.Decimal(lang, Signed(h)) }

// Points writes hundredths as a signed decimal with two places and a decimal point, for programs (CSV, JSON):
// "1.30", "-0.05". A page shows PointsIn.
func Points(h int) string {
	sign := ""
	if h < 0 {
		sign, h = "-", -h
	}
	return fmt.Sprintf("%s%d.%02d", sign, h/100, h%100)
}
