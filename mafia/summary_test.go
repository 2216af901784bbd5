package mafia

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// SummaryOfReplay is what a club's protocol would keep of a replayed game: the facts a summary records, taken from
// the accepted events and the seats' results (the club extras summed, the host's or judge's points summed).
func SummaryOfReplay(g *Game, events []Event) Summary {
	n := g.Players()
	s := Summary{Winner: g.Winner(), Fouls: make([]int, n), ClubExtras: make([]int, n), Judge: make([]int, n)}
	for i := 1; i <= n; i++ {
		s.Roles = append(s.Roles, g.Role(i))
		s.Fouls[i-1] = g.Fouls(i)
	}
	for _, e := range events {
		switch e.Type {
		case EvDisqualify:
			s.Disqualified = s.Disqualified.Add(int(e.Seat))
		case EvTeamLoss:
			if g.Rules().Points == Points2025 { // the club's protocol marks the offender disqualified (000 L150)
				s.Disqualified = s.Disqualified.Add(int(e.Seat))
			}
		case EvBestMove:
			s.BestMove, s.BestNamed = int(e.Seat), nil
			for _, t := range e.Targets[:e.NTargets] {
				s.BestNamed = append(s.BestNamed, int(t))
			}
		case EvCheck:
			if g.Role(int(e.Seat)) == Don && g.Role(int(e.Target)) == Sheriff {
				s.DonFound++
			}
		}
	}
	for _, sr := range g.Result().Seats {
		for _, it := range sr.Score {
			switch {
			case strings.HasPrefix(it.Item.String(), "club_"):
				s.ClubExtras[sr.Seat-1] += it.Points
			case it.Item == ItemAdjust || it.Item == ItemJudgeExtra || it.Item == ItemPenalty:
				s.Judge[sr.Seat-1] += it.Points
			}
		}
	}
	return s
}

// SameSummaryPoints says how the points of a summary differ from the replay's, seat by seat: the totals, and the
// items with the club extras as one and the host's or judge's points as one ("" when they agree).
func SameSummaryPoints(replayed, summed []SeatResult) string {
	merge := func(sr SeatResult) map[string]int {
		m := map[string]int{}
		for _, it := range sr.Score {
			k := it.Item.String()
			switch {
			case strings.HasPrefix(k, "club_"):
				k = "club"
			case it.Item == ItemAdjust || it.Item == ItemJudgeExtra || it.Item == ItemPenalty:
				k = "judge"
			}
			m[k] += it.Points
			if m[k] == 0 {
				delete(m, k)
			}
		}
		return m
	}
	if len(replayed) != len(summed) {
		return fmt.Sprintf("%d seats, and %d", len(replayed), len(summed))
	}
	for i := range replayed {
		a, b := replayed[i], summed[i]
		if a.Points != b.Points || a.Won != b.Won || fmt.Sprint(merge(a)) != fmt.Sprint(merge(b)) {
			return fmt.Sprintf("seat %d: replayed %d %v, summed %d %v", a.Seat, a.Points, merge(a), b.Points, merge(b))
		}
	}
	return ""
}

// TestSummaryPointsOfRandomGames: for thousands of random finished games of every rule set, the points of their
// facts (SummaryPoints) are the replay's, item by item.
func TestSummaryPointsOfRandomGames(t *testing.T) {
	x := uint64(0x2545F4914F6CDD1D)
	data := make([]byte, 1200)
	games, finished := 3000, 0
	if testing.Short() {
		games = 150
	}
	for i := 0; i < games; i++ {
		for j := range data {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			data[j] = byte(x)
			if j%4 == 0 {
				data[j] &= 0x7f
				if x&0x700 == 0 {
					data[j] |= 0x80
				}
			}
		}
		sets := RuleSets()
		r := sets[i%len(sets)]
		if !r.HasPoints() {
			continue
		}
		g, err := NewGame(r, r.DefaultOptions(), fuzzRoles(r, 7+i%4))
		if err != nil {
			t.Fatal(err)
		}
		var events []Event
		for b := data; len(b) >= 4; b = b[4:] {
			e := fuzzEvent(g, b[:4])
			if g.Apply(e) == nil {
				events = append(events, e)
			}
		}
		if !g.Finished() {
			continue
		}
		finished++
		sum, err := SummaryPoints(r, r.DefaultOptions(), SummaryOfReplay(g, events))
		if err != nil {
			t.Fatalf("game %d (%s): the summary of a replayed game is refused: %v", i, r.ID, err)
		}
		if d := SameSummaryPoints(g.Result().Seats, sum); d != "" {
			t.Fatalf("game %d (%s): %s", i, r.ID, d)
		}
	}
	t.Logf("%d finished games of %d", finished, games)
	if finished < games/10 {
		t.Fatalf("only %d of %d games finished", finished, games)
	}
}

