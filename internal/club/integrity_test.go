package club_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// A guest linked to a member who sat at the same table counts once: the member's own seat stays his, the guest's
// stays a guest's (issue 9.4).
func TestLinkGuestNeverCountsAGameTwice(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	host, admin, member := f.users["host"], f.users["admin"], f.users["member"]
	play := func(names []string) int64 {
		ng := club.NewGame{Rules: club.ClubRules, Rated: true}
		for i, r := range tenRoles {
			ng.Seats = append(ng.Seats, club.NewSeat{Name: names[i], Role: r, Guest: !strings.HasPrefix(names[i], "Nick-")})
		}
		g, err := f.svc.Games.Start(ctx, host, ng)
		f.must(err)
		st, err := f.svc.Games.Act(ctx, host, g.ID, 0, []record.Event{{Event: mafia.TeamLoss(3), Reason: "oath"}})
		f.must(err)
		_, err = f.svc.Games.Save(ctx, host, g.ID, st.Game.Version, true)
		f.must(err)
		return g.ID
	}
	names := func(at map[int]string) []string {
		out := make([]string, 10)
		for i := range out {
			out[i] = fmt.Sprintf("G%d", i+1)
			if n, ok := at[i+1]; ok {
				out[i] = n
			}
		}
		return out
	}
	// game 1: the member at seat 9 (a black, loses) and a guest "Vasyl" at seat 10 (red, wins)
	both := play(names(map[int]string{9: "Nick-member", 10: "Vasyl"}))
	// game 2: "Vasyl" alone
	alone := play(names(map[int]string{10: "Vasyl"}))
	n, err := f.svc.Accounts.LinkGuest(ctx, admin, "Vasyl", member.ID, "the same person")
	f.must(err)
	if n != 1 {
		t.Errorf("linked %d seats, want 1 (the game he played himself keeps the guest)", n)
	}
	_, res, err := f.svc.Records.Player(ctx, member.PlayerID)
	f.must(err)
	count := map[int64]int{}
	for _, r := range res {
		count[r.GameID]++
	}
	if count[both] != 1 || count[alone] != 1 || len(res) != 2 {
		t.Errorf("the member's results: %+v, want one in each game", res)
	}
	list, err := f.svc.Records.Standings(ctx, club.RatingFilter{})
	f.must(err)
	for _, s := range list {
		if s.PlayerID == member.PlayerID && (s.Games != 2 || s.Wins != 1) {
			t.Errorf("the member's rating line: %d games, %d wins; want 2 games, 1 win", s.Games, s.Wins)
		}
	}
}

// A status reaches the registrations of the nights to come: excluded, he leaves them and the reserve moves up;
// low priority, he moves to the reserve; an excluded member is offered neither in the pool nor in the search
// (issue 9.5).
func TestStatusReachesRegistrations(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin, host := f.users["admin"], f.users["host"]
	// seven places; eight active members register: seven in the main line-up, the eighth in the reserve
	var ms []*club.User
	for i := 0; i < 9; i++ {
		u := &club.User{Login: fmt.Sprintf("m%d", i), Name: "m", Role: club.RoleMember, PasswordHash: "x", Status: club.StatusActive}
		f.must(f.db.CreateMember(ctx, u, &club.Player{Nick: fmt.Sprintf("M%d", i)}))
		ms = append(ms, u)
	}
	night, err := f.svc.Nights.Create(ctx, admin, club.NightForm{StartsAt: f.now.Add(48 * time.Hour), Place: "Café", Tables: 1, PerTable: 7})
	f.must(err)
	for _, u := range ms[:9] {
		_, err := f.svc.Nights.Register(ctx, u, night.ID)
		f.must(err)
	}
	state := func() map[string]club.RegState {
		regs, err := f.svc.Nights.LineUp(ctx, host, night.ID)
		f.must(err)
		out := map[string]club.RegState{}
		for _, r := range regs {
			out[r.Nick] = r.State
		}
		return out
	}
	if s := state(); s["M0"] != club.RegMain || s["M7"] != club.RegReserve || s["M8"] != club.RegReserve {
		t.Fatalf("before: %v", s)
	}
	f.must(f.svc.Accounts.ChangeMember(ctx, admin, ms[0].ID, "status", "excluded", "broke the rules"))
	s := state()
	if s["M0"] != club.RegCancelled || s["M7"] != club.RegMain || s["M8"] != club.RegReserve {
		t.Errorf("after excluding M0: %v; want M0 out, M7 up from the reserve", s)
	}
	f.must(f.svc.Accounts.ChangeMember(ctx, admin, ms[1].ID, "status", "low_priority", "late twice"))
	s = state()
	if s["M1"] != club.RegReserve || s["M8"] != club.RegMain {
		t.Errorf("after M1's low priority: %v; want M1 in the reserve, M8 up", s)
	}
	strikes, _ := f.db.Strikes(ctx, ms[0].ID)
	if len(strikes) != 0 {
		t.Errorf("an exclusion recorded a strike: %+v", strikes)
	}
	pool, err := f.svc.Nights.Pool(ctx, host, night.ID)
	f.must(err)
	if strings.Contains(strings.Join(pool, ","), "M0") {
		t.Errorf("the seating pool offers the excluded member: %v", pool)
	}
	found, err := f.svc.Accounts.SearchPlayers(ctx, host, "m0", 10)
	f.must(err)
	if len(found) != 0 {
		t.Errorf("the player search offers the excluded member: %+v", found)
	}
}

