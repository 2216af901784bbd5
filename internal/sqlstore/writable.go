package sqlstore

import (
	"context"
	"errors"
	"fmt"
)

// ErrNotWritable is Open's refusal of a database it cannot write (errors.Is): a file the server's user may only
// read, a folder where SQLite cannot make its journal, a full disk, a PostgreSQL standby or a read-only user.
// Without the check such a server would start, serve every page, and fail at the first login.
var ErrNotWritable = errors.New("the database cannot be written")

type notWritable struct {
	msg   string
	cause error
}

func (e *notWritable) Error() string   { return e.msg + " (" + e.cause.Error() + ")" }
func (e *notWritable) Unwrap() []error { return []error{ErrNotWritable, e.cause} }

// checkWritable makes sure that the database can be written, before anything is read or migrated. On SQLite a
// rolled-back write, or BEGIN IMMEDIATE, proves nothing (the first touches no file; the second succeeds on a file
// opened read-only), so a real write is committed: the header's user_version written back as it is (this program
// does not use it), which takes the write lock and appends a page to the WAL with its fsync.
func (db *DB) checkWritable(ctx context.Context) error {
	if db.dialect == "postgres" {
		return db.checkPostgresWritable(ctx)
	}
	if db.path == "" { // :memory:
		return nil
	}
	var v int64
	err := db.w.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v)
	if err == nil {
		_, err = db.w.db.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, v))
	}
	switch {
	case err == nil:
		return nil
	case noSpace(err):
		return &notWritable{fmt.Sprintf("the database file %s cannot be written: its disk is full; free some space there", db.path), err}
	}
	return &notWritable{fmt.Sprintf("the database file %s cannot be written: check its owner and permissions, and its folder's "+
		"(the user the server runs as must be able to write both)", db.path), err}
}

// checkPostgresWritable refuses a standby or a connection whose transactions are read-only; on a database that
// has the store's tables, it also checks that this user may write them (an UPDATE that matches no row: the
// privileges and the read-only state are checked before any row is looked at).
func (db *DB) checkPostgresWritable(ctx context.Context) error {
	var readOnly string
	var standby bool
	if err := db.w.db.QueryRowContext(ctx, `SELECT current_setting('transaction_read_only'), pg_is_in_recovery()`).Scan(&readOnly, &standby); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	if standby {
		return &notWritable{"the PostgreSQL database cannot be written: the server is a standby (read-only); give -db the primary's URL",
			errors.New("pg_is_in_recovery() is true")}
	}
	if readOnly == "on" {
		return &notWritable{"the PostgreSQL database cannot be written: transactions are read-only for this connection; " +
			"turn default_transaction_read_only off for the club's user (ALTER ROLE ... SET default_transaction_read_only = off) or in the URL",
			errors.New("transaction_read_only is on")}
	}
	var exists bool
	if err := db.w.db.QueryRowContext(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	if !exists {
		return nil // an empty database: the migrations that create the tables are the first writes
	}
	if _, err := db.w.db.ExecContext(ctx, `UPDATE schema_migrations SET applied_at = applied_at WHERE false`); err != nil {
		return &notWritable{"the PostgreSQL database cannot be written by this user: grant the club's user the right to write its tables", err}
	}
	return nil
}
