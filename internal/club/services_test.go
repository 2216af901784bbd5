package club_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// fixture is a club on a fresh SQLite database with one account of each kind: the services' tests run on it
// without HTTP.
type fixture struct {
	t     *testing.T
	db    *sqlstore.DB
	svc   *club.Services
	clock *club.Clock
	now   time.Time
	users map[string]*club.User // by login
}

var tenRoles = []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), filepath.Join(t.TempDir(), "club.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &fixture{t: t, db: db, now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), users: map[string]*club.User{}}
	f.clock = club.NewClock(time.UTC, func() time.Time { return f.now })
	f.svc = club.NewServices(db, f.clock)
	for _, u := range []struct {
		login  string
		role   club.Role
		status club.MemberStatus
	}{
		{"admin", club.RoleAdmin, club.StatusActive}, {"chief", club.RoleHost, club.StatusActive},
		{"judge", club.RoleHost, club.StatusActive}, {"host", club.RoleHost, club.StatusActive},
		{"member", club.RoleMember, club.StatusActive}, {"pending", club.RoleMember, club.StatusPending},
	} {
		acc := &club.User{Login: u.login, Name: u.login, Role: u.role, PasswordHash: "not a hash", Status: u.status}
		if err := db.CreateMember(context.Background(), acc, &club.Player{Nick: "Nick-" + u.login}); err != nil {
			t.Fatal(err)
		}
		f.users[u.login] = acc
	}
	return f
}

func (f *fixture) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// clubGame starts a club game hosted by the host, with guests.
func (f *fixture) clubGame() *club.Game {
	f.t.Helper()
	ng := club.NewGame{Rules: club.ClubRules, Rated: true}
	for i, r := range tenRoles {
		ng.Seats = append(ng.Seats, club.NewSeat{Name: fmt.Sprintf("Guest %d", i+1), Role: r, Guest: true})
	}
	g, err := f.svc.Games.Start(context.Background(), f.users["host"], ng)
	f.must(err)
	return g
}

// tournamentGame makes a tournament (chief judge: chief) of ten players at one table (its judge: judge), with
// the member among them, and starts its first game as the judge.
func (f *fixture) tournamentGame() (*club.Tournament, *club.Stage, *club.Game) {
	f.t.Helper()
	ctx := context.Background()
	admin := f.users["admin"]
	tour := &club.Tournament{Name: "Cup", StartsOn: "2026-12-01", EndsOn: "2026-12-02", ChiefJudge: f.users["chief"].ID}
	f.must(f.svc.Tournaments.Create(ctx, admin, tour))
	_, err := f.svc.Tournaments.AddParticipant(ctx, admin, tour.ID, "Nick-member")
	f.must(err)
	for i := 1; i < 10; i++ {
		_, err := f.svc.Tournaments.AddParticipant(ctx, admin, tour.ID, fmt.Sprintf("Player %d", i))
		f.must(err)
	}
	st, _, err := f.svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "Q", Rounds: 2})
	f.must(err)
	f.must(f.svc.Tournaments.SetJudge(ctx, admin, tour.ID, st.ID, 1, f.users["judge"].ID))
	g, err := f.svc.Tournaments.StartGame(ctx, f.users["judge"], tour.ID, st.ID, 1, 1, tenRoles)
	f.must(err)
	return tour, st, g
}

// refused reports whether err is a refusal for who the user is: not logged in, or not allowed.
func refused(err error) bool {
	c := club.ErrorCode(err)
	return c == club.Unauthorized || c == club.Forbidden
}

