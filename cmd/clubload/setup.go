package main

import (
	"context"
	"flag"
	"fmt"
	"io"
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
		if src != nil {
			fill = func(ctx context.Context, db *sqlstore.DB) error { return sqlstore.Copy(ctx, src, db, nil) }
		}
		t0 := time.Now()
		db, err := plat.Create(ctx, club.Tenant{Slug: slug, Name: name}, fill)
		if err != nil {
			fmt.Fprintf(stderr, "clubload setup: %s: %v\n", slug, err)
			return 1
		}
		db.Close()
		made++
		if src != nil {
			fmt.Fprintf(stdout, "%s: copied in %s\n", slug, time.Since(t0).Round(time.Millisecond))
		}
	}
	fmt.Fprintf(stdout, "clubs club-001 .. %s: %d made, %d there already\n", slugOf(*n), made, skipped)
	if src == nil {
		fmt.Fprintf(stdout, "each club's admin (of the new ones): login %s, password %s\n", adminLogin, *password)
	} else {
		fmt.Fprintf(stdout, "each new club holds a copy of %s, with its accounts and passwords\n", *copyFrom)
	}
	return 0
}
