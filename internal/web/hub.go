package web

import "sync"

// Hub tells open pages that a game changed: each subscriber gets the game's new version. A slow subscriber misses
// intermediate versions, never the latest, so publishing never blocks.
type Hub struct {
	mu   sync.Mutex
	subs map[int64]map[chan int64]struct{}
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{subs: map[int64]map[chan int64]struct{}{}} }

// Subscribe returns a channel of game id's versions and a function that ends the subscription.
func (h *Hub) Subscribe(id int64) (<-chan int64, func()) {
	ch := make(chan int64, 1)
	h.mu.Lock()
	if h.subs[id] == nil {
		h.subs[id] = map[chan int64]struct{}{}
	}
	h.subs[id][ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs[id], ch)
		if len(h.subs[id]) == 0 {
			delete(h.subs, id)
		}
		h.mu.Unlock()
	}
}

// Publish tells game id's subscribers its new version.
func (h *Hub) Publish(id, version int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[id] {
		select {
		case <-ch: // drop the stale version
		default:
		}
		ch <- version
	}
}
