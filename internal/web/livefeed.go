package web

import (
	"context"
	"sync"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/live"
	"mafiaclub/mafia/spectator"
)

// feedKey names what a feed follows: a game in a mode, or the list (id 0).
type feedKey struct {
	id   int64
	mode spectator.Mode
}

// feeds are the live streams' sources, one per followed game and mode while someone watches it. A feed hears the
// hub, computes the view once per change through club.Live, and when the view's key changed (a hidden event
// changes nothing, so nothing is sent) renders one frame per rendering (page, screen, overlay, language) that
// every client of that rendering shares.
type feeds struct {
	s  *Server
	mu sync.Mutex
	m  map[feedKey]*feed
}

func newFeeds(s *Server) *feeds { return &feeds{s: s, m: map[feedKey]*feed{}} }

type feed struct {
	key     feedKey
	clients int // under feeds.mu
	stop    chan struct{}

	mu     sync.Mutex
	topics map[liveKind]*live.Topic
	game   *club.LiveGame        // the game's current view (a game's feed)
	list   []club.LiveGame       // the list's (the list's feed)
	ckey   string                // the current view's key
	lines  map[liveKind][]string // the current view of each topic, in lines: what its next delta is made from
	due    time.Time             // when the broadcast's view changes by itself
	timer  *time.Timer           // fires at due
	poke   chan struct{}         // the timer's signal
	unsub  func()
	change <-chan int64
}

// join returns the feed of key (started if nobody watched it) and its topic for the rendering k, with the current
// frame. The caller calls leave when its stream ends.
func (fs *feeds) join(ctx context.Context, key feedKey, k liveKind) (*feed, *live.Topic, error) {
	fs.mu.Lock()
	f := fs.m[key]
	if f == nil {
		f = &feed{key: key, stop: make(chan struct{}), topics: map[liveKind]*live.Topic{}, poke: make(chan struct{}, 1)}
		f.change, f.unsub = fs.s.Live.Subscribe(key.id) // before the first view: no change falls between
		if err := fs.refresh(ctx, f); err != nil {
			f.unsub()
			fs.mu.Unlock()
			return nil, nil, err
		}
		fs.m[key] = f
		fs.s.running.Add(1) // the caller's stream is counted already: never an Add from zero during a wait
		go fs.run(f)
	}
	f.clients++
	fs.mu.Unlock()

	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.topics[k]
	if t == nil {
		t = live.NewTopic(nil)
		f.topics[k] = t
		t.Publish(fs.frame(f, k))
	}
	return f, t, nil
}

// leave ends one client's use of a feed; the last one stops it.
func (fs *feeds) leave(f *feed) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f.clients--
	if f.clients == 0 {
		delete(fs.m, f.key)
		close(f.stop)
	}
}

func (fs *feeds) run(f *feed) {
	defer fs.s.running.Done()
	defer f.unsub()
	for {
		select {
		case <-f.stop:
			f.mu.Lock()
			if f.timer != nil {
				f.timer.Stop()
			}
			f.mu.Unlock()
			return
		case <-f.change:
		case <-f.poke:
		}
		if err := fs.refresh(context.Background(), f); err != nil && club.ErrorCode(err) != club.NotFound {
			fs.s.Log.Error("live feed", "game", f.key.id, "err", err)
		}
	}
}

// refresh computes the feed's view and, when it changed, publishes the new frames.
func (fs *feeds) refresh(ctx context.Context, f *feed) error {
	var (
		game *club.LiveGame
		list []club.LiveGame
		key  string
		err  error
	)
	if f.key.id == 0 {
		list, err = fs.s.svc.Live.List(ctx)
		key = listKey(list)
	} else {
		game, err = fs.s.svc.Live.Game(ctx, f.key.id, f.key.mode)
		if err == nil {
			key = game.Key
		}
	}
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if game != nil && !game.Due.Equal(f.due) {
		f.due = game.Due
		if f.timer != nil {
			f.timer.Stop()
		}
		if !f.due.IsZero() {
			wait := f.due.Sub(fs.s.now()) + 10*time.Millisecond
			f.timer = time.AfterFunc(max(wait, 0), func() {
				select {
				case f.poke <- struct{}{}:
				default:
				}
			})
		}
	}
	if key == f.ckey {
		return nil
	}
	prev := f.ckey
	f.game, f.list, f.ckey = game, list, key
	for k, t := range f.topics {
		old := f.lines[k]
		full := fs.frame(f, k) // and f.lines[k] is the new view's
		var delta *live.Frame
		if old != nil && prev != "" {
			delta = live.NewDelta(fs.frameID(key), fs.frameID(prev), old, f.lines[k])
		}
		t.PublishDelta(full, delta)
	}
	return nil
}

// frame renders the feed's current view for k (f.mu held).
func (fs *feeds) frame(f *feed, k liveKind) *live.Frame {
	p := fs.s.livePageFor(k.Lang)
	var data []byte
	if f.key.id == 0 {
		data = fs.s.fragment(k, fs.s.liveListView(p, f.list))
	} else {
		data = fs.s.fragment(k, fs.s.liveGameView(p, f.game, k))
	}
	if f.lines == nil {
		f.lines = map[liveKind][]string{}
	}
	f.lines[k] = live.Lines(data) // what the next delta of this view is made from
	return live.NewFrame(fs.frameID(f.ckey), "view", data)
}

// frameID is the id of the frames of a view whose key is key: the key names the view, not how this program drew
// it, so the id names this run of the program as well. A browser that comes back with the id of a frame another
// program drew (before a restart, with other templates or catalogues; another server of the club) holds lines
// this one did not draw: it is sent the whole view, never nothing or a delta against lines it does not have.
func (fs *feeds) frameID(key string) string { return fs.s.started + "." + key }
