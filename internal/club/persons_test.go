package club_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
)

// A person who logs in at a club's form often (a host on several devices a night) is not held by that club's
// throttle: his login is not the club's account, and the club's first look at it is a failure, which his person's
// success gives back (Accounts.LoginOr). A wrong password is a wrong login, counted by both throttles.
func TestPersonLoginsAtAClubsForm(t *testing.T) {
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "own.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc := club.NewServices(db, club.NewClock(time.UTC, nil))
	ps := club.NewPersons(db, svc.Clock, platform.NewDirectory(svc))
	if err := ps.SignUp(ctx, "", club.SignUpForm{Login: "nomad", Password: "nomad-password", Nick: "Nomad", Addr: "10.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	login := func(password string) error {
		c := club.Credentials{Login: "nomad", Password: password, Addr: "10.0.0.1"}
		_, _, err := svc.Accounts.LoginOr(ctx, c, func(ctx context.Context) error {
			_, _, err := ps.Login(ctx, c)
			return err
		})
		return err
	}
	for i := range club.FreeGuesses + 3 {
		if err := login("nomad-password"); err != nil {
			t.Fatalf("the person's login %d at the club's form: %v", i+1, err)
		}
	}
	if err := login("wrong-password"); club.ErrorCode(err) != club.Unauthorized {
		t.Errorf("a wrong password: %v, want a wrong login", err)
	}
	// his account in the club has no password: the club's own login never opens it
	u, err := ps.Member(ctx, &club.Person{ID: 1}, "")
	if err != nil || u.Status != club.StatusPending || u.Role != club.RoleMember {
		t.Fatalf("his account in the club: %+v %v", u, err)
	}
	if _, _, err := svc.Accounts.Login(ctx, club.Credentials{Login: u.Login, Password: "", Addr: "10.0.0.2"}); club.ErrorCode(err) != club.Unauthorized {
		t.Errorf("the club's login of his account %q: %v", u.Login, err)
	}

	// a membership that names a club's account which is not the person's (left over from a club removed and made
	// again under its slug) gives nobody
	admin := &club.User{Login: "boss", Name: "Boss", Role: club.RoleAdmin, PasswordHash: "x", Status: club.StatusActive}
	if err := db.CreateUser(ctx, admin); err != nil {
		t.Fatal(err)
	}
	other := &club.Person{Login: "stranger", PasswordHash: "x"}
	if err := db.CreatePerson(ctx, other); err != nil {
		t.Fatal(err)
	}
	if err := db.AddMembership(ctx, &club.Membership{PersonID: other.ID, Club: "", UserID: admin.ID}); err != nil {
		t.Fatal(err)
	}
	if u, err := ps.Member(ctx, other, ""); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a membership naming the club's admin: %+v %v, want nobody", u, err)
	}
	if cs, err := ps.Clubs(ctx, other); err != nil || len(cs) != 0 {
		t.Errorf("his clubs: %+v %v, want none", cs, err)
	}
}
