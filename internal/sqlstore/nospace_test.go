package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
)

// TestDiskFullIsNoSpace: on a filesystem with no room left (a tmpfs of 4 MiB, filled), a write is refused with
// the full disk's own code and nothing is written; once room is made, the same write succeeds on the same store
// (issue 23.5).
func TestDiskFullIsNoSpace(t *testing.T) {
	dir := storetest.NeedSmallDisk(t, 4<<20)
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(dir, "club.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.CreatePlayer(ctx, &club.Player{Nick: "Before"}); err != nil {
		t.Fatal(err)
	}
	// the WAL emptied, so that the next commit needs new room (a WAL reused after a checkpoint has some)
	if _, err := db.w.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	free := storetest.FillDisk(t, dir)
	defer free()
	err = db.CreatePlayer(ctx, &club.Player{Nick: "Full"})
	t.Log(err)
	if club.ErrorCode(err) != club.NoSpace {
		t.Fatalf("a write on a full disk: %v (code %s), want %s", err, club.ErrorCode(err), club.NoSpace)
	}
	if !strings.Contains(err.Error(), "disk is full") || !strings.Contains(err.Error(), "database or disk is full") {
		t.Errorf("the error %q does not say the disk is full with SQLite's cause", err)
	}
	if got, _ := db.SearchPlayers(ctx, "Full", 10); len(got) != 0 {
		t.Errorf("the refused write is there: %+v", got)
	}
	free()
	if err := db.CreatePlayer(ctx, &club.Player{Nick: "Full"}); err != nil {
		t.Fatalf("the same write once room is made: %v", err)
	}
	if got, _ := db.SearchPlayers(ctx, "Full", 10); len(got) != 1 {
		t.Errorf("after room was made: %+v, want the player", got)
	}
}

// TestDiskFullAtOpen: a store opened on a full disk (its WAL and shared-memory files gone with the last close, so
// that SQLite must make them again) is refused at Open, saying that the disk is full: SQLite says only "disk I/O
// error" (SQLITE_IOERR_SHMSIZE), which the filesystem left with no room tells from a failing disk.
func TestDiskFullAtOpen(t *testing.T) {
	dir := storetest.NeedSmallDisk(t, 4<<20)
	ctx := context.Background()
	path := filepath.Join(dir, "club.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	free := storetest.FillDisk(t, dir)
	defer free()
	_, err = Open(ctx, path)
	t.Log(err)
	if !errors.Is(err, ErrNotWritable) || !strings.Contains(err.Error(), path+" cannot be written: its disk is full") {
		t.Errorf("Open on a full disk: %v; want ErrNotWritable saying the disk is full", err)
	}
	free()
	db, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("Open once room is made: %v", err)
	}
	db.Close()
}

// TestNoSpaceCodes: which driver errors are a full disk (PostgreSQL's 53100, ENOSPC, SQLite's words) and which
// are not (the rest of class 53, another I/O error).
func TestNoSpaceCodes(t *testing.T) {
	for _, c := range []struct {
		err  error
		want club.Code
	}{
		{&pgconn.PgError{Code: "53100", Message: `could not extend file "base/5/16384": No space left on device`}, club.NoSpace},
		{fmt.Errorf("commit: %w", &pgconn.PgError{Code: "53100"}), club.NoSpace},
		{&pgconn.PgError{Code: "53200", Message: "out of memory"}, club.Internal},
		{&pgconn.PgError{Code: "53000"}, club.Internal},
		{&pgconn.PgError{Code: "23505"}, club.Conflict},
		{&os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, club.NoSpace},
		{errors.New("database or disk is full (13)"), club.NoSpace},
		{&os.PathError{Op: "write", Path: "x", Err: syscall.EIO}, club.Internal},
	} {
		if got := club.ErrorCode(translate(c.err, "thing")); got != c.want {
			t.Errorf("%v: %s, want %s", c.err, got, c.want)
		}
	}
}

// TestOpenRefusesReadOnlyDatabase: a database file that cannot be written is refused at Open, the file named and
// what to check said, rather than found at the first write (issue 23.6). The check runs on a writer opened
// read-only by the driver (mode=ro, which holds for root too); a user other than root also gets a file he may
// only read. (cmd/mafiaclub's TestServeRefusesReadOnlyDatabase runs the server as another user on root's file.)
func TestOpenRefusesReadOnlyDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "club.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	wantRefused := func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, ErrNotWritable) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "owner and permissions") ||
			!strings.Contains(err.Error(), "readonly") {
			t.Errorf("a read-only database: %v; want ErrNotWritable naming %s, what to check and the cause", err, path)
		}
	}
	t.Run("mode=ro", func(t *testing.T) {
		db, err := openSQLiteNoMigrate(path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		ro, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)")
		if err != nil {
			t.Fatal(err)
		}
		db.w.db.Close()
		db.w.db = ro
		err = db.checkWritable(ctx)
		t.Log(err)
		wantRefused(t, err)
	})
	if os.Geteuid() != 0 { // root writes a file whatever its permissions
		t.Run("file", func(t *testing.T) {
			if err := os.Chmod(path, 0o444); err != nil {
				t.Fatal(err)
			}
			defer os.Chmod(path, 0o644)
			_, err := Open(ctx, path)
			wantRefused(t, err)
		})
	}
}

// TestPostgresOpenRefusesReadOnly: a connection whose transactions are read-only, and a user who may only read
// the club's tables, are refused at Open with what to change.
func TestPostgresOpenRefusesReadOnly(t *testing.T) {
	dsn := freshPostgres(t)
	ctx := context.Background()
	db, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u, _ := url.Parse(dsn)
	q := u.Query()
	q.Set("default_transaction_read_only", "on")
	u.RawQuery = q.Encode()
	_, err = Open(ctx, u.String())
	t.Log(err)
	if !errors.Is(err, ErrNotWritable) || !strings.Contains(err.Error(), "default_transaction_read_only") {
		t.Errorf("read-only transactions: %v; want ErrNotWritable saying default_transaction_read_only", err)
	}

	role := "reader_" + strings.TrimPrefix(q.Get("search_path"), "test_")
	if _, err := db.w.db.ExecContext(ctx, `CREATE ROLE `+role+` LOGIN`); err != nil {
		t.Skipf("no role for a reader (%v): the user of TEST_DATABASE_URL may not create roles", err)
	}
	t.Cleanup(func() {
		db.w.db.ExecContext(ctx, `DROP OWNED BY `+role)
		db.w.db.ExecContext(ctx, `DROP ROLE `+role)
	})
	schema := q.Get("search_path")
	for _, stmt := range []string{`GRANT USAGE ON SCHEMA ` + schema + ` TO ` + role, `GRANT SELECT ON ALL TABLES IN SCHEMA ` + schema + ` TO ` + role} {
		if _, err := db.w.db.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	reader, _ := url.Parse(dsn)
	reader.User = url.User(role)
	_, err = Open(ctx, reader.String())
	t.Log(err)
	if !errors.Is(err, ErrNotWritable) || !strings.Contains(err.Error(), "cannot be written by this user") {
		t.Errorf("a user who may only read: %v; want ErrNotWritable saying the user cannot write", err)
	}
	var n int
	files, _ := fs.Glob(migrations, "migrations/postgres/*.sql")
	if err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(files) {
		t.Errorf("%d migrations (%v), want %d: the refused opens changed the database", n, err, len(files))
	}
}
