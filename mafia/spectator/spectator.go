// Package spectator computes what a spectator of a game may know (../shared/spec/public-view.md): the public view
// of a game record, event by event. Like the engine it is pure: standard library only, no I/O, no clock.
//
// The public view is built by replaying the whole record with the engine (who leaves at a night depends on the
// night's shots) but it is read from the engine only at public moments, through what the table sees: after a
// hidden event (a shot, a check, a heal, a correction of points) the view stays the one of the last public event,
// byte for byte, so that neither its content nor its change tells a spectator that something was recorded.
package spectator

import (
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// Mode says what a view may show.
type Mode uint8

// The modes.
const (
	// Public shows only what the people at the table see, when they see it, and everything once the game is over.
	Public Mode = iota
	// Broadcast shows everything as it happens (roles, night actions, check answers): the caller shows it late,
	// cutting the record at a delay (the club's broadcast with roles for streams).
	Broadcast
)

// View is a game as a spectator sees it. It never holds the game's id or the time of the view: two games with the
// same public course give the same View.
type View struct {
	Rules    string `json:"rules"`
	Phase    string `json:"phase"` // "night" or "day"
	Number   int    `json:"number"`
	Finished bool   `json:"finished"`
	Winner   string `json:"winner,omitempty"`
	// Roles says whether the seats carry their roles (the end, the broadcast, or a card shown on leaving).
	Roles  bool   `json:"roles"`
	Points bool   `json:"points"` // the seats carry their points (only at the end)
	Voting string `json:"voting"` // today's voting: pending, voting, held, not_held, cancelled
	Seats  []Seat `json:"seats"`
	Step   Step   `json:"step"`
	// Morning: the day has just begun and Killed is the night's result (0: nobody was killed).
	Morning     bool         `json:"morning"`
	Killed      int          `json:"killed,omitempty"`
	Nominations []Nomination `json:"nominations"`
	Votes       []Line       `json:"votes"` // today's voting rounds, in order (vote and lift lines)
	Lines       []Line       `json:"lines"` // the chronology of what may be shown
	// Since is when the last event shown was recorded (RFC 3339, "" when none): the current step's timer, when
	// it runs, runs from it.
	Since string `json:"since,omitempty"`
}

// Seat is one seat as a spectator sees it.
type Seat struct {
	N         int    `json:"n"`
	Name      string `json:"name"`
	Player    string `json:"player,omitempty"` // the club profile ("p-12"), empty for a guest
	Role      string `json:"role,omitempty"`   // only when shown
	Black     bool   `json:"black,omitempty"`  // only when the role is shown
	Alive     bool   `json:"alive"`
	Out       string `json:"out,omitempty"` // how he left: voted, killed, fouls, disqualified, team_loss
	OutPhase  string `json:"out_phase,omitempty"`
	OutNumber int    `json:"out_number,omitempty"`
	Fouls     int    `json:"fouls"`
	Warnings  int    `json:"warnings"`
	Muted     bool   `json:"muted,omitempty"`
	Speaking  bool   `json:"speaking,omitempty"`
	Candidate bool   `json:"candidate,omitempty"`
	Nominated bool   `json:"nominated,omitempty"`
	LastWord  bool   `json:"last_word,omitempty"`
	Points    int    `json:"points,omitempty"` // hundredths, only when View.Points
}

// Step is what happens at the table now, as the table sees it. At night in the public view it is only "night".
type Step struct {
	Kind    string `json:"kind"` // a mafia.Step name, or "night"
	Seat    int    `json:"seat,omitempty"`
	Limit   int    `json:"limit,omitempty"`   // seconds
	Running bool   `json:"running,omitempty"` // under way since View.Since (a speech whose event is recorded)
	Speech  string `json:"speech,omitempty"`  // for a speech: full, short or lost
}

// Nomination is one of today's nominations.
type Nomination struct {
	By     int `json:"by"`
	Target int `json:"target"`
}

// Line is one event of the chronology, as shown.
type Line struct {
	Phase   string `json:"phase"`
	Number  int    `json:"number"`
	At      string `json:"at,omitempty"`
	Type    string `json:"type"`
	Seat    int    `json:"seat,omitempty"`
	Target  int    `json:"target,omitempty"`
	Voters  []int  `json:"voters,omitempty"`  // vote (the default hands counted), lift
	Targets []int  `json:"targets,omitempty"` // best move
	Killed  int    `json:"killed,omitempty"`  // day: who the night killed (0: nobody)
	Answer  string `json:"answer,omitempty"`  // check: what the checker learned (when shown)
	Points  int    `json:"points,omitempty"`  // adjust
	Reason  string `json:"reason,omitempty"`  // only at the end or in the broadcast
}

// Hidden reports whether an event of type t is hidden from the public view while the game goes on (spec table:
// a shot, a check and a heal show nothing at all; a correction of points nothing until the end).
func Hidden(t mafia.EventType) bool {
	switch t {
	case mafia.EvShot, mafia.EvCheck, mafia.EvHeal, mafia.EvAdjust:
		return true
	}
	return false
}

// Of returns the view of the record's first n events (every event when n < 0 or n is more than there are) in
// the mode. An event the engine refuses ends the replay there: a stored record always replays.
func Of(rec *record.Record, n int, mode Mode) (*View, error) {
	if n < 0 || n > len(rec.Events) {
		n = len(rec.Events)
	}
	g, err := mafia.NewGame(rec.Rules, rec.Options, rec.Roles())
	if err != nil {
		return nil, err
	}
	var public, all []Line
	shown := snapshot(g, rec, mode) // the view at the last public moment
	since := ""
	for _, e := range rec.Events[:n] {
		phase, num := g.Phase()
		line := Line{Phase: phase.String(), Number: num, At: e.At, Type: e.Type.String(), Seat: int(e.Seat),
			Target: int(e.Target), Reason: e.Reason}
		switch e.Type {
		case mafia.EvVote:
			voters := e.Voters
			if next := g.Next(); next.RestToLast {
				voters |= next.Rest // the default rule gives the last candidate every hand not raised yet (R26)
			}
			line.Voters = nonNil(voters.List())
		case mafia.EvLift:
			line.Voters = nonNil(e.Voters.List())
		case mafia.EvCheck:
			line.Answer = g.Answer(int(e.Seat), int(e.Target)).String()
		case mafia.EvBestMove:
			for _, t := range e.Targets[:e.NTargets] {
				line.Targets = append(line.Targets, int(t))
			}
		case mafia.EvAdjust:
			line.Points = int(e.Points)
		}
		if err := g.Apply(e.Event); err != nil {
			break
		}
		if e.Type == mafia.EvDay {
			line.Killed = killedAt(g, num)
		}
		all = append(all, line)
		if mode == Broadcast || !Hidden(e.Type) || g.Finished() {
			public = append(public, line)
			shown = snapshot(g, rec, mode)
			since = e.At
		}
	}
	v := shown
	v.Since = since
	v.Lines = public
	if g.Finished() || mode == Broadcast {
		v.Lines = all
	}
	if !g.Finished() && mode == Public {
		for i := range v.Lines {
			v.Lines[i].Reason = "" // said at the table or not, a host's words stay in the record until the end
		}
	}
	if v.Lines == nil {
		v.Lines = []Line{}
	}
	// today's voting rounds: the vote and lift lines since the day began
	v.Votes = []Line{}
	for i := len(v.Lines) - 1; i >= 0 && v.Phase == "day"; i-- {
		l := v.Lines[i]
		if l.Type == "day" || l.Phase != "day" || l.Number != v.Number {
			break
		}
		if l.Type == "vote" || l.Type == "lift" {
			v.Votes = append([]Line{l}, v.Votes...)
		}
	}
	return &v, nil
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// killedAt returns the seat the night before day number num killed, 0 for nobody (a miss and a healed target look
// the same: spec, event "day").
func killedAt(g *mafia.Game, num int) int {
	for s := 1; s <= g.Players(); s++ {
		if o := g.Out(s); o.How == mafia.OutKilled && int(o.Number) == num && o.Phase == mafia.PhaseNight {
			return s
		}
	}
	return 0
}

// snapshot reads the view from the engine's state through what the mode may show. In the public view of a game
// in progress it reads only public things: the phase, who is out and how, fouls, warnings, and during the day the
// host's plan (speeches, nominations, votes), never a night step or a role.
func snapshot(g *mafia.Game, rec *record.Record, mode Mode) View {
	phase, num := g.Phase()
	fin := g.Finished()
	v := View{Rules: g.Rules().ID, Phase: phase.String(), Number: num, Finished: fin, Voting: g.Voting().String(),
		Roles: fin || mode == Broadcast, Points: fin, Nominations: []Nomination{}}
	if fin {
		v.Winner = g.Winner().String()
	}
	next := g.Next()
	day := phase == mafia.PhaseDay || fin
	v.Seats = make([]Seat, g.Players())
	for i := range v.Seats {
		s := i + 1
		o := g.Out(s)
		st := Seat{N: s, Name: rec.Seats[i].Name, Player: rec.Seats[i].Player, Alive: o.How == mafia.NotOut,
			Fouls: g.Fouls(s), Warnings: g.Warnings(s), Muted: next.Muted.Has(s)}
		if o.How != mafia.NotOut {
			st.Out, st.OutPhase, st.OutNumber = o.How.String(), o.Phase.String(), int(o.Number)
		}
		if v.Roles || g.Revealed(s) {
			st.Role = g.Role(s).String()
			st.Black = g.Role(s).Team() == mafia.Black
		}
		if fin {
			st.Points = g.Points(s)
		}
		v.Seats[i] = st
	}
	if !day && mode == Public {
		v.Step = Step{Kind: "night"}
		return v
	}
	for i := 0; i < next.NNom; i++ {
		v.Nominations = append(v.Nominations, Nomination{By: int(next.Nominators[i]), Target: int(next.Nominations[i])})
		v.Seats[next.Nominations[i]-1].Nominated = true
	}
	for i := 0; i < next.NCand; i++ {
		v.Seats[next.Candidates[i]-1].Candidate = true
	}
	for _, ps := range next.Plan() {
		if ps.Step == mafia.StepLastWord {
			v.Seats[ps.Seat-1].LastWord = true
		}
	}
	if next.N > 0 {
		ps := next.Steps[0]
		v.Step = Step{Kind: ps.Step.String(), Seat: ps.Seat, Limit: ps.Limit, Running: ps.Current}
		if ps.Step == mafia.StepSpeech {
			v.Step.Speech = ps.Speech.String()
			if ps.Current {
				v.Seats[ps.Seat-1].Speaking = true
			}
		}
	}
	// the morning's news (R12, R51): a day that has begun and where nobody has spoken yet
	if phase == mafia.PhaseDay && !fin && num >= 2 && next.Speaker == 0 && (g.Voting() == mafia.VotingPending || g.Voting() == mafia.VotingCancelled) && next.NNom == 0 {
		v.Morning = true
		v.Killed = killedAt(g, num)
	}
	return v
}
