package club

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"

	"mafiaclub/mafia/spectator"
)

// Live shows games as spectators see them (../shared/spec/public-view.md): the public view of a game in progress,
// computed from the engine's state, and the club's broadcast with roles, delayed by the minutes it sets. All of it
// is public: nothing here needs a login, and nothing here gives more than the spec allows. A tournament game is
// never broadcast with roles before its end.
type Live struct {
	store Store
	games *Games
	clock *Clock
}

// MaxBroadcastDelay bounds a broadcast's delay, in minutes.
const MaxBroadcastDelay = 240

// broadcastSetting is the club setting of its default broadcast delay, in minutes (0 or unset: none).
const broadcastSetting = "broadcast_delay"

// LiveGame is a game as a spectator sees it now.
type LiveGame struct {
	Game *Game
	View *spectator.View
	Mode spectator.Mode
	// Delay is the broadcast's delay (Mode Broadcast); the view is the game as it was that long ago.
	Delay time.Duration
	// Photos marks the seats whose player has a photo (by seat number - 1).
	Photos []bool
	// Key identifies the view's content (not the game): equal views have equal keys. A spectator's stream names its
	// frames with it (after the server's run, whose drawing of the view may differ), so that a client that comes
	// back after a cut gets nothing twice.
	Key string
	// Due is when the broadcast's view changes next by itself (an event recorded comes out of the delay); zero
	// when nothing is waiting.
	Due time.Time
}

// Broadcast is a game's broadcast with roles: its delay, whether it is the game's own or the club's default,
// and whether the game may have one at all (a tournament game may not).
type Broadcast struct {
	Minutes int  // 0: no broadcast
	Own     bool // the game's own setting (else the club's default)
	Allowed bool
}

// ErrSeatedBroadcast refuses the broadcast with roles to one of the game's players while it is played: its delay
// keeps the table's secrets from the room, not from a player who follows it on his phone.
var ErrSeatedBroadcast = Errorf(Forbidden, "you sit at this table: its broadcast with roles is closed to you while the game is played")

// MayWatch checks that viewer u (nil: not logged in) may follow game id in the mode: the public view is anyone's;
// the broadcast with roles is refused to a player seated at the game's table until its result is known.
func (l *Live) MayWatch(ctx context.Context, u *User, id int64, mode spectator.Mode) error {
	if mode != spectator.Broadcast || u == nil || u.PlayerID == 0 {
		return nil
	}
	st, err := l.games.load(ctx, id)
	if err != nil {
		return err
	}
	if st.Game.Status == GameLive && !st.Play.Finished() && Seated(u, st.Game) {
		return ErrSeatedBroadcast
	}
	return nil
}

// Game returns game id as a spectator sees it in the mode. The broadcast of a game that has none (or may not
// have one) is NotFound, as is a game that does not exist.
func (l *Live) Game(ctx context.Context, id int64, mode spectator.Mode) (*LiveGame, error) {
	st, err := l.games.load(ctx, id)
	if err != nil {
		return nil, err
	}
	lg := &LiveGame{Game: st.Game, Mode: mode}
	rec := st.Record
	n := -1
	if mode == spectator.Broadcast {
		b, err := l.broadcast(ctx, st.Game)
		if err != nil {
			return nil, err
		}
		if b.Minutes == 0 || !b.Allowed {
			return nil, Errorf(NotFound, "this game is not broadcast")
		}
		lg.Delay = time.Duration(b.Minutes) * time.Minute
		cut := l.clock.Now().Add(-lg.Delay)
		if st.Game.CreatedAt.After(cut) {
			// before the delay has passed since the start, not even the deal is out: show the public view of
			// the empty record, so that nothing at all is given away
			mode, n = spectator.Public, 0
			lg.Due = st.Game.CreatedAt.Add(lg.Delay)
		} else {
			// the cards as they were at the cut: a correction of the deal comes out of the delay too (and with
			// it the unanimous shots it moved, so the events are counted in the record of the cut)
			var due time.Time
			if rec, due, err = l.recordAt(ctx, st, cut, lg.Delay); err != nil {
				return nil, err
			}
			n = 0
			for _, e := range rec.Events {
				at, err := time.Parse(time.RFC3339, e.At)
				if err == nil && at.After(cut) {
					lg.Due = at.Add(lg.Delay)
					break
				}
				n++
			}
			if !due.IsZero() && (lg.Due.IsZero() || due.Before(lg.Due)) {
				lg.Due = due
			}
		}
	}
	v, err := spectator.Of(rec, n, mode)
	if err != nil {
		return nil, &Error{Code: Internal, Message: "stored game is not a valid record", Cause: err}
	}
	lg.View = v
	data, _ := json.Marshal(v)
	sum := sha256.Sum256(data)
	lg.Key = hex.EncodeToString(sum[:8])
	lg.Photos = make([]bool, len(st.Game.Seats))
	for i, seat := range st.Game.Seats {
		if seat.PlayerID == 0 {
			continue
		}
		if p, err := l.store.Player(ctx, seat.PlayerID); err == nil {
			lg.Photos[i] = p.HasPhoto
		}
	}
	return lg, nil
}

