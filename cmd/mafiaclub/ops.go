package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
)

// backupCmd takes a consistent copy of the SQLite database, the server running or not.
func backupCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := serveFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if isPostgresURL(c.db) {
		fmt.Fprintln(stderr, "mafiaclub backup: the database is PostgreSQL: use pg_dump (see the README)")
		return 2
	}
	ctx := context.Background()
	db, err := openStore(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub backup: %v\n", err)
		return 1
	}
	defer db.Close()
	path := fs.Arg(0)
	if path == "" {
		path = club.BackupName(filepath.Join(c.data, "backups"), time.Now())
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			fmt.Fprintf(stderr, "mafiaclub backup: %v\n", err)
			return 1
		}
	}
	if err := db.Backup(ctx, path); err != nil {
		fmt.Fprintf(stderr, "mafiaclub backup: %v\n", err)
		return 1
	}
	info, _ := os.Stat(path)
	fmt.Fprintf(stdout, "backed up to %s (%d bytes)\n", path, info.Size())
	return 0
}

// restoreCmd puts a backup in place of the SQLite database, with the server stopped (the data folder's lock says
// so), after checking it: SQLite's integrity check, a schema this program knows (an older one is migrated), and
// every game replaying. The database it replaces is kept beside it.
func restoreCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := serveFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "mafiaclub restore: name the backup file")
		return 2
	}
	if isPostgresURL(c.db) {
		fmt.Fprintln(stderr, "mafiaclub restore: the database is PostgreSQL: use pg_restore (see the README)")
		return 2
	}
	lock, err := lockData(c.data)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub restore: %v\n", err)
		return 1
	}
	defer lock.Close()
	target := sqlitePath(c)
	tmp := target + ".restoring"
	os.Remove(tmp)
	if err := copyFile(fs.Arg(0), tmp); err != nil {
		fmt.Fprintf(stderr, "mafiaclub restore: %v\n", err)
		return 1
	}
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, tmp)
	if err == nil {
		var version int
		if version, err = db.Check(ctx); err == nil {
			var digest map[int64]string
			if digest, err = club.Digest(ctx, db); err == nil {
				fmt.Fprintf(stdout, "checked: schema %d, %d games replay\n", version, len(digest)-1)
			}
		}
		db.Close()
	}
	if err != nil {
		os.Remove(tmp)
		os.Remove(tmp + "-wal")
		os.Remove(tmp + "-shm")
		fmt.Fprintf(stderr, "mafiaclub restore: %s is not a database to restore: %v\n", fs.Arg(0), err)
		return 1
	}
	old := target + ".before-restore-" + time.Now().UTC().Format("20060102-150405")
	if _, err := os.Stat(target); err == nil {
		if err := os.Rename(target, old); err != nil {
			fmt.Fprintf(stderr, "mafiaclub restore: %v\n", err)
			return 1
		}
		for _, ext := range []string{"-wal", "-shm"} {
			os.Rename(target+ext, old+ext)
		}
		fmt.Fprintf(stdout, "the database it replaces is kept as %s\n", old)
	}
	if err := os.Rename(tmp, target); err != nil {
		fmt.Fprintf(stderr, "mafiaclub restore: %v\n", err)
		return 1
	}
	syncDir(filepath.Dir(target))
	fmt.Fprintf(stdout, "restored %s to %s\n", fs.Arg(0), target)
	return 0
}

// copyCmd copies a whole club from one database to another (SQLite to PostgreSQL or back), then checks that every
// game replays to the same points on the target and that the rating is the same.
func copyCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("copy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "the database to copy: an SQLite file or a postgres:// URL")
	fromClub := fs.String("from-club", "", "instead of -from: a club of this installation (its slug; -data or -db name the installation)")
	to := fs.String("to", "", "the empty database to copy into: an SQLite file or a postgres:// URL")
	c := storeFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if (*from == "") == (*fromClub == "") || *to == "" {
		fmt.Fprintln(stderr, "mafiaclub copy: give -from (or -from-club) and -to")
		return 2
	}
	ctx := context.Background()
	if *fromClub != "" { // a club of this installation moves out: its own store is the source
		dsn, err := clubDSN(ctx, c, *fromClub)
		if err != nil {
			fmt.Fprintf(stderr, "mafiaclub copy: -from-club: %v\n", oneLine(err))
			return 1
		}
		*from = dsn
	}
	src, err := sqlstore.Open(ctx, *from)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub copy: -from: %v\n", err)
		return 1
	}
	defer src.Close()
	dst, err := sqlstore.Open(ctx, *to)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub copy: -to: %v\n", err)
		return 1
	}
	defer dst.Close()
	err = sqlstore.Copy(ctx, src, dst, func(table string, rows int) { fmt.Fprintf(stdout, "%-20s %d rows\n", table, rows) })
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub copy: %v\n", err)
		return 1
	}
	if err := sameClub(ctx, src, dst); err != nil {
		fmt.Fprintf(stderr, "mafiaclub copy: the copy differs: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, "every game replays to the same points on the target, and the rating is the same")
	return 0
}

// sameClub compares two stores' digests (club.Digest): every game and the rating.
func sameClub(ctx context.Context, a, b club.Store) error {
	return compareClubs(ctx, a, b, func(string) bool { return true })
}

// compareClubs compares the digests of the games of a whose digest line include accepts, and the rating; with
// every game accepted, b must have no other games either.
func compareClubs(ctx context.Context, a, b club.Store, include func(line string) bool) error {
	da, err := club.Digest(ctx, a)
	if err != nil {
		return err
	}
	db, err := club.Digest(ctx, b)
	if err != nil {
		return err
	}
	var ids []int64
	for id := range da {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	all := true
	for _, id := range ids {
		if id != 0 && !include(da[id]) {
			all = false
			continue
		}
		if da[id] != db[id] {
			if id == 0 {
				return fmt.Errorf("the rating: %s, and %s", da[id], db[id])
			}
			return fmt.Errorf("game %d: %s, and %s", id, da[id], db[id])
		}
	}
	if all && len(da) != len(db) {
		return fmt.Errorf("%d games, and %d", len(da)-1, len(db)-1)
	}
	return nil
}

func isPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o640)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
