package mafia

// EventType is the kind of a recorded fact (spec section 2).
type EventType uint8

// The event types of record format 1.
const (
	NoEvent EventType = iota
	EvDay
	EvNight
	EvSpeech
	EvNominate
	EvVote
	EvLift
	EvShot
	EvCheck
	EvHeal
	EvBestMove
	EvFoul
	EvWarning
	EvDisqualify
	EvTeamLoss
	EvAdjust
	EvDraw
	numEventTypes
)

var eventNames = [numEventTypes]string{"", "day", "night", "speech", "nominate", "vote", "lift", "shot", "check",
	"heal", "best_move", "foul", "warning", "disqualify", "team_loss", "adjust", "draw"}

// String is the event type's name in the record format.
func (t EventType) String() string {
	if t < numEventTypes {
		return eventNames[t]
	}
	return "event?"
}

// ParseEventType returns the event type with the given record name.
func ParseEventType(s string) (EventType, bool) {
	for t := EvDay; t < numEventTypes; t++ {
		if eventNames[t] == s {
			return t, true
		}
	}
	return NoEvent, false
}

// EventTypes lists every event type in record order.
func EventTypes() []EventType {
	out := make([]EventType, 0, numEventTypes-1)
	for t := EvDay; t < numEventTypes; t++ {
		out = append(out, t)
	}
	return out
}

// EventSet is a set of event types.
type EventSet uint32

// Has reports whether t is in the set.
func (s EventSet) Has(t EventType) bool { return s&(1<<t) != 0 }

func (s EventSet) add(t ...EventType) EventSet {
	for _, x := range t {
		s |= 1 << x
	}
	return s
}

// Event is one recorded fact, as the engine sees it: no time stamps, notes or reasons (the record keeps those).
// Seat is the acting or concerned seat (speech, foul, warning, disqualify, team_loss, adjust: seat; nominate,
// shot, check, heal, best_move: by). Target is the other seat (nominate, vote, shot, check, heal).
type Event struct {
	Type   EventType
	Seat   uint8
	Target uint8
	// VotersGiven says whether Voters was recorded; a vote on the last candidate may leave it out.
	VotersGiven bool
	Voters      Seats
	// Targets are the seats named in a best move, in the order named (NTargets of them).
	Targets  [3]uint8
	NTargets uint8
	// Points is an adjustment in hundredths of a point.
	Points int32
}

// Day returns a day event.
func Day() Event { return Event{Type: EvDay} }

// Night returns a night event.
func Night() Event { return Event{Type: EvNight} }

// Speech returns seat's regular day speech.
func Speech(seat int) Event { return Event{Type: EvSpeech, Seat: uint8(seat)} }

// Nominate returns by's nomination of target.
func Nominate(by, target int) Event {
	return Event{Type: EvNominate, Seat: uint8(by), Target: uint8(target)}
}

// Vote returns the hands raised against target.
func Vote(target int, voters ...int) Event {
	return Event{Type: EvVote, Target: uint8(target), VotersGiven: true, Voters: SeatsOf(voters...)}
}

// VoteRest returns the vote on the last candidate with the voters left out (the default rule fills them in).
func VoteRest(target int) Event { return Event{Type: EvVote, Target: uint8(target)} }

// Lift returns the lift vote with its yes voters.
func Lift(voters ...int) Event {
	return Event{Type: EvLift, VotersGiven: true, Voters: SeatsOf(voters...)}
}

// Shot returns one black player's shot.
func Shot(by, target int) Event { return Event{Type: EvShot, Seat: uint8(by), Target: uint8(target)} }

// Check returns a don's or sheriff's check.
func Check(by, target int) Event { return Event{Type: EvCheck, Seat: uint8(by), Target: uint8(target)} }

// Heal returns the doctor's protection.
func Heal(by, target int) Event { return Event{Type: EvHeal, Seat: uint8(by), Target: uint8(target)} }

// BestMove returns the best move of seat by naming targets.
func BestMove(by int, targets ...int) Event {
	e := Event{Type: EvBestMove, Seat: uint8(by)}
	for i, t := range targets {
		if i >= len(e.Targets) {
			e.NTargets = uint8(len(targets)) // too many: Apply rejects it
			return e
		}
		e.Targets[i] = uint8(t)
		e.NTargets++
	}
	return e
}

// Foul returns a foul on seat.
func Foul(seat int) Event { return Event{Type: EvFoul, Seat: uint8(seat)} }

// Warning returns a warning on seat.
func Warning(seat int) Event { return Event{Type: EvWarning, Seat: uint8(seat)} }

// Disqualify returns seat's disqualification.
func Disqualify(seat int) Event { return Event{Type: EvDisqualify, Seat: uint8(seat)} }

// TeamLoss returns a violation by seat that makes his team lose.
func TeamLoss(seat int) Event { return Event{Type: EvTeamLoss, Seat: uint8(seat)} }

// Adjust returns a change of seat's points by the given hundredths.
func Adjust(seat int, hundredths int) Event {
	return Event{Type: EvAdjust, Seat: uint8(seat), Points: int32(hundredths)}
}

// DeclareDraw returns the host's declaration of a draw.
func DeclareDraw() Event { return Event{Type: EvDraw} }
