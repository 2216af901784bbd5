// Package tourney computes tournament standings: the sum of each participant's points over the games of a stage
// or of the whole tournament, ordered by the X-Craft tie-break (rules matrix R100, seed 002 §T6.2-§T6.2.4, C-37).
//
// Points are integer hundredths, as in the engine (mafia.ScoreItem). The standings are a pure function of the
// finished games and the lot's seed, so they can be recomputed live after every game, shown publicly and
// exported (CSV) with the same result every time.
package tourney

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"

	"mafiaclub/mafia"
)

// GameResult is what one game gives the standings.
type GameResult struct {
	Stage    string // the tournament stage the game belongs to (§P7.2.1), e.g. "qualifying" or "final"
	Finished bool   // only finished games count; a game still being played is left out of the standings
	Seats    []Seat
}

// Seat is one participant's part of a game.
type Seat struct {
	Participant int64 // 0: nobody the standings follow (the seat is left out)
	Role        mafia.Role
	Won         bool              // his team won (never on a draw)
	Items       []mafia.ScoreItem // the points items, hundredths, as the engine's Result gives them
	// FirstNightDeath: killed on the first shooting night, night 2 in the engine's numbering (C-06, C-37:
	// "смертей в первую игровую ночь", §T6.2.3).
	FirstNightDeath bool
}

// FromGame derives a GameResult from an engine game: participants[i] is the participant in seat i+1 (0 for a
// seat the standings do not follow). It panics when participants does not have one entry per seat.
func FromGame(g *mafia.Game, participants []int64, stage string) GameResult {
	r := g.Result()
	if len(participants) != len(r.Seats) {
		panic(fmt.Sprintf("tourney.FromGame: %d participants for %d seats", len(participants), len(r.Seats)))
	}
	gr := GameResult{Stage: stage, Finished: r.Finished}
	for i, s := range r.Seats {
		gr.Seats = append(gr.Seats, Seat{
			Participant:     participants[i],
			Role:            s.Role,
			Won:             s.Won,
			Items:           slices.Clone(s.Score),
			FirstNightDeath: s.Out.How == mafia.OutKilled && s.Out.Phase == mafia.PhaseNight && s.Out.Number == 2,
		})
	}
	return gr
}

// IsExtra reports whether a points item counts as "дополнительные баллы" for the tie-break (§T6.2). C-37 reads
// them as the best-move points, the judge's extra points and the penalties, negative ones included; §8.2.4 says
// the disqualification penalty "считаются дополнительными". Everything else (the team result and, in other rule
// sets, the don's check, the club host's manual adjustment and the club extras) is rating points only.
func IsExtra(it mafia.Item) bool {
	switch it {
	case mafia.ItemBestMove2, mafia.ItemBestMove3, mafia.ItemJudgeExtra, mafia.ItemPenalty,
		mafia.ItemDisqualification:
		return true
	}
	return false
}

// The steps that can decide a line's place against the line above it (R100), in order.
const (
	StepPoints           = "points"             // more rating points (§T6.2: "рейтинговых баллов")
	StepExtra            = "extra"              // more extra points (§T6.2)
	StepWins             = "wins"               // more wins (§T6.2.1)
	StepDonSheriffWins   = "don_sheriff_wins"   // more wins as don or sheriff (§T6.2.2)
	StepFirstNightDeaths = "first_night_deaths" // more deaths on the first shooting night (§T6.2.3)
	StepLot              = "lot"                // the lot (§T6.2.4)
)

// Line is one participant's line of the standings.
type Line struct {
	Rank             int // 1..n, no shared places: the lot settles every exact tie
	Participant      int64
	Games            int
	Points           int // hundredths: every item (C-37: base points plus all extra points)
	Extra            int // hundredths: the items IsExtra counts
	Wins             int
	DonSheriffWins   int
	FirstNightDeaths int
	// Lot is the participant's draw for this seed: among lines equal on every other step the smaller lot is
	// placed higher. It depends only on the seed and the participant, so it never changes as games are added.
	Lot uint64
	// DecidedBy is the step (Step...) that placed this line below the one above it; "" on the first line.
	DecidedBy string
}