// TestPermissions asks every service action of every kind of account (and of nobody) and checks that exactly those
// it names get past the permission check; what happens next (the action's own checks) is not this test's matter.
func TestPermissions(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tour, stage, tgame := f.tournamentGame()
	g := f.clubGame()
	night, err := f.svc.Nights.Create(ctx, f.users["admin"], club.NightForm{StartsAt: f.now.Add(72 * time.Hour), Place: "Café", Tables: 1, PerTable: 10})
	f.must(err)
	saved := f.clubGame()
	st, err := f.svc.Games.Act(ctx, f.users["host"], saved.ID, 0, []record.Event{{Event: mafia.TeamLoss(3), Reason: "oath"}})
	f.must(err)
	_, err = f.svc.Games.Save(ctx, f.users["host"], saved.ID, st.Game.Version, true)
	f.must(err)
	other := f.users["pending"].ID
	everyone := []string{"", "pending", "member", "host", "judge", "chief", "admin"}
	hosts := []string{"host", "judge", "chief", "admin"}
	members := []string{"member", "pending", "host", "judge", "chief", "admin"}
	cases := []struct {
		name    string
		allowed []string
		do      func(u *club.User) error
	}{
		{"members list", []string{"admin"}, func(u *club.User) error { _, err := f.svc.Accounts.Members(ctx, u); return err }},
		{"member log", []string{"admin"}, func(u *club.User) error { _, err := f.svc.Accounts.MemberLog(ctx, u, other); return err }},
		{"change a member", []string{"admin"}, func(u *club.User) error {
			return f.svc.Accounts.ChangeMember(ctx, u, other, "status", "pending-is-not-settable", "x")
		}},
		{"link a guest", []string{"admin"}, func(u *club.User) error {
			_, err := f.svc.Accounts.LinkGuest(ctx, u, "Guest 1", other, "x")
			return err
		}},
		{"search players", hosts, func(u *club.User) error { _, err := f.svc.Accounts.SearchPlayers(ctx, u, "n", 5); return err }},
		{"list hosts", []string{"admin"}, func(u *club.User) error { _, err := f.svc.Accounts.Hosts(ctx, u); return err }},
		{"own profile", members, func(u *club.User) error { _, err := f.svc.Accounts.Profile(ctx, u); return err }},
		{"save profile", members, func(u *club.User) error {
			return f.svc.Accounts.SaveProfile(ctx, u, club.ProfileForm{Nick: ""})
		}},
		{"change password", members, func(u *club.User) error {
			return f.svc.Accounts.ChangePassword(ctx, u, "wrong-password", "new-password", "")
		}},
		{"language", members, func(u *club.User) error { return f.svc.Accounts.SetLang(ctx, u, "en") }},
		{"create a night", []string{"admin"}, func(u *club.User) error {
			_, err := f.svc.Nights.Create(ctx, u, club.NightForm{})
			return err
		}},
		{"register", []string{"member", "host", "judge", "chief", "admin"}, func(u *club.User) error {
			_, err := f.svc.Nights.Register(ctx, u, night.ID)
			return err
		}},
		{"cancel", members, func(u *club.User) error { _, err := f.svc.Nights.Cancel(ctx, u, night.ID+1000); return err }},
		{"no-show", []string{"admin"}, func(u *club.User) error { return f.svc.Nights.SetNoShow(ctx, u, night.ID, other, true) }},
		{"line-up", []string{"member", "host", "judge", "chief", "admin"}, func(u *club.User) error {
			_, err := f.svc.Nights.LineUp(ctx, u, night.ID)
			return err
		}},
		{"seating pool", hosts, func(u *club.User) error { _, err := f.svc.Nights.Pool(ctx, u, night.ID); return err }},
		{"own registrations", members, func(u *club.User) error { _, err := f.svc.Nights.Registrations(ctx, u); return err }},
		{"start a game", hosts, func(u *club.User) error { _, err := f.svc.Games.Start(ctx, u, club.NewGame{Rules: "none"}); return err }},
		{"list games", hosts, func(u *club.User) error { _, err := f.svc.Games.List(ctx, u, "", 0, 5); return err }},
		{"open a club game", hosts, func(u *club.User) error { _, err := f.svc.Games.Load(ctx, u, g.ID); return err }},
		{"act on a club game", hosts, func(u *club.User) error {
			_, err := f.svc.Games.Act(ctx, u, g.ID, -1, []record.Event{{Event: mafia.Foul(1)}})
			return err
		}},
		{"undo on a club game", hosts, func(u *club.User) error { _, err := f.svc.Games.Undo(ctx, u, g.ID, -1); return err }},
		{"save a club game", hosts, func(u *club.User) error { _, err := f.svc.Games.Save(ctx, u, g.ID, -1, true); return err }},
		{"reopen a saved game", []string{"admin"}, func(u *club.User) error { _, err := f.svc.Games.Reopen(ctx, u, saved.ID, -1); return err }},
		{"import", []string{"admin"}, func(u *club.User) error {
			rec, _ := record.Build(club.ClubRules, nil, nil, nil)
			_, err := f.svc.Games.Import(ctx, u, rec, "x", time.Time{}, true)
			return err
		}},
		{"open a tournament game", []string{"judge", "chief"}, func(u *club.User) error { _, err := f.svc.Games.Load(ctx, u, tgame.ID); return err }},
		{"act on a tournament game", []string{"judge", "chief"}, func(u *club.User) error {
			_, err := f.svc.Games.Act(ctx, u, tgame.ID, -1, []record.Event{{Event: mafia.Foul(1)}})
			return err
		}},
		{"undo on a tournament game", []string{"judge", "chief"}, func(u *club.User) error { _, err := f.svc.Games.Undo(ctx, u, tgame.ID, -1); return err }},
		{"save a tournament game", []string{"judge", "chief"}, func(u *club.User) error { _, err := f.svc.Games.Save(ctx, u, tgame.ID, -1, true); return err }},
		{"agree to extra points", []string{"chief"}, func(u *club.User) error { return f.svc.Tournaments.ApproveExtra(ctx, u, tgame.ID, 99) }},
		{"start a tournament game", []string{"judge", "chief"}, func(u *club.User) error {
			_, err := f.svc.Tournaments.StartGame(ctx, u, tour.ID, stage.ID, 99, 1, nil)
			return err
		}},
		{"create a tournament", []string{"admin"}, func(u *club.User) error { return f.svc.Tournaments.Create(ctx, u, &club.Tournament{}) }},
		{"add a participant", []string{"admin"}, func(u *club.User) error {
			_, err := f.svc.Tournaments.AddParticipant(ctx, u, tour.ID, "")
			return err
		}},
		{"add participants in bulk", []string{"admin"}, func(u *club.User) error {
			_, err := f.svc.Tournaments.AddParticipants(ctx, u, tour.ID, "")
			return err
		}},
		{"remove a participant", []string{"admin"}, func(u *club.User) error { return f.svc.Tournaments.RemoveParticipant(ctx, u, tour.ID, -1) }},
		{"replace a participant", []string{"admin"}, func(u *club.User) error {
			_, err := f.svc.Tournaments.Replace(ctx, u, tour.ID, -1, "")
			return err
		}},
		{"approve a participant", []string{"admin"}, func(u *club.User) error { return f.svc.Tournaments.Approve(ctx, u, tour.ID, -1) }},
		{"add a stage", []string{"admin"}, func(u *club.User) error {
			_, _, err := f.svc.Tournaments.AddStage(ctx, u, tour.ID, club.StageForm{Name: "F"})
			return err
		}},
		{"reseat", []string{"admin"}, func(u *club.User) error { return f.svc.Tournaments.Reseat(ctx, u, tour.ID, stage.ID, 1) }},
		{"swap", []string{"admin"}, func(u *club.User) error { return f.svc.Tournaments.Swap(ctx, u, tour.ID, stage.ID, 99, 1, 2) }},
		{"name a judge", []string{"admin"}, func(u *club.User) error { return f.svc.Tournaments.SetJudge(ctx, u, tour.ID, stage.ID, 99, 1) }},
		{"decide a protest", []string{"chief"}, func(u *club.User) error {
			return f.svc.Tournaments.DecideProtest(ctx, u, tgame.ID, -1, true, "r")
		}},
		{"edit a night", []string{"admin"}, func(u *club.User) error {
			_, err := f.svc.Nights.Edit(ctx, u, night.ID+1000, club.NightForm{})
			return err
		}},
		{"cancel a night", []string{"admin"}, func(u *club.User) error { return f.svc.Nights.CancelNight(ctx, u, night.ID+1000) }},
		{"strikes report", []string{"admin"}, func(u *club.User) error {
			_, err := f.svc.Nights.StrikeReport(ctx, u, f.now, f.now)
			return err
		}},
		{"strikes rule", []string{"admin"}, func(u *club.User) error { _, err := f.svc.Nights.StrikeRule(ctx, u); return err }},
		{"set the strikes rule", []string{"admin"}, func(u *club.User) error { return f.svc.Nights.SetStrikeRule(ctx, u, club.StrikeRule{}) }},
		{"inbox", members, func(u *club.User) error { _, err := f.svc.Notices.Inbox(ctx, u); return err }},
		{"unread count", members, func(u *club.User) error { _, err := f.svc.Notices.Unread(ctx, u); return err }},
		{"mark notices read", members, func(u *club.User) error { return f.svc.Notices.MarkRead(ctx, u) }},
		{"e-mail settings", members, func(u *club.User) error { _, err := f.svc.Notices.Email(ctx, u); return err }},
		{"set e-mail", members, func(u *club.User) error { return f.svc.Notices.SetEmail(ctx, u, club.EmailForm{Address: "bad"}) }},
		{"file a protest", members, func(u *club.User) error {
			_, err := f.svc.Tournaments.FileProtest(ctx, u, tgame.ID, "result", "x")
			return err
		}},
	}
	for _, tc := range cases {
		allowed := map[string]bool{}
		for _, who := range tc.allowed {
			allowed[who] = true
		}
		for _, who := range everyone {
			u := f.users[who] // nil for nobody
			err := tc.do(u)
			switch {
			case allowed[who] && refused(err):
				t.Errorf("%s by %q: refused (%v), want allowed", tc.name, who, err)
			case !allowed[who] && !refused(err):
				t.Errorf("%s by %q: %v, want refused", tc.name, who, err)
			}
		}
	}
}

