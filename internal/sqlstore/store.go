// Package sqlstore implements club.Store over database/sql: SQLite (pure Go, modernc.org/sqlite) by default, or
// PostgreSQL (pgx) for a postgres:// URL. Migrations are embedded per dialect and run at Open.
//
// Every query is written once, in the SQL both dialects share, with ? placeholders; the handles in dialect.go
// rebind them to $1..$n for PostgreSQL and pass Go bools as 0/1 (flags are INTEGER columns in both schemas).
// New rows report their id with INSERT ... RETURNING id (SQLite has it since 3.35). Times are Unix milliseconds.
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

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	_ "modernc.org/sqlite"             // the "sqlite" driver

	"mafiaclub/internal/club"
)

//go:embed migrations
var migrations embed.FS

// DB is a club.Store on SQL. SQLite gets one writer connection (SQLite has one writer anyway; a single
// connection makes writes queue in Go instead of spinning on SQLITE_BUSY) and a pool of readers; PostgreSQL
// gets one pool for both.
type DB struct {
	w, r    dbh
	dialect string // "sqlite" or "postgres": the folder of its migrations
	// Now is the clock of the times the store fills in itself (a row's creation when the caller gave none); the
	// program sets it to the club's clock. Nil is time.Now.
	Now func() time.Time
}

func (db *DB) now() time.Time {
	if db.Now != nil {
		return db.Now()
	}
	return time.Now()
}

var _ club.Store = (*DB)(nil)

// isPostgres reports whether dsn names a PostgreSQL database (a postgres:// or postgresql:// URL).
func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens the database and migrates it. dsn is a postgres:// or postgresql:// URL (pgx's connection string:
// sslmode, search_path and other parameters go in its query), or else an SQLite file name or ":memory:" (the
// file is created if needed).
//
// On SQLite every commit is synchronous (synchronous=FULL): an acknowledged write survives a crash of the
// process or the machine. On PostgreSQL that is the server's synchronous_commit (on by default).
func Open(ctx context.Context, dsn string) (*DB, error) {
	if isPostgres(dsn) {
		return openPostgres(ctx, dsn)
	}
	path := dsn
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	w, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	db := &DB{w: dbh{w, sqlite}, dialect: "sqlite"}
	db.r = db.w
	if path != ":memory:" {
		q.Add("_pragma", "query_only(1)")
		r, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
		if err != nil {
			w.Close()
			return nil, err
		}
		r.SetMaxOpenConns(8)
		db.r = dbh{r, sqlite}
	}
	if err := db.migrateAndFill(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func openPostgres(ctx context.Context, dsn string) (*DB, error) {
	p, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	p.SetMaxOpenConns(16)
	p.SetMaxIdleConns(16)
	p.SetConnMaxIdleTime(5 * time.Minute)
	db := &DB{w: dbh{p, postgres}, dialect: "postgres"}
	db.r = db.w
	if err := p.PingContext(ctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := db.migrateAndFill(ctx); err != nil {
		p.Close()
		return nil, err
	}
	return db, nil
}

// Close closes the database.
func (db *DB) Close() error {
	err := db.w.db.Close()
	if db.r.db != db.w.db {
		if e := db.r.db.Close(); err == nil {
			err = e
		}
	}
	return err
}

// migrateAndFill runs the migrations, then the fix-ups that need Go (the nickname keys).
func (db *DB) migrateAndFill(ctx context.Context) error {
	if err := db.migrate(ctx); err != nil {
		return err
	}
	if err := db.fillNickKeys(ctx); err != nil {
		return err
	}
	return db.rebuildRatings(ctx)
}

func (db *DB) migrate(ctx context.Context) error {
	if _, err := db.w.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`); err != nil {
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
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, v, ms(db.now())); err != nil {
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
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		if pe.Code == "23505" { // unique_violation
			return &club.Error{Code: club.Conflict, Message: what + " already exists", Cause: err}
		}
		return &club.Error{Code: club.Internal, Message: "database error", Cause: err}
	}
	msg := err.Error()
	if strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "PRIMARY KEY") {
		return &club.Error{Code: club.Conflict, Message: what + " already exists", Cause: err}
	}
	return &club.Error{Code: club.Internal, Message: "database error", Cause: err}
}
