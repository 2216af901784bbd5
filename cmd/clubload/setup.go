package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
)

// The clubs' first admin, as setup makes it and run logs in.
const (
	adminLogin    = "admin"
	adminPassword = "clubload-admin"
)

func setupCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("setup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dsn := fs.String("db", "", "the installation's own store (a postgres:// URL, or an SQLite file)")
	n := fs.Int("clubs", 100, "clubs: club-001 .. club-NNN")
	password := fs.String("password", adminPassword, "each club's admin's password (the login is "+adminLogin+")")
	copyFrom := fs.String("copy-from", "", "fill each new club with a copy of the club at this store (a pageload make folder's mafiaclub.db) instead of a first admin")
	cloneFrom := fs.String("clone-from", "", "PostgreSQL: fill each new club with a copy of this club of the installation, table by table inside the database (much faster than -copy-from; no checks)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dsn == "" || *n < 1 || *n > 999 {
		fmt.Fprintln(stderr, "clubload setup: give -db and -clubs from 1 to 999")
		return 2
	}
	ctx := context.Background()
	own, err := sqlstore.Open(ctx, *dsn)
	if err != nil {
		fmt.Fprintf(stderr, "clubload setup: %v\n", err)
		return 1
	}
	defer own.Close()
	var src *sqlstore.DB
	if *copyFrom != "" {
		if src, err = sqlstore.Open(ctx, *copyFrom); err != nil {
			fmt.Fprintf(stderr, "clubload setup: %v\n", err)
			return 1
		}
		defer src.Close()
	}
	plat := &platform.Platform{Own: own, OwnDSN: *dsn}
	made, skipped := 0, 0
	for i := 1; i <= *n; i++ {
		slug := slugOf(i)
		if _, err := plat.Tenant(ctx, slug); err == nil {
			skipped++
			continue
		} else if club.ErrorCode(err) != club.NotFound {
			fmt.Fprintf(stderr, "clubload setup: %s: %v\n", slug, err)
			return 1
		}
		name := fmt.Sprintf("Club %03d", i)
		fill := platform.WithAdmin(name, adminLogin, "Admin", *password)
		switch {
		case src != nil:
			fill = func(ctx context.Context, db *sqlstore.DB) error { return sqlstore.Copy(ctx, src, db, nil) }
		case *cloneFrom != "":
			fill = func(ctx context.Context, db *sqlstore.DB) error { return clone(ctx, plat, *cloneFrom, slug) }
		}
		t0 := time.Now()
		db, err := plat.Create(ctx, club.Tenant{Slug: slug, Name: name}, fill)
		if err != nil {
			fmt.Fprintf(stderr, "clubload setup: %s: %v\n", slug, err)
			return 1
		}
		db.Close()
		made++
		if src != nil || *cloneFrom != "" {
			fmt.Fprintf(stdout, "%s: copied in %s\n", slug, time.Since(t0).Round(time.Millisecond))
		}
	}
	fmt.Fprintf(stdout, "clubs club-001 .. %s: %d made, %d there already\n", slugOf(*n), made, skipped)
	switch {
	case *cloneFrom != "":
		fmt.Fprintf(stdout, "each new club holds a copy of %s, with its accounts and passwords\n", *cloneFrom)
	case src == nil:
		fmt.Fprintf(stdout, "each club's admin (of the new ones): login %s, password %s\n", adminLogin, *password)
	default:
		fmt.Fprintf(stdout, "each new club holds a copy of %s, with its accounts and passwords\n", *copyFrom)
	}
	return 0
}

// clone fills the store of club to (just made and migrated, so its tables are those of from's, column for column)
// with every row of club from's, inside the database: each table emptied and copied with INSERT ... SELECT, the
// foreign keys' triggers off while it runs (session_replication_role: a superuser's), the identity columns'
// sequences moved past the copied ids, and the tables analysed.
func clone(ctx context.Context, plat *platform.Platform, from, to string) error {
	fromDSN, err := plat.DSN(from)
	if err != nil {
		return err
	}
	toDSN, err := plat.DSN(to)
	if err != nil {
		return err
	}
	src, dst := sqlstore.TenantSchema(fromDSN), sqlstore.TenantSchema(toDSN)
	if src == "" || dst == "" {
		return fmt.Errorf("-clone-from is for an installation on PostgreSQL")
	}
	pool, err := sql.Open("pgx", plat.OwnDSN)
	if err != nil {
		return err
	}
	defer pool.Close()
	tx, err := pool.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	q := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	if _, err := tx.ExecContext(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_migrations'
		AND tablename IN (SELECT tablename FROM pg_tables WHERE schemaname = $2) ORDER BY tablename`, dst, src)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, t)
	}
	rows.Close()
	for _, t := range tables {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+q(dst)+`.`+q(t)); err != nil {
			return fmt.Errorf("%s: %w", t, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+q(dst)+`.`+q(t)+` SELECT * FROM `+q(src)+`.`+q(t)); err != nil {
			return fmt.Errorf("%s: %w", t, err)
		}
	}
	rows, err = tx.QueryContext(ctx, `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1 AND is_identity = 'YES'`, dst)
	if err != nil {
		return err
	}
	var ids [][2]string
	for rows.Next() {
		var t, c string
		if err := rows.Scan(&t, &c); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, [2]string{t, c})
	}
	rows.Close()
	for _, tc := range ids {
		table := q(dst) + "." + q(tc[0])
		if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT MAX(`+q(tc[1])+`) FROM `+table+`), 0) + 1, false)`,
			table, tc[1]); err != nil {
			return fmt.Errorf("%s: %w", tc[0], err)
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	for _, t := range tables {
		if _, err := pool.ExecContext(ctx, `ANALYZE `+q(dst)+`.`+q(t)); err != nil {
			return err
		}
	}
	return nil
}
