package web

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"mafiaclub/internal/diskspace"
)

// The server's disk. A write that finds the disk full is refused with its own code (club.NoSpace: 507, "the
// server's disk is full: nothing was recorded; tell the club's admin"), logged with its cause and counted
// (mafiaclub_disk_full_total); nothing was recorded, and the same action succeeds once room is made. Before it
// comes to that, the admins' pages warn while the data folder's filesystem has little room left (lowSpace), checked
// once a minute.

// diskEvery is how often the data folder's room is looked at: pages show what the last look saw.
const diskEvery = time.Minute

// lowSpace is the room under which the admins are warned: 1 GiB, or 5 % of the filesystem when that is less (an
// SD card of 8 GB warns under some 400 MB, a VPS's disk of 25 GB or more under 1 GiB). A club's database grows by
// a few MB a month and a backup is its size; what fills a disk is years of backups left in the folder, or other
// programs' files and logs.
func lowSpace(total uint64) uint64 {
	if limit := total / 20; limit < 1<<30 {
		return limit
	}
	return 1 << 30
}

// diskWatch follows the room on the data folder's filesystem (WatchDisk); on PostgreSQL there is no such folder
// to watch, and nothing is warned.
type diskWatch struct {
	mu      sync.Mutex
	dir     string
	stat    func(string) (diskspace.Space, error) // diskspace.Stat; tests give another
	unknown bool                                  // the last look failed, and that was logged
	state   atomic.Pointer[diskState]             // the last look's, nil when none
}

type diskState struct {
	space diskspace.Space
	limit uint64
	low   bool
}

// WatchDisk watches the room on the filesystem of dir (an SQLite club's data folder: its database and its
// backups): it looks now, then every minute until ctx ends. While the room is under lowSpace, admins see a
// warning on every page; the log says once when it falls under (a warning) and when it is back over.
func (s *Server) WatchDisk(ctx context.Context, dir string) {
	s.disk.mu.Lock()
	s.disk.dir = dir
	s.disk.mu.Unlock()
	s.checkDisk()
	go func() {
		t := time.NewTicker(diskEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.checkDisk()
			}
		}
	}()
}

// checkDisk looks at the room on the watched folder's filesystem, logging a change across the threshold.
func (s *Server) checkDisk() {
	w := &s.disk
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dir == "" {
		return
	}
	stat := w.stat
	if stat == nil {
		stat = diskspace.Stat
	}
	sp, err := stat(w.dir)
	if err != nil {
		if !w.unknown {
			s.Log.Warn("the data folder's free space is not known: admins are not warned when it runs low", "dir", w.dir, "err", err)
			w.unknown = true
		}
		w.state.Store(nil)
		return
	}
	w.unknown = false
	st := &diskState{space: sp, limit: lowSpace(sp.Total)}
	st.low = sp.Free < st.limit
	was := w.state.Load()
	switch {
	case st.low && (was == nil || !was.low):
		s.Log.Warn("the data folder's disk is nearly full: free some space there, or nothing can be recorded once it is full",
			"dir", w.dir, "free_bytes", sp.Free, "total_bytes", sp.Total, "warn_under_bytes", st.limit)
	case !st.low && was != nil && was.low:
		s.Log.Info("the data folder's disk has room again", "dir", w.dir, "free_bytes", sp.Free, "total_bytes", sp.Total)
	}
	w.state.Store(st)
}

// diskWarning is the admins' warning in lang while the data folder's disk is nearly full, "" otherwise.
func (s *Server) diskWarning(lang string) string {
	st := s.disk.state.Load()
	if st == nil || !st.low {
		return ""
	}
	return s.Catalog.T(lang, "storage.low", s.size(lang, st.space.Free), s.size(lang, st.space.Total), s.size(lang, st.limit))
}

// size says a number of bytes in lang: whole MB under 1 GB, GB with tenths above (binary units, as df -h
// counts; the catalogue writes the decimal separator).
func (s *Server) size(lang string, n uint64) string {
	if n >= 1<<30 {
		return s.Catalog.T(lang, "storage.gb", n>>30, (n%(1<<30))*10>>30)
	}
	return s.Catalog.T(lang, "storage.mb", n>>20)
}

// diskFull logs a request refused for a full disk (the 507 is counted with the request's metrics) and looks at
// the room again at once, so that the admins' pages say it without waiting for the minute.
func (s *Server) diskFull(r *http.Request, err error) {
	s.Log.Error("the server's disk is full: nothing was recorded", "path", r.URL.Path, "err", err)
	s.checkDisk()
}
