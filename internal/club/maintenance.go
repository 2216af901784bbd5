package club

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Digest replays every game of a store with the engine and says, per game, its status, winner and each seat's
// points, and adds the club's rating: two stores with the same digest show the same games and the same numbers.
// The program's own commands use it (copy, restore) to check a database before and after; it needs no account
// and is never offered to the site.
func Digest(ctx context.Context, store Store) (map[int64]string, error) {
	games := &Games{store: store, clock: NewClock(time.UTC, nil)}
	ids, err := store.GameIDs(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]string, len(ids)+1)
	for _, id := range ids {
		if line, ok, err := summaryDigest(ctx, store, id); ok || err != nil {
			if err != nil {
				return nil, fmt.Errorf("game %d: %w", id, err)
			}
			out[id] = line
			continue
		}
		st, err := games.load(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", id, err)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s v%d rated=%v", st.Game.Status, st.Play.Winner(), st.Game.Version, st.Game.Rated)
		for _, sr := range st.Play.Result().Seats {
			fmt.Fprintf(&b, " %d:%s:%d:p%d", sr.Seat, sr.Role, sr.Points, st.Game.Seats[sr.Seat-1].PlayerID)
		}
		out[id] = b.String()
	}
	list, err := store.Standings(ctx, RatingFilter{})
	if err != nil {
		return nil, err
	}
	SortStandings(list)
	var b strings.Builder
	for _, s := range list {
		fmt.Fprintf(&b, "%d:%d:%d:%d;", s.PlayerID, s.Games, s.Wins, s.Points)
	}
	out[0] = "rating " + b.String()
	return out, nil
}
