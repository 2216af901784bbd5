package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	"mafiaclub/internal/club"
)

// Backup writes a consistent copy of the whole SQLite database to path while the server goes on (VACUUM INTO:
// SQLite's own online copy, one read transaction, so a write acknowledged before it began is in the copy, and
// none half-done is). The file must not exist. On PostgreSQL it refuses: pg_dump is the tool there (README).
func (db *DB) Backup(ctx context.Context, path string) error {
	if db.dialect != "sqlite" || db.path == "" {
		return club.Errorf(club.Invalid, "on PostgreSQL, back up with pg_dump")
	}
	if _, err := os.Stat(path); err == nil {
		return club.Errorf(club.Conflict, "%s exists already", path)
	}
	// a connection of its own: the store's writer stays free for the hosts, its readers are read-only
	conn, err := sql.Open("sqlite", "file:"+db.path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return &club.Error{Code: club.Internal, Message: "backup", Cause: err}
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		os.Remove(path)
		return &club.Error{Code: club.Internal, Message: "backup", Cause: err}
	}
	// VACUUM INTO writes without syncing: make the copy itself durable before saying it exists
	f, err := os.Open(path)
	if err != nil {
		return &club.Error{Code: club.Internal, Message: "backup", Cause: err}
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return &club.Error{Code: club.Internal, Message: "backup", Cause: err}
	}
	return nil
}

// Check checks a database before it is put in place: SQLite's integrity check, and a schema no newer than this
// program knows. It returns the schema's version.
func (db *DB) Check(ctx context.Context) (int, error) {
	if db.dialect == "sqlite" {
		var res string
		if err := db.r.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&res); err != nil {
			return 0, err
		}
		if res != "ok" {
			return 0, fmt.Errorf("integrity check: %s", res)
		}
	}
	var v int
	if err := db.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, err
	}
	if known := SchemaVersion(db.dialect); v > known {
		return v, fmt.Errorf("the database's schema (%d) is newer than this program's (%d): use a newer mafiaclub", v, known)
	}
	return v, nil
}