// Every name has a length limit and no control characters (issue 9.3).
func TestNamesAreBounded(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin := f.users["admin"]
	bad := []string{"a\tb", "line\nbreak", "\u202eevil", strings.Repeat("x", 101), "bell\a"}
	for _, name := range bad {
		if err := f.svc.Tournaments.Create(ctx, admin, &club.Tournament{Name: name, StartsOn: "2026-12-01", EndsOn: "2026-12-01", ChiefJudge: admin.ID}); club.ErrorCode(err) != club.Invalid {
			t.Errorf("tournament %q: %v, want invalid", name, err)
		}
		if _, err := f.svc.Nights.Create(ctx, admin, club.NightForm{StartsAt: f.now.Add(time.Hour), Place: name, Tables: 1, PerTable: 10}); club.ErrorCode(err) != club.Invalid {
			t.Errorf("night at %q: %v, want invalid", name, err)
		}
		if err := f.svc.Accounts.SaveProfile(ctx, f.users["member"], club.ProfileForm{Nick: name}); club.ErrorCode(err) != club.Invalid {
			t.Errorf("nickname %q: %v, want invalid", name, err)
		}
		ng := club.NewGame{Rules: club.ClubRules}
		for i, r := range tenRoles {
			ng.Seats = append(ng.Seats, club.NewSeat{Name: fmt.Sprintf("G%d", i), Role: r, Guest: true})
		}
		ng.Seats[4].Name = name
		if _, err := f.svc.Games.Start(ctx, f.users["host"], ng); club.ErrorCode(err) != club.Invalid {
			t.Errorf("guest %q: %v, want invalid", name, err)
		}
	}
	tour := &club.Tournament{Name: "Cup", StartsOn: "2026-12-01", EndsOn: "2026-12-01", ChiefJudge: admin.ID}
	f.must(f.svc.Tournaments.Create(ctx, admin, tour))
	for _, name := range []string{"Tab\there", strings.Repeat("я", 31)} {
		if _, err := f.svc.Tournaments.AddParticipant(ctx, admin, tour.ID, name); club.ErrorCode(err) != club.Invalid {
			t.Errorf("participant %q: %v, want invalid", name, err)
		}
	}
	if _, err := f.svc.Tournaments.AddParticipant(ctx, admin, tour.ID, strings.Repeat("я", 30)); err != nil {
		t.Errorf("a participant of 30 Cyrillic letters: %v", err)
	}
}

// An action on one tournament never reaches another's stage or participant (issue 9.7).
func TestTournamentActionsStayInTheirTournament(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin := f.users["admin"]
	a, stage, _ := f.tournamentGame()
	b := &club.Tournament{Name: "Other", StartsOn: "2026-12-01", EndsOn: "2026-12-01", ChiefJudge: admin.ID}
	f.must(f.svc.Tournaments.Create(ctx, admin, b))
	if err := f.svc.Tournaments.SetJudge(ctx, admin, b.ID, stage.ID, 1, f.users["host"].ID); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a judge for another tournament's stage: %v", err)
	}
	if err := f.svc.Tournaments.Reseat(ctx, admin, b.ID, stage.ID, 7); club.ErrorCode(err) != club.NotFound {
		t.Errorf("reseating another tournament's stage: %v", err)
	}
	if err := f.svc.Tournaments.Swap(ctx, admin, b.ID, stage.ID, 2, 1, 2); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a swap in another tournament's stage: %v", err)
	}
	if _, err := f.svc.Tournaments.StartGame(ctx, f.users["judge"], b.ID, stage.ID, 2, 1, nil); club.ErrorCode(err) != club.NotFound {
		t.Errorf("starting another tournament's game: %v", err)
	}
	_, err := f.svc.Tournaments.Register(ctx, f.users["host"], b.ID) // waits for approval in b
	f.must(err)
	o, err := f.svc.Tournaments.Overview(ctx, b.ID)
	f.must(err)
	pending := o.Participants[0].ID
	if err := f.svc.Tournaments.Approve(ctx, admin, a.ID, pending); club.ErrorCode(err) != club.NotFound {
		t.Errorf("approving another tournament's participant: %v", err)
	}
	f.must(f.svc.Tournaments.Approve(ctx, admin, b.ID, pending))
}

