package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

type seatView struct {
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

type stepView struct {
	Key     string // identifies the step for the page's timer
	Label   string
	Seat    int
	Limit   int
	Event   string
	Current bool
	Lost    bool
}

type voteView struct {
	Candidate int
	Last      bool // the hands not raised yet go to this candidate (the engine's RestToLast)
	Counts    []string
}

type pointsRow struct {
	N          int
	Name, Role string
	Total      string
	Items      []string
}

type chronoLine struct {
	Seq  int
	Text string
}

type gameView struct {
	Page
	Game       *club.Game
	Version    int64
	RulesName  string
	Phase      string
	Live       bool
	Error      string
	Seats      []seatView
	Steps      []stepView
	Next       mafia.Next
	Allowed    map[string]bool
	Actors     []int
	Speaker    int
	Vote       *voteView
	Lift       bool
	Checker    int
	Healer     int
	BestMover  int
	Answers    []string
	Nominated  []string
	Finished   bool
	Winner     string
	Points     []pointsRow
	Adjust     []string // the allowed adjustment steps, for the club's rules
	FreeAdjust bool
	Chrono     []chronoLine
	Audit      []string
	LastEvent  string
	HasPoints  bool
	IsChief    bool   // the viewer is the chief judge of this tournament game
	Morning    string // the morning's announcement
	// WarningsMatter: warnings are the discipline scale (home-ua), so each seat gets a warning button.
	WarningsMatter bool
}

// renderGame shows the host page: the table, what happens next as the engine says, the actions it allows, the
// points and the chronology.
func (s *Server) renderGame(w http.ResponseWriter, r *http.Request, code int, st *club.State, errText string) {
	p := s.page(r)
	g := st.Play
	rs := g.Rules()
	next := g.Next()
	res := g.Result()
	v := gameView{Page: p, Game: st.Game, Version: st.Game.Version, RulesName: rs.Title, Live: st.Game.Status == club.GameLive,
		Error: errText, Next: next, Allowed: map[string]bool{}, Finished: g.Finished(), HasPoints: rs.HasPoints(),
		WarningsMatter: rs.Mute == mafia.MuteWarnings}
	v.Title = p.T("game.title", st.Game.ID)
	phase, num := g.Phase()
	v.Phase = p.T("phase."+phase.String(), num)
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
		v.Nominated = append(v.Nominated, p.T("game.nomination", next.Nominators[i], next.Nominations[i]))
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
		info := st.Game.Seats[sr.Seat-1]
		sv := seatView{N: sr.Seat, Name: info.Name, Guest: info.PlayerID == 0, Role: p.T("role." + sr.Role.String()),
			RoleLetter: sr.Role.Letter(), Black: sr.Team == mafia.Black, Alive: sr.Alive, Fouls: sr.Fouls, Warnings: sr.Warnings,
			Muted: next.Muted.Has(sr.Seat), Nominated: nominated.Has(sr.Seat), Speaking: next.Speaker == sr.Seat,
			Actor: next.Actors.Has(sr.Seat), Candidate: candidates.Has(sr.Seat), Voted: next.Voted.Has(sr.Seat),
			Disciplinable: st.Play.Disciplinable(sr.Seat), Points: formatPoints(sr.Points)}
		if sr.Out.How != mafia.NotOut {
			sv.Out = p.T("out."+sr.Out.How.String(), p.T("phase."+sr.Out.Phase.String(), sr.Out.Number))
		}
		v.Seats = append(v.Seats, sv)
	}
	for i, ps := range next.Plan() {
		sv := stepView{Label: s.stepLabel(p, ps, g.Role(ps.Seat)), Seat: ps.Seat, Limit: ps.Limit, Current: i == 0 || ps.Current,
			Lost: ps.Speech == mafia.SpeechLost}
		if ps.Event != mafia.NoEvent {
			sv.Event = ps.Event.String()
		}
		sv.Key = fmt.Sprintf("g%d-%s%d-%s-%d-%d", st.Game.ID, phase, num, ps.Step, ps.Seat, len(st.Log))
		if ps.Step == mafia.StepSpeech || ps.Step == mafia.StepLastWord {
			sv.Key = fmt.Sprintf("g%d-%s%d-%s-%d", st.Game.ID, phase, num, ps.Step, ps.Seat)
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
	first := func(step mafia.Step) (mafia.PlanStep, bool) {
		for _, ps := range next.Plan() {
			if ps.Step == step {
				return ps, true
			}
		}
		return mafia.PlanStep{}, false
	}
	if ps, ok := first(mafia.StepVote); ok && v.Allowed["vote"] {
		vv := &voteView{Candidate: ps.Seat, Last: next.RestToLast}
		for i := 0; i < next.NCand; i++ {
			c := int(next.Candidates[i])
			if c == ps.Seat {
				break
			}
			vv.Counts = append(vv.Counts, p.T("game.votes_for", c, next.Counts[i]))
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
		v.Answers = append(v.Answers, p.T("game.answer_don", p.T("answer."+next.DonAnswer.String()), p.T("gesture."+next.DonAnswer.Gesture().String())))
	}
	if next.SheriffAnswer != mafia.NoAnswer {
		v.Answers = append(v.Answers, p.T("game.answer_sheriff", p.T("answer."+next.SheriffAnswer.String()), p.T("gesture."+next.SheriffAnswer.Gesture().String())))
	}
	if v.Finished {
		v.Winner = p.T("winner." + g.Winner().String())
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
			v.Morning = p.T("game.miss", num)
			for _, sr := range res.Seats {
				if sr.Out.How == mafia.OutKilled && int(sr.Out.Number) == num {
					v.Morning = p.T("game.killed", num, sr.Seat)
				}
			}
		}
	}
	for _, sr := range res.Seats {
		row := pointsRow{N: sr.Seat, Name: st.Game.Seats[sr.Seat-1].Name, Role: p.T("role." + sr.Role.String()), Total: formatPoints(sr.Points)}
		for _, it := range sr.Score {
			row.Items = append(row.Items, p.T("item."+it.Item.String())+" "+signed(it.Points))
		}
		v.Points = append(v.Points, row)
	}
	for _, h := range rs.AdjustSteps() {
		v.Adjust = append(v.Adjust, strings.TrimRight(formatPoints(h), "0")) // "0.1", "-0.3"
	}
	v.FreeAdjust = rs.Points == mafia.PointsXCraft
	if info, err := s.svc.Tournaments.Info(r.Context(), p.User, st); err == nil && info != nil {
		v.IsChief = info.IsChief
	}
	v.Chrono = s.chronology(p, st)
	if len(st.Log) > 0 {
		v.LastEvent = v.Chrono[len(v.Chrono)-1].Text
	}
	audit, err := s.svc.Games.Audit(r.Context(), p.User, st)
	if err == nil {
		for _, a := range audit {
			detail := a.Detail
			if a.Action == "undo" {
				if e, err := record.DecodeEvent([]byte(a.Detail), len(st.Game.Seats)); err == nil {
					detail = s.describe(p, e, "")
				}
			}
			line := p.T("audit." + a.Action)
			if a.Action == "undo" {
				line = p.T("audit.undo", detail)
			}
			v.Audit = append(v.Audit, p.Time(a.At)+" · "+a.ByName+" · "+line)
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	s.render(w, "game", v)
}

func signed(h int) string {
	if h > 0 {
		return "+" + formatPoints(h)
	}
	return formatPoints(h)
}

func (s *Server) stepLabel(p Page, ps mafia.PlanStep, role mafia.Role) string {
	key := "step." + ps.Step.String()
	switch {
	case ps.Step == mafia.StepSpeech && ps.Speech == mafia.SpeechLost:
		return p.T("step.speech_lost", ps.Seat)
	case ps.Step == mafia.StepSpeech && ps.Speech == mafia.SpeechShort:
		return p.T("step.speech_short", ps.Seat)
	case ps.WithBestMove:
		return p.T("step.last_word_bm", ps.Seat)
	case ps.Step == mafia.StepDonWake || ps.Step == mafia.StepSheriffWake:
		// 000 L63, L69: the host shows each his role's gesture
		return p.T(key, ps.Seat, p.T("gesture."+mafia.RoleGesture(role).String()))
	case ps.Seat != 0:
		return p.T(key, ps.Seat)
	}
	return p.T(key)
}

// chronology describes every event of the log with its phase and time: "Day 2, 19:42:05, #4 nominated #7".
func (s *Server) chronology(p Page, st *club.State) []chronoLine {
	rec := st.Record
	g, err := mafia.NewGame(rec.Rules, rec.Options, rec.Roles())
	if err != nil {
		return nil
	}
	out := make([]chronoLine, 0, len(rec.Events))
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
			answer = p.T("answer." + a.String())
		}
		if err := g.Apply(e.Event); err != nil {
			s.Log.Error("chronology: a stored event does not apply", "game", st.Game.ID, "event", i+1, "err", err)
		}
		text := s.describe(p, shown, answer)
		if e.Reason != "" {
			text += " — " + e.Reason
		}
		at := ""
		if i < len(st.Log) {
			at = p.Clock(st.Log[i].At)
		}
		out = append(out, chronoLine{Seq: i + 1, Text: p.T("phase."+phase.String(), num) + ", " + at + ", " + text})
	}
	return out
}

func (s *Server) describe(p Page, e record.Event, answer string) string {
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
		return p.T("ev." + e.Type.String())
	case mafia.EvSpeech, mafia.EvFoul, mafia.EvWarning, mafia.EvDisqualify, mafia.EvTeamLoss:
		return p.T("ev."+e.Type.String(), e.Seat)
	case mafia.EvNominate, mafia.EvShot, mafia.EvHeal:
		return p.T("ev."+e.Type.String(), e.Seat, e.Target)
	case mafia.EvCheck:
		return p.T("ev.check", e.Seat, e.Target, answer)
	case mafia.EvVote:
		if !e.VotersGiven {
			return p.T("ev.vote_rest", e.Target)
		}
		return p.T("ev.vote", e.Target, e.Voters.Len(), list(e.Voters))
	case mafia.EvLift:
		return p.T("ev.lift", e.Voters.Len(), list(e.Voters))
	case mafia.EvBestMove:
		var named mafia.Seats
		for _, t := range e.Targets[:e.NTargets] {
			named = named.Add(int(t))
		}
		return p.T("ev.best_move", e.Seat, list(named))
	case mafia.EvAdjust:
		return p.T("ev.adjust", e.Seat, signed(int(e.Points)))
	}
	return e.Type.String()
}

// ruleText says a broken rule in the user's language, with the seats it concerns and the rule's reference.
func (s *Server) ruleText(lang string, err error, re *mafia.RuleError) string {
	text := s.Catalog.T(lang, "rule."+re.Code)
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
