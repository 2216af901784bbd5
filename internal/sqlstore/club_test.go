package sqlstore

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
)

// clubLogo is a logo's bytes of some size (the store keeps them as they are; the service checks them).
var clubLogo = append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7, 0, 0xfe, 1}, 100000)...)

func openSQLite(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func wantClub(t *testing.T, where string, db *DB, want *club.Club) {
	t.Helper()
	got, err := db.ClubProfile(context.Background())
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if d := storetest.SameClub(got, want); d != "" {
		t.Errorf("%s: %s differs: %+v", where, d, got)
	}
}

// TestClubProfileInBackup: a backup (VACUUM INTO) carries the club's identity, its logo byte for byte.
func TestClubProfileInBackup(t *testing.T) {
	dir := t.TempDir()
	db := openSQLite(t, filepath.Join(dir, "club.db"))
	want := storetest.SampleClub(clubLogo)
	if err := db.SetClubProfile(context.Background(), want); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "backup.db")
	if err := db.Backup(context.Background(), backup); err != nil {
		t.Fatal(err)
	}
	wantClub(t, "the backup", openSQLite(t, backup), want)
}

// TestClubProfileCopyBothWays: a copy from SQLite to PostgreSQL and back carries the club's identity.
func TestClubProfileCopyBothWays(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := openSQLite(t, filepath.Join(dir, "club.db"))
	want := storetest.SampleClub(clubLogo)
	if err := src.SetClubProfile(ctx, want); err != nil {
		t.Fatal(err)
	}
	pg := postgresStore(t)
	if err := Copy(ctx, src, pg, nil); err != nil {
		t.Fatalf("copy to PostgreSQL: %v", err)
	}
	wantClub(t, "on PostgreSQL", pg, want)
	back := openSQLite(t, filepath.Join(dir, "back.db"))
	if err := Copy(ctx, pg, back, nil); err != nil {
		t.Fatalf("copy back to SQLite: %v", err)
	}
	wantClub(t, "back on SQLite", back, want)
}
