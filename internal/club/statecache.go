package club

import "sync"

// stateCacheSize bounds the states kept: a club runs a few dozen games at once; a state is a few kilobytes.
const stateCacheSize = 512

// stateCache keeps the last state of recently used games, so that the page after a host's action, and every
// reload of a device following the game, is drawn without reading and replaying the log. The store's version
// decides whether a kept state is still the game's: a change made by another server is never missed.
type stateCache struct {
	mu     sync.Mutex
	states map[int64]*State
	order  []int64 // insertion order, for eviction
}

func (c *stateCache) get(id int64) *State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.states[id]
}

func (c *stateCache) put(st *State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.states == nil {
		c.states = map[int64]*State{}
	}
	id := st.Game.ID
	if _, ok := c.states[id]; !ok {
		c.order = append(c.order, id)
	}
	c.states[id] = st
	for len(c.states) > stateCacheSize {
		delete(c.states, c.order[0])
		c.order = c.order[1:]
	}
}
