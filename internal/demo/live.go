package demo

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
)

// liveSetting names the game the demo host plays live, so that a restart goes on with it.
const liveSetting = "demo_live_game"

// Live is the demo host playing a club game live at a real pace, then saving it and starting the next, so that
// /live, the club's screen and the stream overlay move by themselves. Every action goes through club.Games as
// the demo host's; another host may step in (the demo logins are public), and the demo host then goes on from
// the game as it is.
type Live struct {
	Services *club.Services
	Store    club.Store // where the game being played is noted (a club setting)
	Host     *club.User // the demo host
	// Pace is how long a full speech takes; every other step takes its time in proportion (a vote on one
	// candidate a few tenths of a second at 4 s), but never less than a tenth of it.
	Pace time.Duration
	// Publish tells the live pages that a game changed (the site's hub); nil for none.
	Publish func(gameID, version int64)
	Log     *slog.Logger
	Seed    uint64 // the games' seed; 0: the clock's
}

// NewLive returns the demo host's live player over the club's services.
func NewLive(ctx context.Context, store club.Store, svc *club.Services, pace time.Duration) (*Live, error) {
	host, err := store.UserByLogin(ctx, club.DemoHostLogin)
	if err != nil {
		return nil, fmt.Errorf("the demo host: %w", err)
	}
	return &Live{Services: svc, Store: store, Host: host, Pace: pace, Log: slog.Default()}, nil
}

// Run plays games until ctx ends, then returns at once (an action being recorded is committed or not, as any
// request's). A database error waits a while and tries again.
func (l *Live) Run(ctx context.Context) {
	seed := l.Seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	rng := rand.New(rand.NewPCG(seed, seed>>7|1))
	for ctx.Err() == nil {
		id, err := l.game(ctx, rng)
		if err == nil {
			err = l.play(ctx, rng, id)
		}
		if ctx.Err() != nil {
			return
		}
		pause := 8 * l.Pace
		if err != nil {
			l.Log.Warn("the demo's live game", "err", err)
			pause = max(pause, 30*time.Second)
		}
		l.sleep(ctx, pause)
	}
}

// sleep waits d or until ctx ends.
func (l *Live) sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// wait is how long the live game takes for a step the season's table takes d for.
func (l *Live) wait(d time.Duration) time.Duration {
	return max(time.Duration(float64(d)*float64(l.Pace)/float64(time.Minute)), l.Pace/10)
}

func (l *Live) publish(st *club.State) {
	if l.Publish != nil && st != nil {
		l.Publish(st.Game.ID, st.Game.Version)
	}
}

// game returns the live game to play: the one being played before a restart, if it is still live, or a new one
// of ten demo players at the club's rules, its roles dealt at random.
func (l *Live) game(ctx context.Context, rng *rand.Rand) (int64, error) {
	if v, ok, err := l.Store.Setting(ctx, liveSetting); err != nil {
		return 0, err
	} else if ok {
		if id, err := strconv.ParseInt(v, 10, 64); err == nil {
			if g, err := l.Store.Game(ctx, id); err == nil && g.Status == club.GameLive {
				return id, nil
			}
		}
	}
	nicks := club.DemoNicks()
	rng.Shuffle(len(nicks), func(i, j int) { nicks[i], nicks[j] = nicks[j], nicks[i] })
	roles, _ := dealDemo(rng, mafia.DefaultRuleSetID, 10)
	seats := make([]club.NewSeat, 10)
	for i := range seats {
		seats[i] = club.NewSeat{Name: nicks[i], Role: roles[i].String()}
	}
	// a normal game: a demo left running for days would otherwise pour some 25 rated games an hour into the
	// season's rating; the live games are there to watch, and stay in the history
	g, err := l.Services.Games.Start(ctx, l.Host, club.NewGame{Rules: mafia.DefaultRuleSetID, Seats: seats, Rated: false})
	if err != nil {
		return 0, err
	}
	if err := l.Store.SetSetting(ctx, liveSetting, strconv.FormatInt(g.ID, 10)); err != nil {
		return 0, err
	}
	if l.Publish != nil {
		l.Publish(g.ID, g.Version)
	}
	l.Log.Info("the demo host starts a live game", "game", g.ID)
	return g.ID, nil
}

// play plays a live game to its end and saves it. When someone else changed the game meanwhile (the action is
// refused), the table goes on from the game as it is now; a game saved by someone else is over.
func (l *Live) play(ctx context.Context, rng *rand.Rand, id int64) error {
	games := l.Services.Games
	st, err := games.Load(ctx, l.Host, id)
	if err != nil {
		return err
	}
	t := newTable(rng, st.Play.Clone(), Style{Disqualify: rng.IntN(40) == 0})
	refused := 0
	for st.Game.Status == club.GameLive {
		a, more := t.next()
		if !more {
			l.sleep(ctx, l.wait(t.tail()))
			if ctx.Err() != nil {
				return nil
			}
			if st, err = games.Save(ctx, l.Host, id, st.Game.Version, st.Game.Rated); err == nil {
				l.publish(st)
				return nil
			}
		} else {
			l.sleep(ctx, l.wait(a.After))
			if ctx.Err() != nil {
				return nil
			}
			var next *club.State
			if next, err = games.ActOnce(ctx, l.Host, st, st.Game.Version, "", a.Events); err == nil {
				st, refused = next, 0
				l.publish(st)
				continue
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		// refused: someone else moved the game on (or saved it); go on from the game as it is now
		if refused++; refused > 5 {
			return fmt.Errorf("game %d: %w", id, err)
		}
		l.sleep(ctx, l.Pace)
		if st, err = games.Load(ctx, l.Host, id); err != nil {
			return err
		}
		t = newTable(rng, st.Play.Clone(), Style{})
	}
	return nil
}
