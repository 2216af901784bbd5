package live

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
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

// PG is the hub's transport across servers on one PostgreSQL database: a change published here is sent with
// NOTIFY, and every server LISTENs and delivers the others' changes to its own subscribers. No broker of our
// own: PostgreSQL's notifications are delivered to every listening session after the sender's commit.
type PG struct {
	url      string
	channel  string
	hub      *Hub
	log      *slog.Logger
	instance string // this server's mark: its own notifications come back to it and are skipped

	mu      sync.Mutex
	pending map[int64]int64 // the newest version of each game not sent yet
	wake    chan struct{}
}

// StartPG listens for the other servers' changes on the database at url and delivers them to hub, and becomes
// hub's transport. It returns once it listens (or with the error of the first connection); it runs until ctx ends,
// reconnecting after a cut (and then telling every subscriber to look again).
func StartPG(ctx context.Context, url string, hub *Hub, log *slog.Logger) (*PG, error) {
	return StartPGOn(ctx, url, Channel, hub, log)
}

// StartPGOn is StartPG on a channel of its own (ChannelOf): a club's.
func StartPGOn(ctx context.Context, url, channel string, hub *Hub, log *slog.Logger) (*PG, error) {
	var b [6]byte
	rand.Read(b[:])
	p := &PG{url: url, channel: channel, hub: hub, log: log, instance: hex.EncodeToString(b[:]), pending: map[int64]int64{}, wake: make(chan struct{}, 1)}
	conn, err := p.listen(ctx)
	if err != nil {
		return nil, err
	}
	go p.listenLoop(ctx, conn)
	go p.sendLoop(ctx)
	hub.SetTransport(p)
	return p, nil
}

func (p *PG) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, p.url)
	if err != nil {
		return nil, fmt.Errorf("live updates: %w", err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+p.channel); err != nil {
		conn.Close(context.Background())
		return nil, fmt.Errorf("live updates: LISTEN: %w", err)
	}
	return conn, nil
}

func (p *PG) listenLoop(ctx context.Context, conn *pgx.Conn) {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err == nil {
			var inst string
			var id, version int64
			if _, err := fmt.Sscanf(n.Payload, "%s %d %d", &inst, &id, &version); err == nil && inst != p.instance {
				p.hub.Deliver(id, version)
			}
			continue
		}
		conn.Close(context.Background())
		if ctx.Err() != nil {
			return
		}
		p.log.Error("live updates: the listening connection was cut; reconnecting", "err", err)
		for wait := 100 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			if conn, err = p.listen(ctx); err == nil {
				break
			}
		}
		p.hub.DeliverAll() // what was sent while we were away is read again from the database
	}
}

// Send queues a change for the other servers; only the newest version of a game waits, so the queue is bounded
// by the number of games.
func (p *PG) Send(id, version int64) {
	p.mu.Lock()
	if version > p.pending[id] || version < 0 {
		p.pending[id] = version
	}
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *PG) sendLoop(ctx context.Context) {
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
		case <-p.wake:
		}
		p.mu.Lock()
		batch := p.pending
		p.pending = map[int64]int64{}
		p.mu.Unlock()
		for id, version := range batch {
			for wait := 100 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
				var err error
				if conn == nil {
					conn, err = pgx.Connect(ctx, p.url)
				}
				if err == nil {
					_, err = conn.Exec(ctx, "SELECT pg_notify($1, $2)", p.channel, fmt.Sprintf("%s %d %d", p.instance, id, version))
					if err == nil {
						break
					}
					conn.Close(context.Background())
					conn = nil
				}
				if ctx.Err() != nil {
					return
				}
				p.log.Error("live updates: could not notify the other servers; retrying", "err", err)
				select {
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
			}
		}
	}
}