// countingStore counts the reads of games' logs.
type countingStore struct {
	club.Store
	events int
}

func (s *countingStore) Events(ctx context.Context, gameID int64) ([]club.StoredEvent, error) {
	s.events++
	return s.Store.Events(ctx, gameID)
}

// The state a host's action computed serves the page that follows: the game is not read and replayed again,
// unless its version has moved in the store (another device, another server).
func TestActionStateServesTheNextPage(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	cs := &countingStore{Store: f.db}
	svc := club.NewServices(cs, f.clock)
	host := f.users["host"]
	g := f.clubGame()
	st, err := svc.Games.Act(ctx, host, g.ID, 0, []record.Event{{Event: mafia.Foul(1)}})
	f.must(err)
	reads := cs.events
	again, err := svc.Games.Load(ctx, host, g.ID)
	f.must(err)
	if cs.events != reads {
		t.Errorf("the page after an action read the log again (%d reads, %d before)", cs.events, reads)
	}
	if again.Game.Version != st.Game.Version || again.Play.Result().Seats[0].Fouls != 1 {
		t.Errorf("the kept state is not the action's: version %d, fouls %d", again.Game.Version, again.Play.Result().Seats[0].Fouls)
	}
	// another server (here: the other services on the same database) changes the game: the next load sees it
	_, err = f.svc.Games.Act(ctx, host, g.ID, st.Game.Version, []record.Event{{Event: mafia.Foul(2)}})
	f.must(err)
	fresh, err := svc.Games.Load(ctx, host, g.ID)
	f.must(err)
	if fresh.Game.Version != st.Game.Version+1 || fresh.Play.Result().Seats[1].Fouls != 1 {
		t.Errorf("a change by another server was missed: version %d", fresh.Game.Version)
	}
}

