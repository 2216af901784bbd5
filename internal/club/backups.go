package club

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Backuper is a store that can copy itself while it runs (SQLite's VACUUM INTO); PostgreSQL's is pg_dump.
type Backuper interface {
	Backup(ctx context.Context, path string) error
}

// Backups are the database's copies in the backups folder: an admin sees the last ones and starts one from the
// site; `mafiaclub backup` (with no file named) writes to the same folder.
type Backups struct {
	store Store
	clock *Clock
	dir   string
	mu    sync.Mutex // one backup at a time
}

// NewBackups returns the backups of store in dir ("" : none can be made from the site).
func NewBackups(store Store, clock *Clock, dir string) *Backups {
	return &Backups{store: store, clock: clock, dir: dir}
}

// Backup is one backup file.
type Backup struct {
	Name  string
	At    time.Time
	Bytes int64
}

// BackupName is the file a backup taken at t gets in dir: mafiaclub-20261201-190000.db (UTC, so that names
// sort as times do).
func BackupName(dir string, t time.Time) string {
	return filepath.Join(dir, "mafiaclub-"+t.UTC().Format("20060102-150405")+".db")
}

// ErrNoBackups refuses a backup from the site where the store cannot make one or no folder is set.
var ErrNoBackups = &Error{Code: Invalid, Message: "this database is backed up outside the site (PostgreSQL: pg_dump)",
	Format: "this database is backed up outside the site (PostgreSQL: pg_dump)"}

// Available reports whether the site can make backups.
func (b *Backups) Available() bool {
	_, ok := b.store.(Backuper)
	return ok && b.dir != ""
}

// List lists the backups in the folder, newest first. Only an admin may.
func (b *Backups) List(ctx context.Context, admin *User) ([]Backup, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	if b.dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(b.dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{Code: Internal, Message: "backups folder", Cause: err}
	}
	var out []Backup
	for _, e := range entries {
		if e.IsDir() || !strings.HasPrefix(e.Name(), "mafiaclub-") || !strings.HasSuffix(e.Name(), ".db") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, Backup{Name: e.Name(), At: info.ModTime(), Bytes: info.Size()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name > out[j].Name })
	return out, nil
}

// Start takes a backup now into the folder and returns it. Only an admin may; one runs at a time. It is heavy work:
// the site runs it within the club's share (Services.Heavy).
func (b *Backups) Start(ctx context.Context, admin *User) (*Backup, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	bk, ok := b.store.(Backuper)
	if !ok || b.dir == "" {
		return nil, ErrNoBackups
	}
	if !b.mu.TryLock() {
		return nil, Errorf(Conflict, "a backup is being taken; wait for it")
	}
	defer b.mu.Unlock()
	if err := os.MkdirAll(b.dir, 0o750); err != nil {
		return nil, &Error{Code: Internal, Message: "backups folder", Cause: err}
	}
	path := BackupName(b.dir, b.clock.Now())
	if err := bk.Backup(ctx, path); err != nil {
		return nil, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, &Error{Code: Internal, Message: "backup", Cause: err}
	}
	return &Backup{Name: filepath.Base(path), At: info.ModTime(), Bytes: info.Size()}, nil
}
