package club

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"mafiaclub/mafia"
)

// RatingPageSize is how many lines a page of the rating shows.
const RatingPageSize = 100

// RatingQuery is a page of a rating: the filter, the order (by Elo first, or by points), the page from 1.
type RatingQuery struct {
	RatingFilter
	ByElo bool
	Page  int
}

// RatingPage is one page of a rating in its order, with the number of lines and pages in all.
type RatingPage struct {
	Lines              []Standing
	Total, Page, Pages int
}

// RatingScopes are the rule sets that have a rating of their own: every rule set; the club's rating is ClubRules'.
func RatingScopes() []string {
	var out []string
	for _, r := range mafia.RuleSets() {
		out = append(out, r.ID)
	}
	return out
}

func (r *Records) checkRules(rules string) error {
	if rules != "" && !slices.Contains(RatingScopes(), rules) {
		return Errorf(Invalid, "unknown rule set %q", rules)
	}
	return nil
}

// Standings is a rating in its order (SortStandings), every line.
func (r *Records) Standings(ctx context.Context, f RatingFilter) ([]Standing, error) {
	if err := r.checkRules(f.Rules); err != nil {
		return nil, err
	}
	list, err := r.store.Standings(ctx, f)
	if err != nil {
		return nil, err
	}
	SortStandings(list)
	return list, nil
}

// Rating returns one page of a rating. All time, it is read from the stored standings; a season's is summed.
func (r *Records) Rating(ctx context.Context, q RatingQuery) (*RatingPage, error) {
	if err := r.checkRules(q.Rules); err != nil {
		return nil, err
	}
	if q.MinGames < 0 {
		return nil, Errorf(Invalid, "the minimum number of games is not negative")
	}
	page := max(q.Page, 1)
	out := &RatingPage{Page: page}
	if !q.Season() {
		lines, total, err := r.store.StandingsPage(ctx, q.Scope(), q.MinGames, q.ByElo, (page-1)*RatingPageSize, RatingPageSize)
		if err != nil {
			return nil, err
		}
		out.Lines, out.Total = lines, total
	} else {
		list, err := r.store.Standings(ctx, q.RatingFilter)
		if err != nil {
			return nil, err
		}
		SortStandingsBy(list, q.ByElo)
		out.Total = len(list)
		lo := min((page-1)*RatingPageSize, len(list))
		out.Lines = list[lo:min(lo+RatingPageSize, len(list))]
	}
	out.Pages = max(1, (out.Total+RatingPageSize-1)/RatingPageSize)
	return out, nil
}

// RatingVersion changes whenever a rating may have: what a page built from the ratings is cached by.
func (r *Records) RatingVersion(ctx context.Context) (int64, error) {
	return r.store.RatingVersion(ctx)
}

// RoleFigures are a player's games, wins and points in one role.
type RoleFigures struct {
	Role                string
	Games, Wins, Points int
}

// EloPoint is a player's standing after one of his counted games.
type EloPoint struct {
	GameID   int64
	PlayedAt time.Time
	Points   int // his points so far, hundredths
	Elo      int // his Elo after the game, hundredths
}

// PlayerStats are a player's figures in one rating (a rule set's counted games), all from his games' records.
type PlayerStats struct {
	PlayerID            int64
	Rules               string
	Games, Wins, Points int
	Elo                 int
	Roles               []RoleFigures // the rule set's roles that he played, in RatingRoles order first
	FirstKilled         int           // games in which he was killed on the first night with shots
	BestMoves           int           // best moves he made
	BestNamed           int           // seats named in them
	BestBlacks          int           // blacks among them
	Checks, ChecksBlack int           // as sheriff (commissar): checks, and those that found a black player
	DonChecks, DonFound int           // as don: checks, and those that found the sheriff
	Votes, VotesBlack   int           // hands in voting rounds, and those against black players
	Noms, NomsBlack     int           // nominations, and those of black players
	Fouls, Disqualified int
	History             []EloPoint // oldest first
	Partners, Opponents []CoPlayer // the most frequent, up to five each
}

// Share returns part/whole as a fraction, 0 for no whole.
func Share(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return float64(part) / float64(whole)
}

// Average is his points per game in hundredths, rounded half away from zero.
func (p *PlayerStats) Average() int { return Standing{Games: p.Games, Points: p.Points}.Average() }

// PlayerStats computes a player's figures in a rule set's rating (ClubRules when rules is empty).
func (r *Records) PlayerStats(ctx context.Context, id int64, rules string) (*PlayerStats, error) {
	_, _, ps, err := r.PlayerPage(ctx, id, rules)
	return ps, err
}

