package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"mafiaclub/internal/club"
)

// Copy copies every row of every table of from (accounts, members, games with their events, club nights,
// registrations, tournaments, logs: whatever the schema has, but the installation's registry of its other clubs
// and its persons, which stay with their installation: installationTables) into to, in one transaction on the target, tables in
// the order of their foreign keys, ids kept. Both are at this program's schema (Open migrates them). A target
// that is not empty is refused and nothing is written. progress, when not nil, is told each table's rows as it
// goes.
func Copy(ctx context.Context, from, to *DB, progress func(table string, rows int)) error {
	tables, err := from.tables(ctx)
	if err != nil {
		return err
	}
	// a target with any account, player or game is a club already; rows the migrations themselves put in an empty
	// database (the ratings' state) are replaced by the source's
	seeded := map[string]bool{}
	for _, t := range tables {
		var n int
		if err := to.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+t).Scan(&n); err != nil {
			return fmt.Errorf("target: %s: %w", t, err)
		}
		if n == 0 {
			continue
		}
		if t == "users" || t == "players" || t == "games" {
			return club.Errorf(club.Conflict, "the target is not empty (%s has %d rows); copy only into an empty database", t, n)
		}
		seeded[t] = true
	}
	tx, err := to.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, t := range tables {
		if seeded[t] {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+t); err != nil {
				return fmt.Errorf("%s: %w", t, err)
			}
		}
		n, err := copyTable(ctx, from, tx, t)
		if err != nil {
			return fmt.Errorf("%s: %w", t, err)
		}
		if progress != nil {
			progress(t, n)
		}
	}
	if to.dialect == "postgres" {
		if err := resetIdentities(ctx, tx); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// copyTable copies one table's rows in batches of multi-row INSERTs.
func copyTable(ctx context.Context, from *DB, tx *txn, table string) (int, error) {
	rows, err := from.r.QueryContext(ctx, `SELECT * FROM `+table)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	perBatch := max(1, 4000/len(cols)) // well under both databases' limits on parameters
	head := `INSERT INTO ` + table + ` (` + strings.Join(cols, ", ") + `) VALUES `
	one := `(` + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + `)`
	var batch []any
	count, inBatch := 0, 0
	flush := func() error {
		if inBatch == 0 {
			return nil
		}
		q := head + strings.TrimSuffix(strings.Repeat(one+", ", inBatch), ", ")
		_, err := tx.ExecContext(ctx, q, batch...)
		batch, inBatch = batch[:0], 0
		return err
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return count, err
		}
		batch = append(batch, vals...)
		inBatch++
		count++
		if inBatch == perBatch {
			if err := flush(); err != nil {
				return count, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return count, err
	}
	return count, flush()
}

// installationTables stay with their installation: its registry of other clubs, and its persons (one account for a
// person of several clubs) with their sessions and memberships. A club copied in or out takes its own store's rows
// only; its members who are persons keep their accounts in the club's store, and the persons stay where they are.
var installationTables = map[string]bool{"platform_clubs": true, "persons": true, "person_sessions": true, "person_clubs": true}

// tables lists the database's tables (all but schema_migrations and installationTables), each after the tables it
// refers to.
func (db *DB) tables(ctx context.Context) ([]string, error) {
	var names []string
	deps := map[string][]string{}
	switch db.dialect {
	case "sqlite":
		var err error
		names, err = queryStrings(ctx, db.r.handle(), `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'`)
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if deps[n], err = queryStrings(ctx, db.r.handle(), `SELECT "table" FROM pragma_foreign_key_list(?)`, n); err != nil {
				return nil, err
			}
		}
	default:
		var err error
		names, err = queryStrings(ctx, db.r.handle(), `SELECT table_name FROM information_schema.tables
			WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name != 'schema_migrations'`)
		if err != nil {
			return nil, err
		}
		fk, err := db.r.QueryContext(ctx, `SELECT c.conrelid::regclass::text, c.confrelid::regclass::text FROM pg_constraint c
			JOIN pg_namespace ns ON ns.oid = c.connamespace WHERE c.contype = 'f' AND ns.nspname = current_schema()`)
		if err != nil {
			return nil, err
		}
		for fk.Next() {
			var t, ref string
			if err := fk.Scan(&t, &ref); err != nil {
				fk.Close()
				return nil, err
			}
			deps[t] = append(deps[t], ref)
		}
		fk.Close()
	}
	names = slices.DeleteFunc(names, func(n string) bool { return installationTables[n] })
	sort.Strings(names)
	var order []string
	done := map[string]bool{}
	var visit func(n string, depth int) error
	visit = func(n string, depth int) error {
		if done[n] {
			return nil
		}
		if depth > len(names) {
			return fmt.Errorf("the foreign keys of %s go round in a circle", n)
		}
		for _, d := range deps[n] {
			if d != n {
				if err := visit(d, depth+1); err != nil {
					return err
				}
			}
		}
		done[n] = true
		order = append(order, n)
		return nil
	}
	for _, n := range names {
		if err := visit(n, 0); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// resetIdentities makes every identity column of a PostgreSQL schema go on from the highest id it holds (rows
// written with their ids, by a copy, leave the sequences at 1).
func resetIdentities(ctx context.Context, tx *txn) error {
	ids, err := queryStrings(ctx, tx.handle, `SELECT table_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND column_name = 'id' AND is_identity = 'YES'`)
	if err != nil {
		return err
	}
	for _, t := range ids {
		if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence(?, 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM `+t+`), false)`, t); err != nil {
			return fmt.Errorf("%s: identity: %w", t, err)
		}
	}
	return nil
}

// queryStrings runs a query of one text column and returns its values.
func queryStrings(ctx context.Context, h handle, query string, args ...any) ([]string, error) {
	rows, err := h.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
