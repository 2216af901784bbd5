// Package sqlstore implements club.Store over database/sql: SQLite (pure Go, modernc.org/sqlite) by default.
// Migrations are embedded per dialect and run at Open.
package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" driver

	"mafiaclub/internal/club"
)

//go:embed migrations
var migrations embed.FS

// DB is a club.Store on SQL. SQLite gets one writer connection (SQLite has one writer anyway; a single
// connection makes writes queue in Go instead of spinning on SQLITE_BUSY) and a pool of readers.
type DB struct {
	w, r    *sql.DB
	dialect string
}

var _ club.Store = (*DB)(nil)

// Open opens (creating it if needed) the database at path, a file name or ":memory:", and migrates it.
// Every commit is synchronous (synchronous=FULL): an acknowledged write survives a crash of the process or the
// machine.
func Open(ctx context.Context, path string) (*DB, error) {
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	db := &DB{w: w, r: w, dialect: "sqlite"}
	if path != ":memory:" {
		q.Add("_pragma", "query_only(1)")
		r, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
		if err != nil {
			w.Close()
			return nil, err
		}
		r.SetMaxOpenConns(8)
		db.r = r
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Close closes the database.
func (db *DB) Close() error {
	err := db.w.Close()
	if db.r != db.w {
		if e := db.r.Close(); err == nil {
			err = e
		}
	}
	return err
}

func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("migrations table: %w", err)
	}
	dir := "migrations/" + db.dialect
	files, err := fs.Glob(migrations, dir+"/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(files)
	for _, f := range files {
		var v int
		if _, err := fmt.Sscanf(f[len(dir)+1:], "%04d_", &v); err != nil {
			return fmt.Errorf("migration %s: name must start with a 4-digit version", f)
		}
		var done int
		if err := db.w.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, v).Scan(&done); err != nil {
			return err
		}
		if done > 0 {
			continue
		}
		body, _ := migrations.ReadFile(f)
		tx, err := db.w.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", f, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, v, ms(time.Now())); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// translate turns a driver error into a domain error, in one place.
func translate(err error, what string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return club.Errorf(club.NotFound, "no such %s", what)
	}
	var ce *club.Error
	if errors.As(err, &ce) {
		return err
	}
	msg := err.Error()
	if strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "PRIMARY KEY") {
		return &club.Error{Code: club.Conflict, Message: what + " already exists", Cause: err}
	}
	return &club.Error{Code: club.Internal, Message: "database error", Cause: err}
}