// PlayerPage returns what a player's page shows, read once: his public profile, his results in saved games
// (oldest first) and his figures in a rule set's rating.
func (r *Records) PlayerPage(ctx context.Context, id int64, rules string) (*Player, []GameResult, *PlayerStats, error) {
	if err := r.checkRules(rules); err != nil {
		return nil, nil, nil, err
	}
	pl, res, err := r.Player(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	ps, err := r.statsOf(ctx, id, rules, res)
	return pl, res, ps, err
}

func (r *Records) statsOf(ctx context.Context, id int64, rules string, res []GameResult) (*PlayerStats, error) {
	scope := RatingFilter{Rules: rules}.Scope()
	ps := StatsOf(id, scope, res)
	co, err := r.store.CoPlayers(ctx, id, scope)
	if err != nil {
		return nil, err
	}
	ps.Partners, ps.Opponents = topCo(co, true), topCo(co, false)
	return ps, nil
}

// StatsOf sums a player's figures over his counted results of a rule set (results oldest first), without the
// partners and opponents.
func StatsOf(id int64, rules string, results []GameResult) *PlayerStats {
	ps := &PlayerStats{PlayerID: id, Rules: rules, Elo: EloStart}
	roles := map[string]*RoleFigures{}
	var order []string
	for _, g := range results {
		if !g.Counted || g.Rules != rules {
			continue
		}
		ps.Games++
		ps.Points += g.Points
		rf := roles[g.Role]
		if rf == nil {
			rf = &RoleFigures{Role: g.Role}
			roles[g.Role] = rf
			order = append(order, g.Role)
		}
		rf.Games++
		rf.Points += g.Points
		if g.Won {
			ps.Wins++
			rf.Wins++
		}
		st := g.Stats
		if st.FirstKilled {
			ps.FirstKilled++
		}
		if st.BestNamed > 0 {
			ps.BestMoves++
			ps.BestNamed += st.BestNamed
			ps.BestBlacks += st.BestBlacks
		}
		ps.Checks += st.Checks
		ps.ChecksBlack += st.ChecksBlack
		ps.DonChecks += st.DonChecks
		ps.DonFound += st.DonFound
		ps.Votes += st.Votes
		ps.VotesBlack += st.VotesBlack
		ps.Noms += st.Noms
		ps.NomsBlack += st.NomsBlack
		ps.Fouls += st.Fouls
		if st.Disq {
			ps.Disqualified++
		}
		ps.Elo = g.EloAfter
		ps.History = append(ps.History, EloPoint{GameID: g.GameID, PlayedAt: g.PlayedAt, Points: ps.Points, Elo: g.EloAfter})
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := RoleIndex(order[i]), RoleIndex(order[j])
		if a < 0 {
			a = 99
		}
		if b < 0 {
			b = 99
		}
		return a < b
	})
	for _, role := range order {
		ps.Roles = append(ps.Roles, *roles[role])
	}
	return ps
}

func topCo(co []CoPlayer, partner bool) []CoPlayer {
	var out []CoPlayer
	for _, c := range co {
		if c.Partner == partner {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Games != out[j].Games {
			return out[i].Games > out[j].Games
		}
		return out[i].Nick < out[j].Nick
	})
	return out[:min(5, len(out))]
}

// Balance is how often each side won a set of games.
type Balance struct {
	Key                     string // the table size ("10") or the season ("2026")
	Games, Red, Black, Draw int
}

// ClubStats are the club's figures over a rating's counted games.
type ClubStats struct {
	Rules    string
	Games    int
	BySize   []Balance // by the number of players at the table, smallest first
	BySeason []Balance // by season (a calendar year in the club's time zone), oldest first
	Version  int64
}

type clubCache struct {
	mu sync.Mutex
	by map[string]*ClubStats
}

// ClubStats returns the club's red/black balance per table size and per season for a rule set's rating,
// computed once per version of the ratings.
func (r *Records) ClubStats(ctx context.Context, rules string) (*ClubStats, error) {
	if err := r.checkRules(rules); err != nil {
		return nil, err
	}
	scope := RatingFilter{Rules: rules}.Scope()
	v, err := r.store.RatingVersion(ctx)
	if err != nil {
		return nil, err
	}
	r.club.mu.Lock()
	if cs := r.club.by[scope]; cs != nil && cs.Version == v {
		r.club.mu.Unlock()
		return cs, nil
	}
	r.club.mu.Unlock()
	games, err := r.store.RatedGames(ctx, scope)
	if err != nil {
		return nil, err
	}
	cs := BalanceOf(games, r.clock.Zone)
	cs.Rules, cs.Version = scope, v
	r.club.mu.Lock()
	if r.club.by == nil {
		r.club.by = map[string]*ClubStats{}
	}
	r.club.by[scope] = cs
	r.club.mu.Unlock()
	return cs, nil
}

// BalanceOf sums who won the games, per table size and per season (the calendar year in zone).
func BalanceOf(games []RatedGame, zone *time.Location) *ClubStats {
	cs := &ClubStats{Games: len(games)}
	size, season := map[int]*Balance{}, map[int]*Balance{}
	add := func(m map[int]*Balance, k int, w string) {
		b := m[k]
		if b == nil {
			b = &Balance{}
			m[k] = b
		}
		b.Games++
		switch w {
		case "red":
			b.Red++
		case "black":
			b.Black++
		default:
			b.Draw++
		}
	}
	for _, g := range games {
		add(size, g.Players, g.Winner)
		add(season, g.PlayedAt.In(zone).Year(), g.Winner)
	}
	list := func(m map[int]*Balance) []Balance {
		var keys []int
		for k := range m {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		var out []Balance
		for _, k := range keys {
			b := *m[k]
			b.Key = strconv.Itoa(k)
			out = append(out, b)
		}
		return out
	}
	cs.BySize, cs.BySeason = list(size), list(season)
	return cs
}

// Backfill computes the figures of saved games that have none (saved before they existed) from their records, and
// reports how many games it filled. Points never change. A game whose record does not replay is left as it is.
func (r *Records) Backfill(ctx context.Context) (int, error) {
	done, skipped := 0, map[int64]bool{}
	for {
		ids, err := r.store.GamesWithoutStats(ctx, 200+len(skipped))
		if err != nil {
			return done, err
		}
		progress := false
		for _, id := range ids {
			if skipped[id] {
				continue
			}
			progress = true
			st, err := r.games.load(ctx, id)
			if err != nil {
				skipped[id] = true
				continue
			}
			stats, err := SeatStatsOf(st.Record)
			if err != nil {
				skipped[id] = true
				continue
			}
			if err := r.store.SetResultStats(ctx, id, stats); err != nil {
				return done, err
			}
			done++
		}
		if !progress {
			return done, nil
		}
	}
}
