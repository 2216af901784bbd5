package sqlstore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

// The installation's persons (issue 29, item 2), on both databases: a login is unique ignoring case; a session
// gives its person until it expires or ends; a person has one membership per club and a club's account belongs
// to one person; removing a person takes his sessions and memberships; and `copy` leaves all of it with the
// installation.
func TestPersons(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		dir := t.TempDir()
		n := 0
		persons(t, func(t *testing.T) *DB {
			n++
			return openSQLite(t, filepath.Join(dir, "own"+string(rune('0'+n))+".db"))
		})
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		postgresURL(t)
		persons(t, func(t *testing.T) *DB { return postgresStore(t) })
	})
}

func persons(t *testing.T, open func(t *testing.T) *DB) {
	ctx := context.Background()
	db := open(t)
	anna := &club.Person{Login: "Anna", PasswordHash: "hash-a"}
	if err := db.CreatePerson(ctx, anna); err != nil || anna.ID == 0 {
		t.Fatalf("create: %v (id %d)", err, anna.ID)
	}
	if err := db.CreatePerson(ctx, &club.Person{Login: "aNNa", PasswordHash: "hash-b"}); club.ErrorCode(err) != club.Conflict {
		t.Errorf("a login taken in another case: %v, want a Conflict", err)
	}
	boris := &club.Person{Login: "boris", PasswordHash: "hash-b"}
	if err := db.CreatePerson(ctx, boris); err != nil {
		t.Fatal(err)
	}
	if p, err := db.PersonByLogin(ctx, " ANNA "); err != nil || p.ID != anna.ID || p.PasswordHash != "hash-a" || p.Login != "Anna" {
		t.Errorf("by login ignoring case: %+v %v", p, err)
	}
	if _, err := db.PersonByLogin(ctx, "nobody"); club.ErrorCode(err) != club.NotFound {
		t.Errorf("an unknown login: %v", err)
	}

	now := time.Now()
	if err := db.CreatePersonSession(ctx, []byte("tok-a"), anna.ID, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := db.CreatePersonSession(ctx, []byte("tok-old"), anna.ID, now.Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if p, err := db.SessionPerson(ctx, []byte("tok-a"), now); err != nil || p.ID != anna.ID {
		t.Errorf("a session: %+v %v", p, err)
	}
	if _, err := db.SessionPerson(ctx, []byte("tok-old"), now); club.ErrorCode(err) != club.Unauthorized {
		t.Errorf("an expired session: %v", err)
	}
	if err := db.DeletePersonSession(ctx, []byte("tok-a")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SessionPerson(ctx, []byte("tok-a"), now); club.ErrorCode(err) != club.Unauthorized {
		t.Errorf("an ended session: %v", err)
	}

	for _, m := range []club.Membership{{PersonID: anna.ID, Club: "club-b", UserID: 7}, {PersonID: anna.ID, Club: "", UserID: 7},
		{PersonID: boris.ID, Club: "club-b", UserID: 8}} {
		if err := db.AddMembership(ctx, &m); err != nil {
			t.Fatalf("membership %+v: %v", m, err)
		}
	}
	if err := db.AddMembership(ctx, &club.Membership{PersonID: anna.ID, Club: "club-b", UserID: 9}); club.ErrorCode(err) != club.Conflict {
		t.Errorf("a second membership in one club: %v, want a Conflict", err)
	}
	if err := db.AddMembership(ctx, &club.Membership{PersonID: boris.ID, Club: "", UserID: 7}); club.ErrorCode(err) != club.Conflict {
		t.Errorf("a club's account of another person: %v, want a Conflict", err)
	}
	ms, err := db.Memberships(ctx, anna.ID)
	if err != nil || len(ms) != 2 || ms[0].Club != "" || ms[1].Club != "club-b" || ms[1].UserID != 7 || ms[0].CreatedAt.IsZero() {
		t.Errorf("anna's memberships: %+v %v", ms, err)
	}

	// copy: the installation's persons stay with it (a club copied out takes its own rows only)
	if err := db.CreatePersonSession(ctx, []byte("tok-b"), boris.ID, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	to := open(t)
	if err := Copy(ctx, db, to, nil); err != nil {
		t.Fatalf("copy: %v", err)
	}
	for _, table := range []string{"persons", "person_sessions", "person_clubs"} {
		var n int
		if err := to.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil || n != 0 {
			t.Errorf("copy took %s: %d rows (%v)", table, n, err)
		}
	}

	if err := db.DeletePerson(ctx, boris.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SessionPerson(ctx, []byte("tok-b"), now); club.ErrorCode(err) != club.Unauthorized {
		t.Errorf("a removed person's session: %v", err)
	}
	if ms, err := db.Memberships(ctx, boris.ID); err != nil || len(ms) != 0 {
		t.Errorf("a removed person's memberships: %+v %v", ms, err)
	}
	if err := db.AddMembership(ctx, &club.Membership{PersonID: anna.ID, Club: "club-c", UserID: 8}); err != nil {
		t.Errorf("club-b's account 8 is free again elsewhere: %v", err)
	}
	// a club removed: nobody is its member any more
	if err := db.DropClubMemberships(ctx, "club-b"); err != nil {
		t.Fatal(err)
	}
	if ms, err := db.Memberships(ctx, anna.ID); err != nil || len(ms) != 2 || ms[0].Club != "" || ms[1].Club != "club-c" {
		t.Errorf("anna's memberships after club-b left: %+v %v", ms, err)
	}
}
