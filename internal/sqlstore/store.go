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
	// path is the SQLite file ("" on PostgreSQL and for ":memory:").
	path string
	// group commits SQLite's concurrent appends together (group.go).
	group committer
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
	var db *DB
	var err error
	if isPostgres(dsn) {
		db, err = openPostgresNoMigrate(ctx, dsn)
	} else {
		db, err = openSQLiteNoMigrate(dsn)
	}
	if err != nil {
		return nil, err
	}
	if err := db.checkWritable(ctx); err != nil { // refused at start rather than at the first login (writable.go)
		db.Close()
		return nil, err
	}
	if err := db.migrateAndFill(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func openSQLiteNoMigrate(path string) (*DB, error) {
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	// Reads map the file rather than copy each page out of the OS's cache (a player's page reads a thousand
	// scattered games), and each connection keeps 16 MB of pages of its own: at most 9 connections, 144 MB.
	q.Add("_pragma", "mmap_size(1073741824)")
	q.Add("_pragma", "cache_size(-16384)")
	q.Set("_txlock", "immediate")
	w, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	db := &DB{w: dbh{w, sqlite, nil}, dialect: "sqlite"}
	db.r = db.w
	if path != ":memory:" {
		db.path = path
		q.Add("_pragma", "query_only(1)")
		r, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
		if err != nil {
			w.Close()
			return nil, err
		}
		r.SetMaxOpenConns(8)
		db.r = dbh{r, sqlite, &stmtCache{}}
		fileOpened(db) // its disk's room tells a full disk from a failing one (nospace.go)
	}
	return db, nil
}

func openPostgresNoMigrate(ctx context.Context, dsn string) (*DB, error) {
	p, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	p.SetMaxOpenConns(PostgresPool)
	p.SetMaxIdleConns(PostgresPool)
	p.SetConnMaxIdleTime(PoolIdle)
	db := &DB{w: dbh{p, postgres, nil}, dialect: "postgres"}
	db.r = db.w
	if err := p.PingContext(ctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return db, nil
}

// PostgresPool is a PostgreSQL store's pool as Open makes it: at most this many connections, kept idle up to
// PoolIdle.
const (
	PostgresPool = 16
	PoolIdle     = 5 * time.Minute
)

// LimitPool bounds a PostgreSQL store's pool to at most n connections (n >= 1), idle ones closed after idle: an
// installation of many clubs opens one store per club on every server, and PostgreSQL's connections are counted
// over all of them (docs/federation.md). SQLite's handles are left as they are (one writer, a few readers, no
// server's connections to count).
func (db *DB) LimitPool(n int, idle time.Duration) {
	if db.dialect != "postgres" || n < 1 {
		return
	}
	db.w.db.SetMaxOpenConns(n)
	db.w.db.SetMaxIdleConns(n)
	db.w.db.SetConnMaxIdleTime(idle)
}

// PoolStats is the store's PostgreSQL pool as database/sql counts it (the SQLite writer's on SQLite).
func (db *DB) PoolStats() sql.DBStats { return db.w.db.Stats() }

// Close closes the database.
func (db *DB) Close() error {
	db.stopGroup()
	fileClosed(db)
	db.r.stmts.close()
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

func (db *DB) migrate(ctx context.Context) error { return db.migrateTo(ctx, 0) }

// migrationLock is the PostgreSQL advisory lock the migrations run under, so that two servers starting at once on
// an empty database take turns instead of racing on the first migration ("maf" in ASCII).
const migrationLock = 0x6d6166

// migrateTo applies the embedded migrations of the dialect that the database has not had, in order, each in its
// own transaction with its version recorded; upTo, when not 0, stops after that version (the upgrade test builds
// an older schema with it). Our own runner rather than a library's: it is these forty lines, it keeps the
// schema_migrations table every existing database has, and it runs the same files through the same handle as the
// store's queries on both dialects.
func (db *DB) migrateTo(ctx context.Context, upTo int) error {
	var h handle = db.w.handle()
	if db.dialect == "postgres" {
		conn, err := db.w.db.Conn(ctx) // an advisory lock belongs to a session: one connection for all of it
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
			return fmt.Errorf("migrations lock: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLock)
		h = handle{conn, postgres}
	}
	if _, err := h.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("migrations table: %w", err)
	}
	files, err := migrationFiles(db.dialect)
	if err != nil {
		return err
	}
	for _, m := range files {
		if upTo != 0 && m.version > upTo {
			break
		}
		var done int
		if err := h.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, m.version).Scan(&done); err != nil {
			return err
		}
		if done > 0 {
			continue
		}
		body, _ := migrations.ReadFile(m.file)
		if err := runMigration(ctx, h, m.version, string(body), db.now()); err != nil {
			return fmt.Errorf("migration %s: %w", m.file, err)
		}
	}
	return nil
}

type migration struct {
	version int
	file    string
}

// migrationFiles lists a dialect's migrations in order.
func migrationFiles(dialect string) ([]migration, error) {
	dir := "migrations/" + dialect
	files, err := fs.Glob(migrations, dir+"/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []migration
	for _, f := range files {
		var v int
		if _, err := fmt.Sscanf(f[len(dir)+1:], "%04d_", &v); err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a 4-digit version", f)
		}
		out = append(out, migration{v, f})
	}
	return out, nil
}

// SchemaVersion is the newest migration this program knows for dialect ("sqlite" or "postgres").
func SchemaVersion(dialect string) int {
	files, _ := migrationFiles(dialect)
	if len(files) == 0 {
		return 0
	}
	return files[len(files)-1].version
}

// runMigration runs one migration and records its version, in one transaction.
func runMigration(ctx context.Context, h handle, version int, body string, now time.Time) error {
	beginner, ok := h.q.(interface {
		BeginTx(context.Context, *sql.TxOptions) (*sql.Tx, error)
	})
	if !ok {
		return fmt.Errorf("no transactions on this handle")
	}
	tx, err := beginner.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, body); err != nil { // as written: no placeholders to rebind
		return err
	}
	if _, err := (handle{tx, h.d}).ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, version, ms(now)); err != nil {
		return err
	}
	return tx.Commit()
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
	if noSpace(err) { // rolled back, nothing recorded: a code of its own, not "try again" (nospace.go)
		return errNoSpace(err)
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
