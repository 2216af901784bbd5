package hostview

import (
	"fmt"
	"net/url"

	"mafiaclub/mafia"
)

// The table app never misleads a tap (issue 24): voting begins by its own step once the speeches are over, and a
// vote with no hands raised is the host's explicit choice ("nobody"), never the main action tapped once too often.
// An action that removes a player asks first (ask.go).

// Voting is the vote under way, as the page offers it: the step that starts it, and whether it has begun.
type Voting struct {
	// Begun: the vote is the plan's first step, so its form is open. While a speech is still under way before it
	// (the day's last speech, the tie speeches) the form stays folded behind the step that starts the vote, the
	// main action then: the speech has no event that ends it, and the vote's form would otherwise take the first
	// tap after it, with no hands (issue 24).
	Begun bool
	// Key names the voting round, so that a round's folded form is a new element, not the last one's open one.
	Key string
	// Start is the step's label: the speeches are over, start the vote (or the re-vote after a tie).
	Start string
	// Nobody: the candidate may get no hands, which the host records with the "nobody" button; the last candidate
	// who gets the hands not raised yet (R26) has none.
	Nobody bool
}

// taps decides how the vote begins, from the engine's plan, and what the page's taps ask (asks).
func (v *View) taps(g *mafia.Game, next *mafia.Next, res *mafia.Result) {
	if !v.Live {
		return
	}
	v.asks(g)
	if v.Vote != nil {
		plan := next.Plan()
		rounds := 0
		if len(res.Days) > 0 {
			if d := res.Days[len(res.Days)-1]; d.Day == next.Number {
				rounds = len(d.Rounds)
			}
		}
		vt := &Voting{Begun: len(plan) > 0 && plan[0].Step == mafia.StepVote, Key: fmt.Sprintf("%d-%d", next.Number, rounds),
			Start: v.T("taps.start_vote"), Nobody: !v.Vote.Last}
		if next.Tied {
			vt.Start = v.T("taps.start_revote")
		}
		v.Voting = vt
	}
}

// honestHands refuses a vote or a lift vote with no hands ticked that the host did not record as "nobody" (issue
// 24): the main action tapped once too often records nothing. The last candidate's vote with no hands ticked is
// the hands not raised yet (R26), and a form the engine will refuse anyway is left to the engine's answer. With
// hands ticked, "nobody" is refused too: the form says two things.
func honestHands(f url.Values, t mafia.EventType, play *mafia.Game) error {
	if t != mafia.EvVote && t != mafia.EvLift {
		return nil
	}
	hands, nobody := len(f["voters"]) > 0, f.Get("nobody") == "yes"
	if hands && nobody {
		return formErr("hands are ticked: untick them to record that nobody raised a hand")
	}
	if hands || nobody {
		return nil
	}
	next := play.Next()
	if !next.Allowed.Has(t) {
		return nil
	}
	if t == mafia.EvVote {
		due := 0
		for _, ps := range next.Plan() {
			if ps.Step == mafia.StepVote {
				due = ps.Seat
				break
			}
		}
		if next.RestToLast || f.Get("target") != fmt.Sprint(due) {
			return nil
		}
	}
	return formErr("tick the raised hands, or record that nobody raised a hand")
}
