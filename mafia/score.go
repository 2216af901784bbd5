package mafia

import "slices"

// Points are kept in hundredths of a point (int32): exact, never binary floating point (spec §3).

// Item is one kind of points a player gets in a game. Its name is stable once published.
type Item uint8

// The points items.
const (
	ItemWin                     Item = iota + 1 // R75
	ItemLoss                                    // R76
	ItemDonFoundSheriff                         // R78
	ItemBestMove2                               // R59: two blacks named
	ItemBestMove3                               // R59: three blacks named
	ItemDisqualification                        // R64, R81
	ItemAdjust                                  // R84: the club host's manual correction
	ItemJudgeExtra                              // R82: the judge's extra points
	ItemPenalty                                 // R80, R82: a judge's penalty
	ItemClubBlackNominatesBlack                 // R87
	ItemClubBlackVotesBlack                     // R88
	ItemClubDecisiveVote                        // R89
	ItemClubUgayka                              // R90
	ItemClubRedNominatesBlack                   // R91
	ItemClubRedVotesBlack                       // R92
	ItemClubRedVotesRed                         // R93
	ItemClubSheriffFoundBlack                   // R94
	ItemClubExtras                              // R86-R94 as one sum: the club's extras of a summary (SummaryPoints)
	numItems
)

var itemNames = [numItems]string{"", "win", "loss", "don_found_sheriff", "best_move_2", "best_move_3",
	"disqualification", "adjust", "judge_extra", "penalty",
	"club_black_nominates_black", "club_black_votes_black", "club_decisive_vote", "club_ugayka",
	"club_red_nominates_black", "club_red_votes_black", "club_red_votes_red", "club_sheriff_found_black",
	"club_extras"}

// String is the item's stable name.
func (i Item) String() string {
	if i < numItems {
		return itemNames[i]
	}
	return "item?"
}

// Items lists every points item in the order results show them.
func Items() []Item {
	out := make([]Item, 0, numItems-1)
	for i := ItemWin; i < numItems; i++ {
		out = append(out, i)
	}
	return out
}

func (g *Game) award(s int, item Item, points int32) {
	if points != 0 {
		g.score = append(g.score, scoreEntry{seat: uint8(s), item: item, points: int16(points)}) // at most a few points an item
	}
}

func (g *Game) extras() bool { return g.rules.Points == Points2025 && g.opt.ClubExtras }

// scoreNomination pays the club extras for a nomination (R87, R91). C-13 reads "маф" as any black player; like
// the self-vote (C-13), a self-nomination is not counted.
func (g *Game) scoreNomination(by, target uint8) {
	if !g.extras() || by == target || !g.black.Has(int(target)) {
		return
	}
	if g.black.Has(int(by)) {
		g.award(int(by), ItemClubBlackNominatesBlack, -5)
	} else {
		g.award(int(by), ItemClubRedNominatesBlack, 5)
	}
}

// scoreRound pays the club extras for the votes of a completed round (R88, R89, R92, R93; C-13). leaver is the
// candidate this round removes alone, or 0. Default votes count; self-votes and lift votes do not.
func (g *Game) scoreRound(leaver int) {
	if !g.extras() {
		return
	}
	var voters [MaxSeats]Seats // voters[i]: who voted against candidate i, from the round's ballots in one pass
	for s := 1; s <= int(g.n); s++ {
		if b := g.ballot[s]; b != 0 {
			voters[b-1] = voters[b-1].Add(s)
		}
	}
	// R89, C-13: if the partner would not have left without the black hands against him, each of those hands
	// costs −0.5 instead of −0.1. Never in a single-candidate vote.
	decisive := Seats(0)
	if leaver != 0 && g.black.Has(leaver) && g.nCands > 1 {
		var mine, others int
		for i := uint8(0); i < g.nCands; i++ {
			c := int(g.counts[i])
			if int(g.cands[i]) == leaver {
				blackHands := (voters[i] & g.black).Remove(leaver)
				mine = c - blackHands.Len()
				decisive = blackHands
			} else if c > others {
				others = c
			}
		}
		saved := mine < others || (mine == others && g.opt.DecisiveTieSaved)
		if !saved {
			decisive = 0
		}
	}
	for i := uint8(0); i < g.nCands; i++ {
		c := int(g.cands[i])
		for v := uint64(voters[i]); v != 0; v &= v - 1 {
			voter := trailing(v)
			if voter == c {
				continue
			}
			switch {
			case g.black.Has(voter) && g.black.Has(c):
				if decisive.Has(voter) && c == leaver {
					g.award(voter, ItemClubDecisiveVote, -50)
				} else {
					g.award(voter, ItemClubBlackVotesBlack, -10)
				}
			case !g.black.Has(voter) && g.black.Has(c):
				g.award(voter, ItemClubRedVotesBlack, 5)
			case !g.black.Has(voter):
				g.award(voter, ItemClubRedVotesRed, -3)
			}
		}
	}
}