// A foul recorded from the host page says where it fell (the record's "during"), from the engine's state.
func TestFoulRecordsWhereItFell(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	host := f.users["host"]
	g := f.clubGame()
	st, err := f.svc.Games.Act(ctx, host, g.ID, 0, []record.Event{{Event: mafia.Day()}, {Event: mafia.Speech(1)}, {Event: mafia.Foul(4)}})
	f.must(err)
	last := st.Record.Events[len(st.Record.Events)-1]
	if last.During.Kind != mafia.DuringSpeech || last.During.Seat != 1 {
		t.Errorf("the foul's moment: %+v, want the speech of seat 1", last.During)
	}
	again, err := club.NewServices(f.db, f.clock).Games.Load(ctx, f.users["admin"], g.ID) // read from the store
	f.must(err)
	if d := again.Record.Events[len(again.Record.Events)-1].During; d != last.During {
		t.Errorf("stored: %+v, want %+v", d, last.During)
	}
}

// A service that refuses a change to a live game returns its state (roles, shots, checks) with the refusal only to
// whom Load would show it: an admin reopening a live tournament game he does not judge, or a live game he plays at,
// gets the refusal alone (the site once drew the returned state as the host page).
func TestRefusalCarriesNoStateForWhoMayNotSee(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	_, _, tgame := f.tournamentGame()
	admin := f.users["admin"] // the organiser: neither the table's judge nor the chief judge
	if _, err := f.svc.Games.Load(ctx, admin, tgame.ID); !refused(err) {
		t.Fatalf("the organiser loads a live tournament game: %v, want a refusal", err)
	}
	st, err := f.svc.Games.Reopen(ctx, admin, tgame.ID, tgame.Version)
	if err == nil || st != nil {
		t.Errorf("the organiser reopens a live tournament game: state %v, err %v; want a refusal without the game", st != nil, err)
	}
	st, err = f.svc.Games.Reopen(ctx, admin, tgame.ID, 0)
	if err == nil || st != nil {
		t.Errorf("the same at version 0: state %v, err %v; want a refusal without the game", st != nil, err)
	}
	// the member plays in the tournament game: made an admin, he is refused the same way
	member := *f.users["member"]
	member.Role = club.RoleAdmin
	for name, do := range map[string]func() (*club.State, error){
		"reopen": func() (*club.State, error) { return f.svc.Games.Reopen(ctx, &member, tgame.ID, tgame.Version) },
		"undo":   func() (*club.State, error) { return f.svc.Games.Undo(ctx, &member, tgame.ID, tgame.Version) },
		"save":   func() (*club.State, error) { return f.svc.Games.Save(ctx, &member, tgame.ID, tgame.Version, true) },
		"seats": func() (*club.State, error) {
			st, _, err := f.svc.Games.PlanSeats(ctx, &member, tgame.ID, tgame.Version, nil, "x")
			return st, err
		},
	} {
		if st, err := do(); !refused(err) || st != nil {
			t.Errorf("a seated admin's %s: state %v, err %v; want a refusal without the game", name, st != nil, err)
		}
	}
	// whoever may see it gets the game with a refusal of the change itself: the admin reopening a live club game
	g := f.clubGame()
	if st, err := f.svc.Games.Reopen(ctx, admin, g.ID, g.Version); club.ErrorCode(err) != club.Invalid || st == nil {
		t.Errorf("the admin reopens a live club game: state %v, err %v; want the game with the refusal", st != nil, err)
	}
}
