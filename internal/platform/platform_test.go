package platform_test

import (
	"context"
	"path/filepath"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
)

// A club removed from the installation takes its persons' memberships with it: a club made again under its slug
// is another club, whose accounts are not theirs.
func TestRemoveEndsMemberships(t *testing.T) {
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "mafiaclub.db")
	own, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { own.Close() })
	p := &platform.Platform{Own: own, OwnDSN: dsn}
	db, err := p.Create(ctx, club.Tenant{Slug: "edmonton", Name: "Edmonton"}, platform.WithAdmin("Edmonton", "boss", "Boss", "boss-password"))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	person := &club.Person{Login: "nomad", PasswordHash: "x"}
	if err := own.CreatePerson(ctx, person); err != nil {
		t.Fatal(err)
	}
	for _, slug := range []string{"", "edmonton"} {
		if err := own.AddMembership(ctx, &club.Membership{PersonID: person.ID, Club: slug, UserID: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Remove(ctx, "edmonton"); err != nil {
		t.Fatal(err)
	}
	if ms, err := own.Memberships(ctx, person.ID); err != nil || len(ms) != 1 || ms[0].Club != "" {
		t.Errorf("his memberships after the club's removal: %+v %v", ms, err)
	}
}