// Standings sums the finished games of the stage ("" = every stage, the overall standings) per participant and
// orders them: points, then extra points, wins, wins as don or sheriff, first-night deaths, all descending, then
// the lot drawn from lotSeed (R100; §T6.2-§T6.2.4).
func Standings(games []GameResult, stage string, lotSeed uint64) []Line {
	byID := map[int64]*Line{}
	for _, g := range games {
		if !g.Finished || (stage != "" && g.Stage != stage) {
			continue
		}
		for _, s := range g.Seats {
			if s.Participant == 0 {
				continue
			}
			l := byID[s.Participant]
			if l == nil {
				l = &Line{Participant: s.Participant, Lot: lot(lotSeed, s.Participant)}
				byID[s.Participant] = l
			}
			l.Games++
			for _, it := range s.Items {
				l.Points += it.Points
				if IsExtra(it.Item) {
					l.Extra += it.Points
				}
			}
			if s.Won {
				l.Wins++
				if s.Role == mafia.Don || s.Role == mafia.Sheriff {
					l.DonSheriffWins++
				}
			}
			if s.FirstNightDeath {
				l.FirstNightDeaths++
			}
		}
	}
	lines := make([]Line, 0, len(byID))
	for _, l := range byID {
		lines = append(lines, *l)
	}
	slices.SortFunc(lines, func(a, b Line) int {
		if _, c := decide(a, b); c != 0 {
			return c
		}
		return cmp.Compare(a.Participant, b.Participant) // two equal lots: 2^-64, but the order stays total
	})
	for i := range lines {
		lines[i].Rank = i + 1
		if i > 0 {
			lines[i].DecidedBy, _ = decide(lines[i-1], lines[i])
		}
	}
	return lines
}

// decide compares two lines step by step and returns the first step where they differ, with the order
// (negative: a is placed higher). When even the lots are equal it returns StepLot and 0.
func decide(a, b Line) (string, int) {
	steps := []struct {
		name string
		a, b int
	}{
		{StepPoints, a.Points, b.Points},
		{StepExtra, a.Extra, b.Extra},
		{StepWins, a.Wins, b.Wins},
		{StepDonSheriffWins, a.DonSheriffWins, b.DonSheriffWins},
		{StepFirstNightDeaths, a.FirstNightDeaths, b.FirstNightDeaths},
	}
	for _, s := range steps {
		if c := cmp.Compare(s.b, s.a); c != 0 { // more is better
			return s.name, c
		}
	}
	return StepLot, cmp.Compare(a.Lot, b.Lot)
}

// lot is a participant's draw: the first output of a PCG seeded with the lot's seed and the participant
// (math/rand/v2), so the same seed always gives the same order and the draw can be recomputed from the seed.
func lot(seed uint64, participant int64) uint64 {
	return rand.New(rand.NewPCG(seed, uint64(participant))).Uint64()
}

// CSVHeader is the header of the standings' CSV: the columns of CSVRecord.
func CSVHeader() []string {
	return []string{"rank", "participant", "games", "points", "extra", "wins", "don_sheriff_wins", "first_night_deaths", "decided_by"}
}

// CSVRecord is one line of the standings as CSV cells, points as decimals with two places ("1.25", "-0.50").
func CSVRecord(l Line) []string {
	return []string{strconv.Itoa(l.Rank), strconv.FormatInt(l.Participant, 10), strconv.Itoa(l.Games),
		Decimal(l.Points), Decimal(l.Extra), strconv.Itoa(l.Wins), strconv.Itoa(l.DonSheriffWins),
		strconv.Itoa(l.FirstNightDeaths), string(l.DecidedBy)}
}

// CSV writes the standings as CSV: a header, then one row per line.
func CSV(lines []Line) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(CSVHeader())
	for _, l := range lines {
		_ = w.Write(CSVRecord(l))
	}
	w.Flush()
	return b.Bytes()
}

// Decimal writes hundredths as a decimal with two places: 125 is "1.25", -50 is "-0.50".
func Decimal(h int) string {
	sign := ""
	if h < 0 {
		sign, h = "-", -h
	}
	return fmt.Sprintf("%s%d.%02d", sign, h/100, h%100)
}
