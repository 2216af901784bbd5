package live

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Channel is the PostgreSQL notification channel of the live updates of an installation's own club.
const Channel = "mafiaclub_live"

// ChannelOf is the notification channel of the live updates of the club whose store is the PostgreSQL schema
// schema (issue 29): Channel for "" (the installation's own club), else one of the club's own, so that a club's
// servers hear only their club's changes (game ids are per club: game 7 of one club is not game 7 of another).
// A channel's name is an identifier of at most 63 bytes: the schema's name is hashed into it.
func ChannelOf(schema string) string {
	if schema == "" {
		return Channel
	}
	sum := sha256.Sum256([]byte(schema))
	return Channel + "_" + hex.EncodeToString(sum[:12])
}

// PGBus is the hubs' transport across servers on one PostgreSQL database: a change published on a hub is sent
// with NOTIFY on its club's channel, and every server LISTENs on the channels of the clubs it serves and delivers
// the others' changes to the hub of that channel. One server holds two connections for it, whatever the number of
// clubs: one listening on every channel, one sending. No broker of our own: PostgreSQL's notifications are
// delivered to every listening session after the sender's commit.
type PGBus struct {
	url      string
	log      *slog.Logger
	instance string // this server's mark: its own notifications come back to it and are skipped

	mu      sync.Mutex
	hubs    map[string]*Hub            // by channel
	pending map[string]map[int64]int64 // by channel: the newest version of each game not sent yet
	wake    chan struct{}
	conn    *pgx.Conn // the listening connection, nil while it reconnects
	stale   bool      // a channel was attached since conn listened: it reconnects to listen on it too
}

// StartPGBus listens for the other servers' changes on the database at url until ctx ends, reconnecting after a
// cut (and then telling every hub's subscribers to look again). It returns once it listens, or with the error of
// the first connection. Attach gives it the hubs.
func StartPGBus(ctx context.Context, url string, log *slog.Logger) (*PGBus, error) {
	b := newPGBus(url, log)
	return b, b.start(ctx)
}

func newPGBus(url string, log *slog.Logger) *PGBus {
	var r [6]byte
	rand.Read(r[:])
	return &PGBus{url: url, log: log, instance: hex.EncodeToString(r[:]), hubs: map[string]*Hub{},
		pending: map[string]map[int64]int64{}, wake: make(chan struct{}, 1)}
}

func (b *PGBus) start(ctx context.Context) error {
	conn, err := b.listen(ctx)
	if err != nil {
		return err
	}
	go b.listenLoop(ctx, conn)
	go b.sendLoop(ctx)
	return nil
}

// Attach makes hub's changes go to the other servers on channel, and theirs on channel come to hub. A channel
// attached after the start is listened on from the next moment the listening connection is made again, which
// Attach brings about at once; the hubs are then told to look again, so that nothing sent meanwhile is missed.
func (b *PGBus) Attach(channel string, hub *Hub) {
	b.mu.Lock()
	b.hubs[channel] = hub
	b.stale = true
	conn := b.conn
	b.mu.Unlock()
	hub.SetTransport(busSender{b, channel})
	if conn != nil {
		conn.PgConn().Conn().Close() // the waiting read ends; listenLoop listens again, on every channel
	}
}

// Detach stops a channel: its hub's changes stay on this server, the others' are no longer delivered to it.
func (b *PGBus) Detach(channel string) {
	b.mu.Lock()
	hub := b.hubs[channel]
	delete(b.hubs, channel)
	b.mu.Unlock()
	if hub != nil {
		hub.SetTransport(nil)
	}
}

// StartPG is a bus of one hub on Channel: the installation's own club, alone.
func StartPG(ctx context.Context, url string, hub *Hub, log *slog.Logger) (*PGBus, error) {
	return StartPGOn(ctx, url, Channel, hub, log)
}