// TestSummaryPointsRefuses: a summary a replay could not have produced is refused with the rule it breaks.
func TestSummaryPointsRefuses(t *testing.T) {
	club, _ := RuleSet(DefaultRuleSetID)
	xcraft, _ := RuleSet("fiim-xcraft")
	homeUA, _ := RuleSet("home-ua")
	ten := []Role{Citizen, Citizen, Sheriff, Citizen, Mafia, Citizen, Don, Citizen, Mafia, Citizen}
	noExtras := club.DefaultOptions()
	if err := noExtras.Set("club_extras", OptionValue{Bool: false}); err != nil {
		t.Fatal(err)
	}
	ua := []Role{Mafia, Commissar, Citizen, Citizen, Mafia, Citizen, Citizen}
	for _, tt := range []struct {
		name string
		r    *Rules
		opt  *Options
		s    Summary
		want error
	}{
		{"no winner", club, nil, Summary{Roles: ten}, ErrNoWinner},
		{"wrong roles", club, nil, Summary{Roles: []Role{Citizen, Citizen, Citizen, Citizen, Citizen, Citizen, Citizen}, Winner: RedWins}, nil},
		{"draw without draws", homeUA, nil, Summary{Roles: ua, Winner: Draw}, ErrNoDraw},
		{"black best move in the club", club, nil, Summary{Roles: ten, Winner: RedWins, BestMove: 5, BestNamed: []int{7, 9}}, ErrNoBestMove},
		{"best move naming himself", club, nil, Summary{Roles: ten, Winner: RedWins, BestMove: 1, BestNamed: []int{1, 7}}, ErrBadBestMove},
		{"best move naming four", club, nil, Summary{Roles: ten, Winner: RedWins, BestMove: 1, BestNamed: []int{2, 5, 7, 9}}, ErrBadBestMove},
		{"best move of seat 11", club, nil, Summary{Roles: ten, Winner: RedWins, BestMove: 11, BestNamed: []int{2}}, ErrNoSuchSeat},
		{"club extras switched off", club, &noExtras, Summary{Roles: ten, Winner: RedWins, ClubExtras: []int{5}}, ErrNoClubExtras},
		{"club extras in X-Craft", xcraft, nil, Summary{Roles: ten, Winner: RedWins, ClubExtras: []int{5}}, ErrNoClubExtras},
		{"a host's 0.25", club, nil, Summary{Roles: ten, Winner: RedWins, Judge: []int{25}}, ErrAdjustStep},
		{"judge's 0.8 to a winner", xcraft, nil, Summary{Roles: ten, Winner: RedWins, Judge: []int{80}}, ErrExtraWinner},
		{"judge's points on a draw", xcraft, nil, Summary{Roles: ten, Winner: Draw, Judge: []int{30}}, ErrExtraOnDraw},
		{"fouls in home-ua", homeUA, nil, Summary{Roles: ua, Winner: RedWins, Fouls: []int{1}}, ErrNoFouls},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opt := tt.r.DefaultOptions()
			if tt.opt != nil {
				opt = *tt.opt
			}
			_, err := SummaryPoints(tt.r, opt, tt.s)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

// TestSummaryPointsOfAProtocol: a club protocol's game, summed by hand from the 2025 table (000 L175-L199).
func TestSummaryPointsOfAProtocol(t *testing.T) {
	club, _ := RuleSet(DefaultRuleSetID)
	ten := []Role{Citizen, Citizen, Sheriff, Citizen, Mafia, Citizen, Don, Citizen, Mafia, Citizen}
	s := Summary{Roles: ten, Winner: RedWins, Fouls: []int{0, 4, 0, 1}, Disqualified: SeatsOf(6),
		BestMove: 1, BestNamed: []int{5, 7, 2}, DonFound: 1, ClubExtras: []int{5, 0, 0, 0, -10}, Judge: []int{0, 0, 40}}
	res, err := SummaryPoints(club, club.DefaultOptions(), s)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{130 + 50 + 5, 130 - 80, 130 + 40, 130, 30 - 10, 130 - 80, 30 + 30, 130, 30, 130}
	for i, sr := range res {
		if sr.Points != want[i] {
			t.Errorf("seat %d: %d, want %d (%v)", i+1, sr.Points, want[i], sr.Score)
		}
	}
}
