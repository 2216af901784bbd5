package club

import (
	"context"
	"sync"
)

// Leaders are the club rating's lines (all time, the club's rule set, in the rating page's order) and the latest
// saved games, read once per version of the ratings (every save, reopen, correction, import and link raises it):
// the front door shows the top ten, a member's own line and the latest games without a query of their own.
type Leaders struct {
	Version  int64
	Lines    []Standing
	Latest   []Game // the latest saved games, newest first, at most LatestGames
	byPlayer map[int64]int
}

// LatestGames is how many of the latest saved games Leaders keeps.
const LatestGames = 10

// Top is the first n lines (fewer when the rating has fewer).
func (l *Leaders) Top(n int) []Standing { return l.Lines[:min(n, len(l.Lines))] }

// Of is a player's line; ok is false for a player with no counted game.
func (l *Leaders) Of(playerID int64) (Standing, bool) {
	i, ok := l.byPlayer[playerID]
	if !ok {
		return Standing{}, false
	}
	return l.Lines[i], true
}

// leadersCache keeps the Leaders of the newest version read.
type leadersCache struct {
	mu    sync.Mutex
	cur   *Leaders
	build sync.Mutex // one rebuild at a time: requests that miss together wait for it instead of each reading the rating
}

func (c *leadersCache) get(v int64) *Leaders {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l := c.cur; l != nil && l.Version == v {
		return l
	}
	return nil
}

// Leaders returns the club rating's lines of the ratings' current version: public, as the rating page.
func (r *Records) Leaders(ctx context.Context) (*Leaders, error) {
	v, err := r.store.RatingVersion(ctx)
	if err != nil {
		return nil, err
	}
	if l := r.leaders.get(v); l != nil {
		return l, nil
	}
	r.leaders.build.Lock()
	defer r.leaders.build.Unlock()
	if l := r.leaders.get(v); l != nil { // built by the request this one waited for
		return l, nil
	}
	lines, _, err := r.store.StandingsPage(ctx, ClubRules, 0, false, 0, 1<<20)
	if err != nil {
		return nil, err
	}
	latest, err := r.store.Games(ctx, GameFilter{Status: GameSaved, Limit: LatestGames})
	if err != nil {
		return nil, err
	}
	l := &Leaders{Version: v, Lines: lines, Latest: latest, byPlayer: make(map[int64]int, len(lines))}
	for i, st := range lines {
		l.byPlayer[st.PlayerID] = i
	}
	r.leaders.mu.Lock()
	if cur := r.leaders.cur; cur == nil || cur.Version <= v {
		r.leaders.cur = l
	}
	r.leaders.mu.Unlock()
	return l, nil
}

// Now lists the games being played (live, not saved), newest first, at most limit: their numbers, hosts and where
// they are played, all of it public (/live shows it). Unlike List it draws no view, so it costs one query.
func (l *Live) Now(ctx context.Context, limit int) ([]Game, error) {
	return l.store.Games(ctx, GameFilter{Status: GameLive, Limit: limit})
}
