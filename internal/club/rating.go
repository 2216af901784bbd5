package club

import (
	"sort"
	"time"

	"mafiaclub/mafia"
)

// GameResult is one seat's result in a saved game: what the rating is built from.
type GameResult struct {
	GameID   int64
	Seat     int
	PlayerID int64 // 0 for a guest
	Role     string
	Won      bool
	Points   int // hundredths
	Rated    bool
	PlayedAt time.Time
}

// RatingRoles are the roles the rating breaks down by.
var RatingRoles = []string{"citizen", "sheriff", "mafia", "don"}

// RoleStats are a player's figures in one role.
type RoleStats struct {
	Games, Wins, Points int
}

// Standing is one player's line in the club's rating.
type Standing struct {
	Rank     int
	PlayerID int64
	Nick     string
	Games    int
	Wins     int
	Points   int // hundredths
	ByRole   [4]RoleStats
}

// WinRate is the share of games won, in percent (0 without games).
func (s Standing) WinRate() float64 {
	if s.Games == 0 {
		return 0
	}
	return 100 * float64(s.Wins) / float64(s.Games)
}

// Average is the points per game in hundredths, rounded half away from zero.
func (s Standing) Average() int {
	if s.Games == 0 {
		return 0
	}
	a, b := s.Points, s.Games
	if a < 0 {
		return -((-a*2 + b) / (2 * b))
	}
	return (a*2 + b) / (2 * b)
}

// RatingFilter selects the games of a season: played in [From, To); zero times leave that end open.
type RatingFilter struct {
	From, To time.Time
}

// SortStandings orders the rating: more points; for equal points more wins; then fewer games; then the nickname.
// The rating page states this order.
func SortStandings(list []Standing) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		switch {
		case a.Points != b.Points:
			return a.Points > b.Points
		case a.Wins != b.Wins:
			return a.Wins > b.Wins
		case a.Games != b.Games:
			return a.Games < b.Games
		}
		return a.Nick < b.Nick
	})
	for i := range list {
		list[i].Rank = i + 1
	}
}

// ResultsOf turns a finished game into its seats' results (matrix R95: only rated games count, which the rating
// query decides; guests are kept with player 0 so that the game's history stays whole).
func ResultsOf(g *Game, play *mafia.Game) []GameResult {
	res := play.Result()
	var out []GameResult
	for _, sr := range res.Seats {
		out = append(out, GameResult{GameID: g.ID, Seat: sr.Seat, PlayerID: g.Seats[sr.Seat-1].PlayerID, Role: sr.Role.String(),
			Won: sr.Won, Points: sr.Points, Rated: g.Rated, PlayedAt: g.CreatedAt})
	}
	return out
}

// RoleIndex returns the index of role in RatingRoles, or -1.
func RoleIndex(role string) int {
	for i, r := range RatingRoles {
		if r == role {
			return i
		}
	}
	return -1
}

// ClubRules is the club's own rule set (the engine names it once: mafia.DefaultRuleSetID): a new game's default.
const ClubRules = mafia.DefaultRuleSetID