// scoreCheck pays the don for finding the sheriff (R78, C-12) and, as a club extra, the sheriff for finding a
// black player (R94, C-12).
func (g *Game) scoreCheck(by, target uint8) {
	if g.rules.Points != Points2025 {
		return
	}
	switch g.role[by] {
	case Don:
		if g.role[target] == Sheriff && (!g.opt.DonFoundSheriffOnce || !g.donFound) {
			g.award(int(by), ItemDonFoundSheriff, 30)
		}
		if g.role[target] == Sheriff {
			g.donFound = true
		}
	case Sheriff:
		if g.extras() && g.black.Has(int(target)) && (!g.opt.SheriffBlackPerDistinct || !g.sheriffSaw.Has(int(target))) {
			g.award(int(by), ItemClubSheriffFoundBlack, 10)
		}
		g.sheriffSaw = g.sheriffSaw.Add(int(target))
	}
}

// scoreBestMove pays the best move: two or three blacks named (R59, C-26); in X-Craft only a red player is paid
// (002 §8.3.1(4)).
func (g *Game) scoreBestMove(s int, named Seats) {
	if g.rules.Points == NoPoints || g.role[s].Team() != Red {
		return
	}
	switch (named & g.black).Len() {
	case 2:
		g.award(s, ItemBestMove2, int32(g.opt.BMPoints[0]))
	case 3:
		g.award(s, ItemBestMove3, int32(g.opt.BMPoints[1]))
	}
}

// penalty gives the disqualification penalty once per player (R64, R81; C-17).
func (g *Game) penalty(s int) {
	if g.fined.Has(s) {
		return
	}
	g.fined = g.fined.Add(s)
	switch g.rules.Points {
	case Points2025:
		g.award(s, ItemDisqualification, -80)
	case PointsXCraft:
		g.award(s, ItemDisqualification, -50)
	}
}

// scoreResult pays the team result (R75-R77, C-38) and the угайка (R90, C-13).
func (g *Game) scoreResult() {
	var win, loss int32
	switch g.rules.Points {
	case Points2025:
		win, loss = 130, 30
	case PointsXCraft:
		win, loss = 100, 0
	default:
		return
	}
	if g.winner == Draw {
		return
	}
	winTeam := Red
	if g.winner == BlackWins {
		winTeam = Black
	}
	for s := 1; s <= int(g.n); s++ {
		if g.role[s].Team() == winTeam {
			g.award(s, ItemWin, win)
		} else {
			g.award(s, ItemLoss, loss)
		}
	}
	if g.extras() && g.winner == BlackWins && g.ugayka != 0 {
		if g.opt.UgaykaAllBlacks {
			for v := uint64(g.black); v != 0; v &= v - 1 {
				g.award(trailing(v), ItemClubUgayka, 10)
			}
		} else {
			g.award(int(g.ugayka), ItemClubUgayka, 10)
		}
	}
}

// adjust records a manual correction (R80, R84) or a judge's extra points and penalties (R82, §T6.1).
func (g *Game) adjust(s uint8, points int32) error {
	if g.rules.Points == NoPoints {
		return ErrNoPoints
	}
	if err := g.seat(s); err != nil {
		return err
	}
	if points == 0 {
		return ErrAdjustZero
	}
	if points > 1000 || points < -1000 {
		return violate(ErrAdjustRange, int(s), 0, "%s", hundredths(points))
	}
	if g.rules.Points == Points2025 {
		if slices.Contains(adjustSteps2025, int(points)) {
			g.award(int(s), ItemAdjust, points)
			return nil
		}
		return violate(ErrAdjustStep, int(s), 0, "%s", hundredths(points))
	}
	if points < 0 {
		g.award(int(s), ItemPenalty, points) // 002 §8.2.4: penalties count as extra points
		return nil
	}
	if g.winner == NoWinner {
		return ErrExtraBeforeEnd
	}
	if g.winner == Draw {
		return ErrExtraOnDraw // §T6.1.6
	}
	var who Seats
	var total, mine int32
	for _, e := range g.score {
		if e.item == ItemJudgeExtra {
			who = who.Add(int(e.seat))
			total += int32(e.points)
			if e.seat == s {
				mine += int32(e.points)
			}
		}
	}
	if !who.Has(int(s)) && who.Len() >= 3 {
		return violate(ErrExtraPlayers, int(s), 0, "seats %v already have extra points", who.List())
	}
	if total+points > 100 {
		return violate(ErrExtraTotal, int(s), 0, "%s given already", hundredths(total))
	}
	won := (g.winner == RedWins) == (g.role[s].Team() == Red)
	// §T6.1.3: 0.6-0.7 for a winner needs the chief judge's agreement, which the tournament records; the
	// engine enforces the hard limits.
	if won && mine+points > 70 {
		return violate(ErrExtraWinner, int(s), 0, "seat %d would have %s", s, hundredths(mine+points))
	}
	if !won && mine+points > 40 {
		return violate(ErrExtraLoser, int(s), 0, "seat %d would have %s", s, hundredths(mine+points))
	}
	g.award(int(s), ItemJudgeExtra, points)
	return nil
}

// hundredths formats a points value for messages.
func hundredths(p int32) string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	return sign + itoa(int(p/100)) + "." + string(rune('0'+p%100/10)) + string(rune('0'+p%10))
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [12]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