// A game is public from the moment it ends, before its judge saves it, so that its players can protest within
// the ten minutes (issue 9.6).
func TestProtestBeforeTheGameIsSaved(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	_, _, g := f.tournamentGame()
	if _, err := f.svc.Records.Public(ctx, g.ID); club.ErrorCode(err) != club.NotFound {
		t.Fatalf("a game being played is public: %v", err)
	}
	judge, member := f.users["judge"], f.users["member"]
	_, err := f.svc.Games.Act(ctx, judge, g.ID, 0, []record.Event{{Event: mafia.TeamLoss(3), Reason: "oath"}})
	f.must(err)
	st, err := f.svc.Records.Public(ctx, g.ID)
	if err != nil {
		t.Fatalf("a finished, unsaved game is not public: %v", err)
	}
	f.now = f.now.Add(9*time.Minute + 30*time.Second)
	info, err := f.svc.Tournaments.Info(ctx, member, st)
	f.must(err)
	if info.ProtestLeft != 30*time.Second {
		t.Errorf("the time left to protest: %v, want 30s", info.ProtestLeft)
	}
	if _, err := f.svc.Tournaments.FileProtest(ctx, member, g.ID, "result", "x"); err != nil {
		t.Errorf("a protest 9:30 after the end, before the save: %v", err)
	}
}

// The throttle counts an attempt before the slow hash: ten parallel wrong passwords for one login get five
// refusals of the password and five of the throttle, never more hashes (issue 9.2).
func TestLoginAttemptsReservedBeforeHashing(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	codes := make(chan club.Code, 10)
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := f.svc.Accounts.Login(context.Background(), club.Credentials{Login: "member", Password: "wrong-password", Addr: "192.0.2.1"})
			codes <- club.ErrorCode(err)
		}()
	}
	wg.Wait()
	close(codes)
	count := map[club.Code]int{}
	for c := range codes {
		count[c]++
	}
	if count[club.Unauthorized] != 5 || count[club.TooMany] != 5 {
		t.Errorf("ten parallel wrong logins: %v, want 5 unauthorized and 5 too_many", count)
	}
	// sign-ups: ten an hour from one address
	for i := 0; i < 11; i++ {
		err := f.svc.Accounts.SignUp(context.Background(), club.SignUpForm{Login: fmt.Sprintf("new%d", i), Password: "secret-pass", Nick: fmt.Sprintf("New%d", i), Addr: "192.0.2.2"})
		if want := i < 10; (err == nil) != want {
			t.Errorf("sign-up %d: %v", i+1, err)
		}
		if i == 10 && !errors.Is(err, club.ErrThrottled) {
			t.Errorf("the 11th sign-up in an hour: %v, want throttled", err)
		}
	}
	// password changes: five wrong ones, then the account waits
	u := f.users["member"]
	for i := 0; i < 6; i++ {
		err := f.svc.Accounts.ChangePassword(context.Background(), u, "wrong-password", "new-password", "")
		want := club.ErrWrongPassword
		if i == 5 {
			want = club.ErrThrottled
		}
		if !errors.Is(err, want) {
			t.Errorf("password change %d: %v, want %v", i+1, err, want)
		}
	}
}

// A database error is logged with its cause (issue 9.7).
func TestInternalErrorSaysItsCause(t *testing.T) {
	err := &club.Error{Code: club.Internal, Message: "database error", Cause: errors.New("disk I/O error")}
	if !strings.Contains(err.Error(), "disk I/O error") {
		t.Errorf("%q does not say its cause", err.Error())
	}
}
