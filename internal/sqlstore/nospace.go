package sqlstore

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	sqlitedrv "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"mafiaclub/internal/club"
	"mafiaclub/internal/diskspace"
)

// A full disk. SQLite says SQLITE_FULL ("database or disk is full") when a write to the database, its WAL or a
// temporary file finds no room (unix VFS: a short write with ENOSPC); the few other writes that can meet ENOSPC
// (an fsync, the shared-memory file grown, a file truncated longer) say SQLITE_IOERR_..., as they do for a disk
// that fails, so those are a full disk only when the filesystem of an SQLite file open in this process has
// (nearly) no room left. PostgreSQL says SQLSTATE 53100 disk_full, on its own disk. Either way the transaction is
// rolled back, nothing is recorded, and the same write succeeds once room is made: the server goes on as it was.

// errNoSpace is how a full disk reaches the layers above: its own code (507 on the site), its cause kept for the
// log.
func errNoSpace(cause error) error {
	return &club.Error{Code: club.NoSpace, Message: "the server's disk is full; nothing was recorded", Cause: cause}
}

// nearlyFull is the room under which an I/O error on a filesystem is taken for a full disk: a few pages of the
// database, not a margin any working disk runs at.
const nearlyFull = 1 << 20

// noSpace reports whether err says that a disk was full.
func noSpace(err error) bool {
	if errors.Is(err, syscall.ENOSPC) {
		return true
	}
	var se *sqlitedrv.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_IOERR_WRITE, sqlite3.SQLITE_IOERR_FSYNC, sqlite3.SQLITE_IOERR_DIR_FSYNC,
			sqlite3.SQLITE_IOERR_TRUNCATE, sqlite3.SQLITE_IOERR_SHMSIZE:
			return openFilesNearlyFull()
		}
		return se.Code()&0xff == sqlite3.SQLITE_FULL
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// 53100 disk_full only: the class's others (53000 insufficient_resources, 53200 out_of_memory, 53300
		// too_many_connections) are the server's trouble of another kind, internal errors logged with their cause
		return pe.Code == "53100"
	}
	return strings.Contains(err.Error(), "database or disk is full") // SQLITE_FULL's words, should a wrapper drop its type
}

// openFiles are the folders of the SQLite stores open in this process, for openFilesNearlyFull.
var openFiles struct {
	sync.Mutex
	dirs map[*DB]string
}

func fileOpened(db *DB) {
	openFiles.Lock()
	defer openFiles.Unlock()
	if openFiles.dirs == nil {
		openFiles.dirs = map[*DB]string{}
	}
	openFiles.dirs[db] = filepath.Dir(db.path)
}

func fileClosed(db *DB) {
	openFiles.Lock()
	defer openFiles.Unlock()
	delete(openFiles.dirs, db)
}

// openFilesNearlyFull reports whether the filesystem of an open SQLite file has less than nearlyFull left.
func openFilesNearlyFull() bool {
	openFiles.Lock()
	defer openFiles.Unlock()
	for _, dir := range openFiles.dirs {
		if sp, err := diskspace.Stat(dir); err == nil && sp.Free < nearlyFull {
			return true
		}
	}
	return false
}