// StartPGOn is a bus of one hub on a channel of its own, listening on it from the start.
func StartPGOn(ctx context.Context, url, channel string, hub *Hub, log *slog.Logger) (*PGBus, error) {
	b := newPGBus(url, log)
	b.hubs[channel] = hub
	hub.SetTransport(busSender{b, channel})
	if err := b.start(ctx); err != nil {
		hub.SetTransport(nil)
		return nil, err
	}
	return b, nil
}

func (b *PGBus) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, b.url)
	if err != nil {
		return nil, fmt.Errorf("live updates: %w", err)
	}
	b.mu.Lock()
	channels := make([]string, 0, len(b.hubs))
	for ch := range b.hubs {
		channels = append(channels, ch)
	}
	b.stale = false
	b.mu.Unlock()
	slices.Sort(channels)
	for _, ch := range channels {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{ch}.Sanitize()); err != nil {
			conn.Close(context.Background())
			return nil, fmt.Errorf("live updates: LISTEN: %w", err)
		}
	}
	b.mu.Lock()
	if b.stale { // a channel came while we listened on the others: once more
		b.mu.Unlock()
		conn.Close(context.Background())
		return b.listen(ctx)
	}
	b.conn = conn
	b.mu.Unlock()
	return conn, nil
}

func (b *PGBus) listenLoop(ctx context.Context, conn *pgx.Conn) {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err == nil {
			var inst string
			var id, version int64
			if _, err := fmt.Sscanf(n.Payload, "%s %d %d", &inst, &id, &version); err == nil && inst != b.instance {
				b.mu.Lock()
				hub := b.hubs[n.Channel]
				b.mu.Unlock()
				if hub != nil {
					hub.Deliver(id, version)
				}
			}
			continue
		}
		b.mu.Lock()
		b.conn = nil
		attached := b.stale
		b.mu.Unlock()
		conn.Close(context.Background())
		if ctx.Err() != nil {
			return
		}
		if !attached {
			b.log.Error("live updates: the listening connection was cut; reconnecting", "err", err)
		}
		for wait := 100 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
			if conn, err = b.listen(ctx); err == nil {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		b.mu.Lock()
		hubs := make([]*Hub, 0, len(b.hubs))
		for _, h := range b.hubs {
			hubs = append(hubs, h)
		}
		b.mu.Unlock()
		for _, h := range hubs {
			h.DeliverAll() // what was sent while we were away is read again from the database
		}
	}
}

// busSender is a hub's transport on its channel of the bus.
type busSender struct {
	b       *PGBus
	channel string
}

// Send queues a change for the other servers; only the newest version of a game waits, so the queue is bounded
// by the number of games.
func (s busSender) Send(id, version int64) {
	b := s.b
	b.mu.Lock()
	p := b.pending[s.channel]
	if p == nil {
		p = map[int64]int64{}
		b.pending[s.channel] = p
	}
	if version > p[id] || version < 0 {
		p[id] = version
	}
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

func (b *PGBus) sendLoop(ctx context.Context) {
	var conn *pgx.Conn
	defer func() {
		if conn != nil {
			conn.Close(context.Background())
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-b.wake:
		}
		b.mu.Lock()
		batch := b.pending
		b.pending = map[string]map[int64]int64{}
		b.mu.Unlock()
		for channel, games := range batch {
			for id, version := range games {
				for wait := 100 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
					var err error
					if conn == nil {
						conn, err = pgx.Connect(ctx, b.url)
					}
					if err == nil {
						_, err = conn.Exec(ctx, "SELECT pg_notify($1, $2)", channel, fmt.Sprintf("%s %d %d", b.instance, id, version))
						if err == nil {
							break
						}
						conn.Close(context.Background())
						conn = nil
					}
					if ctx.Err() != nil {
						return
					}
					b.log.Error("live updates: could not notify the other servers; retrying", "err", err)
					select {
					case <-ctx.Done():
						return
					case <-time.After(wait):
					}
				}
			}
		}
	}
}
