package mafia

// Summary is what a club's old protocol keeps of a game without its events (issue 26, item 7): the roles, the
// result, each seat's fouls and disqualification, the best move, the don's finds, and the extra points given.
// SummaryPoints turns it into points with the very scoring a replayed game uses.
type Summary struct {
	Roles        []Role // seat i+1's role
	Winner       Winner // RedWins, BlackWins or Draw
	Fouls        []int  // per seat (index 0 is seat 1); nil or shorter: none
	Disqualified Seats  // removed or fined for a disqualifying violation (4 fouls need not be listed here)
	BestMove     int    // the seat that made the best move, 0 for none
	BestNamed    []int  // the seats he named, in order
	DonFound     int    // the don's checks that found the sheriff
	// ClubExtras are each seat's club extras (R86-R94) as their sum, hundredths; Judge each seat's corrections by
	// the host (R84; the 2025 system) or the judge's extra points and penalties (R82, §T6.1; X-Craft), summed.
	ClubExtras []int
	Judge      []int
}

// SummaryPoints returns each seat's points for a summary: the team result (R75-R77), the best move's (R59), the
// don's find (R78), the disqualification penalty (R64, R81; the 4th foul included), the host's or judge's points as
// adjustments (R82, R84) and the club extras as given (ItemClubExtras). The game is set up with the rule set's
// roles check and the points are given by the methods a replay gives them with, each under its own rule: a
// summary a replay could not have produced is refused with the rule it breaks (a *Violation naming the seat where
// there is one). Only Seat, Role, Team, Won, Fouls, Points and Score of the result mean anything: a summary has
// no chronology.
func SummaryPoints(r *Rules, opt Options, s Summary) ([]SeatResult, error) {
	g, err := NewGame(r, opt, s.Roles)
	if err != nil {
		return nil, err
	}
	switch s.Winner {
	case RedWins, BlackWins:
	case Draw:
		if r.Draw == DrawNone {
			return nil, ErrNoDraw
		}
	default:
		return nil, ErrNoWinner
	}
	n := len(s.Roles)
	if s.BestMove != 0 {
		if err := g.seat(uint8(min(max(s.BestMove, 0), 255))); err != nil {
			return nil, err
		}
		// the best move is the first shooting night's victim's, on the morning after it (R55, R57)
		g.num, g.phase = 2, PhaseDay
		g.bestMoveRight(s.BestMove)
		e := BestMove(s.BestMove, s.BestNamed...)
		if len(s.BestNamed) > 3 {
			e.NTargets = 4
		}
		for i, t := range s.BestNamed[:min(3, len(s.BestNamed))] {
			e.Targets[i] = uint8(min(max(t, 0), 255))
		}
		if err := g.bestMove(e); err != nil {
			return nil, err
		}
	}
	g.finish(s.Winner)
	if s.DonFound > 0 {
		don, sheriff := 0, 0
		for i, role := range s.Roles {
			switch role {
			case Don:
				don = i + 1
			case Sheriff:
				sheriff = i + 1
			}
		}
		if don == 0 || sheriff == 0 {
			return nil, ErrNoDonFound
		}
		for range min(s.DonFound, n) {
			g.scoreCheck(uint8(don), uint8(sheriff))
		}
	}
	for i, f := range s.Fouls {
		for range min(f, 255) {
			if err := g.apply(Foul(i + 1)); err != nil {
				return nil, err
			}
		}
	}
	for _, d := range s.Disqualified.List() {
		if err := g.apply(Disqualify(d)); err != nil {
			return nil, err
		}
	}
	for i, p := range s.Judge {
		if p == 0 {
			continue
		}
		if err := g.judgeSum(uint8(i+1), p); err != nil {
			return nil, err
		}
	}
	for i, p := range s.ClubExtras {
		if p == 0 {
			continue
		}
		if err := g.seat(uint8(min(i+1, 255))); err != nil {
			return nil, err
		}
		if !g.extras() {
			return nil, violate(ErrNoClubExtras, i+1, 0, "seat %d", i+1)
		}
		if p > 1000 || p < -1000 {
			return nil, violate(ErrAdjustRange, i+1, 0, "%s", hundredths(int32(p)))
		}
		g.award(i+1, ItemClubExtras, int32(p))
	}
	return g.Result().Seats, nil
}

// judgeSum gives seat s the sum of the host's or judge's points p as the adjustments a replay records: in the 2025
// system the host's steps (R84), the largest first, so that any sum of steps is given; elsewhere one adjustment
// (the judge's extra points, or a penalty when negative; §T6.1, 002 §8.2.4).
func (g *Game) judgeSum(s uint8, p int) error {
	if err := g.seat(s); err != nil {
		return err
	}
	if p > 1000 || p < -1000 {
		return violate(ErrAdjustRange, int(s), 0, "%s", hundredths(int32(p)))
	}
	if g.rules.Points != Points2025 {
		return g.apply(Adjust(int(s), p))
	}
	for p != 0 {
		step := 0
		for _, st := range adjustSteps2025 {
			if (st > 0) == (p > 0) && abs(st) <= abs(p) && abs(st) > abs(step) {
				step = st
			}
		}
		if step == 0 {
			return violate(ErrAdjustStep, int(s), 0, "%s", hundredths(int32(p)))
		}
		if err := g.apply(Adjust(int(s), step)); err != nil {
			return err
		}
		p -= step
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
