package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
)

// TestServeRefusesReadOnlyDatabase: a server whose database file it may only read stops at start, exit status 1,
// naming the file and what to check, instead of serving pages and failing every login (issue 23.6; such a server
// wrote nothing at start, on a club with accounts). The file is
// made as a restore run as root leaves it in the service's folder: root's, mode 0644, in a folder the server may
// write (its lock file goes there). The server runs as nobody when the test is root (as CI is: root writes any
// file whatever its mode), or as the test's own user on a file made read-only.
func TestServeRefusesReadOnlyDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := testBinary(t)
	dir, err := os.MkdirTemp("", "mafiaclub-readonly")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o777); err != nil {
		t.Fatal(err)
	}
	// a club's database with its accounts (so that the server need not write at start to make the demo club)
	db, err := sqlstore.Open(context.Background(), filepath.Join(data, "mafiaclub.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := club.SeedDemo(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	file := filepath.Join(data, "mafiaclub.db")

	run := bin
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		nobody, err := user.Lookup("nobody")
		if err != nil {
			t.Fatalf("the user to run the server as: %v", err)
		}
		uid, _ := strconv.ParseUint(nobody.Uid, 10, 32)
		gid, _ := strconv.ParseUint(nobody.Gid, 10, 32)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		// nobody runs a copy of the binary in a folder he may enter (the test binary's folder is root's alone)
		run = filepath.Join(dir, "mafiaclub")
		if err := copyFile(bin, run); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(run, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(data, 0o777); err != nil { // as made, whatever the umask
			t.Fatal(err)
		}
	} else if err := os.Chmod(file, 0o444); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, run, "serve", "-addr", "127.0.0.1:0", "-data", data, "-engine", "off")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if ctx.Err() != nil || !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("a server on a database it cannot write: %v (the context: %v), want exit status 1 at start:\n%s", err, ctx.Err(), out)
	}
	want := "mafiaclub: the database file " + file + " cannot be written: check its owner and permissions"
	if !strings.Contains(string(out), want) || strings.Contains(string(out), "listening on") {
		t.Errorf("the refusal says\n%s\nwant %q and no server listening", out, want)
	}
}
