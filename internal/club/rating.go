package club

import (
	"sort"
	"time"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
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
	Rules    string // the game's rule set
	// Counted: the result counts in its rule set's rating (a rated game that is not a tournament's).
	Counted bool
	Team    string // "red" or "black"
	// EloBefore and EloAfter are the player's Elo in his rule set's rating around this game, in hundredths; 0
	// for a result that is not counted or a guest's. The store fills them in.
	EloBefore, EloAfter int
	Stats               SeatStats
	Summary             bool // the game is a summary of an old protocol (summaries.go): it does not replay
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
	Elo      int // hundredths; EloStart before any game
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

// RatingFilter selects a rating: the rule set's (ClubRules when empty), over a season (games played in
// [From, To); zero times leave that end open), of the players with at least MinGames games in it.
type RatingFilter struct {
	Rules    string
	From, To time.Time
	MinGames int
}

// Scope returns the rule set whose rating the filter reads.
func (f RatingFilter) Scope() string {
	if f.Rules == "" {
		return ClubRules
	}
	return f.Rules
}

// Season reports whether the filter is limited in time.
func (f RatingFilter) Season() bool { return !f.From.IsZero() || !f.To.IsZero() }

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

// ResultsOf turns a finished game into its seats' results with what its record shows of each (matrix R95: only
// rated games count, and only in their own rule set's rating, never a tournament game; guests are kept with player
// 0 so that the game's history stays whole).
func ResultsOf(g *Game, rec *record.Record, play *mafia.Game) ([]GameResult, error) {
	stats, err := SeatStatsOf(rec)
	if err != nil {
		return nil, &Error{Code: Internal, Message: "the record does not replay", Cause: err}
	}
	res := play.Result()
	var out []GameResult
	for _, sr := range res.Seats {
		team := "red"
		if sr.Team == mafia.Black {
			team = "black"
		}
		out = append(out, GameResult{GameID: g.ID, Seat: sr.Seat, PlayerID: g.Seats[sr.Seat-1].PlayerID, Role: sr.Role.String(),
			Won: sr.Won, Points: sr.Points, Rated: g.Rated, PlayedAt: g.CreatedAt, Rules: g.Rules,
			Counted: g.Rated && g.StageID == 0, Team: team, Stats: stats[sr.Seat-1]})
	}
	return out, nil
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

// RatedGame is a counted game of a rating: when it was played, at how many seats, who won.
type RatedGame struct {
	GameID   int64
	PlayedAt time.Time
	Players  int
	Winner   string // "red", "black" or "draw"
}

// CoPlayer is a club player another sat with: as a partner (the same team) or an opponent, in Games games of
// which the other's team won Wins.
type CoPlayer struct {
	PlayerID int64
	Nick     string
	Partner  bool
	Games    int
	Wins     int
}

// SortStandingsBy orders the rating by Elo first when byElo, otherwise as SortStandings.
func SortStandingsBy(list []Standing, byElo bool) {
	SortStandings(list)
	if byElo {
		sort.SliceStable(list, func(i, j int) bool { return list[i].Elo > list[j].Elo })
		for i := range list {
			list[i].Rank = i + 1
		}
	}
}
