// Package live carries live updates: the hub that tells open pages a game changed (on this server, and through a
// transport on every other server of the club: PostgreSQL's LISTEN/NOTIFY), and the server-sent event streams
// that fan one rendered frame out to many clients, none of which can hold the others up.
package live

import "sync"

// Transport carries a change published on this server to the club's other servers. Send never blocks.
type Transport interface {
	Send(id, version int64)
}

// Hub tells subscribers that a game changed: each gets the game's new version. A slow subscriber misses
// intermediate versions, never the latest, so publishing never blocks. A subscription to game 0 hears every game.
type Hub struct {
	mu   sync.Mutex
	subs map[int64]map[chan int64]struct{}
	out  Transport
}

// NewHub returns an empty hub that tells only this server's subscribers until SetTransport.
func NewHub() *Hub { return &Hub{subs: map[int64]map[chan int64]struct{}{}} }

// SetTransport makes Publish tell the other servers too.
func (h *Hub) SetTransport(t Transport) {
	h.mu.Lock()
	h.out = t
	h.mu.Unlock()
}

// Subscribe returns a channel of game id's versions (of every game's, for id 0) and a function that ends the
// subscription.
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

// Publish tells game id's subscribers here, and the other servers, its new version.
func (h *Hub) Publish(id, version int64) {
	h.Deliver(id, version)
	h.mu.Lock()
	out := h.out
	h.mu.Unlock()
	if out != nil {
		out.Send(id, version)
	}
}

// Deliver tells this server's subscribers of game id (and of every game) its new version: a change made here,
// or one a transport brought from another server.
func (h *Hub) Deliver(id, version int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[id] {
		put(ch, version)
	}
	if id != 0 {
		for ch := range h.subs[0] {
			put(ch, version)
		}
	}
}

// DeliverAll tells every subscriber to look again (version -1): a transport that was cut may have missed changes.
func (h *Hub) DeliverAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, subs := range h.subs {
		for ch := range subs {
			put(ch, -1)
		}
	}
}

func put(ch chan int64, version int64) {
	select {
	case <-ch: // drop the stale version
	default:
	}
	ch <- version
}
