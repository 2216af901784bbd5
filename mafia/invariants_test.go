package mafia

import (
	"fmt"
	"reflect"
)

// checkInvariants checks what must hold across every accepted event e that took the game from prev to next.
func checkInvariants(prev, next *Game, e Event) error {
	if next.alive&^prev.alive != 0 {
		return fmt.Errorf("the living increased: %v -> %v", prev.alive.List(), next.alive.List())
	}
	if prev.winner != NoWinner && next.winner != prev.winner {
		return fmt.Errorf("a finished game changed its result: %v -> %v", prev.winner, next.winner)
	}
	if prev.winner != NoWinner && next.alive != prev.alive {
		return fmt.Errorf("a finished game changed who is at the table")
	}
	if pn := prev.Next(); !pn.Allowed.Has(e.Type) {
		return fmt.Errorf("accepted %s, which Next did not allow (allowed %b)", e.Type, pn.Allowed)
	}
	for s := 1; s <= int(next.n); s++ {
		if next.alive.Has(s) != (next.out[s].How == NotOut) {
			return fmt.Errorf("seat %d: alive %v but out %v", s, next.alive.Has(s), next.out[s].How)
		}
	}
	// a round's votes add up to the voters: every living player votes once (default rule), or at most once
	for _, r := range next.rounds[len(prev.rounds):] {
		if r.lift {
			if int(r.yes) > prev.alive.Len() {
				return fmt.Errorf("lift: %d yes of %d players", r.yes, prev.alive.Len())
			}
			continue
		}
		sum := 0
		for _, c := range next.vals[r.off+uint16(r.n) : r.off+2*uint16(r.n)] {
			sum += int(c)
		}
		voters := prev.alive.Len()
		if next.opt.DefaultVoteToLast && sum != voters {
			return fmt.Errorf("day %d: votes add up to %d, but %d players vote", r.day, sum, voters)
		}
		if sum > voters {
			return fmt.Errorf("day %d: %d votes from %d players", r.day, sum, voters)
		}
	}
	if len(next.days) < len(prev.days) || len(next.rounds) < len(prev.rounds) || len(next.score) < len(prev.score) || len(next.vals) < len(prev.vals) {
		return fmt.Errorf("a log shrank")
	}
	if next.Finished() {
		if n := next.Next(); n.Allowed.Has(EvDay) || n.Allowed.Has(EvNight) || n.Allowed.Has(EvVote) {
			return fmt.Errorf("a finished game still allows play")
		}
	}
	return nil
}

// sameGame reports whether two games are in the same state (a rejected event must change nothing).
func sameGame(a, b *Game) bool { return reflect.DeepEqual(*a, *b) }