// List returns the public views of the games being played (live, not saved), newest first.
func (l *Live) List(ctx context.Context) ([]LiveGame, error) {
	games, err := l.store.Games(ctx, GameFilter{Status: GameLive, Limit: 100})
	if err != nil {
		return nil, err
	}
	out := make([]LiveGame, 0, len(games))
	for _, g := range games {
		lg, err := l.Game(ctx, g.ID, spectator.Public)
		if err != nil {
			return nil, err
		}
		out = append(out, *lg)
	}
	return out, nil
}

// Broadcast returns a game's broadcast setting: public (a stream's page needs to know whether there is one).
func (l *Live) Broadcast(ctx context.Context, id int64) (Broadcast, error) {
	g, err := l.store.Game(ctx, id)
	if err != nil {
		return Broadcast{}, err
	}
	return l.broadcast(ctx, g)
}

func (l *Live) broadcast(ctx context.Context, g *Game) (Broadcast, error) {
	b := Broadcast{Allowed: g.StageID == 0} // a tournament game's roles reach nobody before its end
	m, own, err := l.store.GameBroadcast(ctx, g.ID)
	if err != nil {
		return b, err
	}
	if !own {
		if m, err = l.DefaultDelay(ctx); err != nil {
			return b, err
		}
	}
	b.Minutes, b.Own = m, own
	if !b.Allowed {
		b.Minutes = 0
	}
	return b, nil
}

// DefaultDelay returns the club's default broadcast delay in minutes (0: games are not broadcast by default).
func (l *Live) DefaultDelay(ctx context.Context) (int, error) {
	v, ok, err := l.store.Setting(ctx, broadcastSetting)
	if err != nil || !ok {
		return 0, err
	}
	m, err := strconv.Atoi(v)
	if err != nil {
		return 0, nil
	}
	return m, nil
}

func checkDelay(minutes int) error {
	if minutes < 0 || minutes > MaxBroadcastDelay {
		return Errorf(Invalid, "a broadcast's delay is 0 to %d minutes", MaxBroadcastDelay)
	}
	return nil
}

// SetDefaultDelay sets the club's default broadcast delay (0: none). Only an admin may.
func (l *Live) SetDefaultDelay(ctx context.Context, u *User, minutes int) error {
	if err := need(u, RoleAdmin); err != nil {
		return err
	}
	if err := checkDelay(minutes); err != nil {
		return err
	}
	return l.store.SetSetting(ctx, broadcastSetting, strconv.Itoa(minutes))
}

// SetBroadcast sets a game's own broadcast delay (0: none for this game), or with own false makes it follow the
// club's default. Whoever may host the game may; a tournament game may not be broadcast with roles.
func (l *Live) SetBroadcast(ctx context.Context, u *User, id int64, minutes int, own bool) error {
	if err := need(u, RoleHost); err != nil {
		return err
	}
	st, err := l.games.Load(ctx, u, id)
	if err != nil {
		return err
	}
	if err := checkDelay(minutes); err != nil {
		return err
	}
	if st.Game.StageID != 0 && own && minutes > 0 {
		return Errorf(Forbidden, "a tournament game is not broadcast with roles")
	}
	return l.store.SetGameBroadcast(ctx, id, minutes, own)
}
