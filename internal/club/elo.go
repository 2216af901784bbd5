package club

import "math"

// The Elo of a rule set's rating, as mafiaratings rates games: a team Elo of the red side against the black side
// that accounts for the side's odds. Every player starts at EloStart. Before a counted game:
//
//	R_red, R_black = the mean Elo of each side's players (a guest counts as EloStart and has no Elo of his own)
//	p     = (red wins + EloPrior/2) / (games + EloPrior), over the rule set's counted games before this one
//	A     = 400 · log10(p / (1 − p))                      the red side's advantage from its odds
//	E     = 1 / (1 + 10^((R_black − R_red − A) / 400))    the red side's expected score
//	S     = 1 if red won, 0 if black won, ½ for a draw
//	Δ     = round(EloK · (S − E))  (to a hundredth)
//
// and every red player gains Δ, every black player loses Δ. Elo figures are kept in hundredths.
const (
	EloStart = 1000_00 // hundredths
	EloK     = 20.0
	EloPrior = 10 // games at even odds that the side's odds start from
)

// EloDelta returns the red side's change in hundredths for a game between sides of the given mean Elo
// (hundredths), won by outcome ("red", "black" or "draw"), after games counted games of which redWins red won.
func EloDelta(redMean, blackMean float64, outcome string, games, redWins int) int {
	p := (float64(redWins) + EloPrior/2.0) / (float64(games) + EloPrior)
	adv := 400 * math.Log10(p/(1-p))
	e := 1 / (1 + math.Pow(10, ((blackMean-redMean)/100-adv)/400))
	s := 0.5
	switch outcome {
	case "red":
		s = 1
	case "black":
		s = 0
	}
	return int(math.Round(EloK * (s - e) * 100))
}
