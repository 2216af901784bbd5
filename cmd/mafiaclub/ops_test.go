package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/storetest"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

var roles10 = []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}

// fillClub gives a store a small club of every kind of thing a copy must carry: the demo accounts and players,
// a member with a profile, a club night with registrations and a strike, saved rated and normal games, a reopened
// game, a live game, a guest linked to the member, a tournament with a stage, a judge, a saved game and a protest.
func fillClub(t *testing.T, db *sqlstore.DB, svc *club.Services, now *time.Time) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := club.SeedDemo(ctx, db); err != nil {
		t.Fatal(err)
	}
	admin, err := db.UserByLogin(ctx, club.DemoAdminLogin)
	must(err)
	host, err := db.UserByLogin(ctx, club.DemoHostLogin)
	must(err)
	member := &club.User{Login: "olena", Name: "Olena", Role: club.RoleMember, PasswordHash: "x", Status: club.StatusActive}
	must(db.CreateMember(ctx, member, &club.Player{Nick: "Olena", RealName: "Olena P."}))
	night, err := svc.Nights.Create(ctx, admin, club.NightForm{StartsAt: now.Add(30 * time.Hour), Place: "Café", Tables: 1, PerTable: 7})
	must(err)
	_, err = svc.Nights.Register(ctx, member, night.ID)
	must(err)
	*now = now.Add(29 * time.Hour) // the day of the night: cancelling is late, a strike
	_, err = svc.Nights.Cancel(ctx, member, night.ID)
	must(err)
	play := func(names []string, rated bool, events ...record.Event) int64 {
		ng := club.NewGame{Rules: club.ClubRules, Rated: rated, NightID: night.ID}
		for i, r := range roles10 {
			ng.Seats = append(ng.Seats, club.NewSeat{Name: names[i], Role: r})
		}
		g, err := svc.Games.Start(ctx, host, ng)
		must(err)
		st, err := svc.Games.Act(ctx, host, g.ID, 0, events)
		must(err)
		if st.Play.Finished() {
			_, err = svc.Games.Save(ctx, host, g.ID, st.Game.Version, rated)
			must(err)
		}
		return g.ID
	}
	demo := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Vasyl"}
	play(demo, true, record.Event{Event: mafia.Adjust(1, 30), Reason: "well led"}, record.Event{Event: mafia.TeamLoss(3), Reason: "oath"})
	play(demo, false, record.Event{Event: mafia.Foul(2)}, record.Event{Event: mafia.TeamLoss(9), Reason: "oath"})
	reopened := play(demo, true, record.Event{Event: mafia.TeamLoss(7), Reason: "oath"})
	st, err := svc.Games.Load(ctx, admin, reopened)
	must(err)
	_, err = svc.Games.Reopen(ctx, admin, reopened, st.Game.Version)
	must(err)
	play(demo, true, record.Event{Event: mafia.Foul(4)}) // live
	_, err = svc.Accounts.LinkGuest(ctx, admin, "Vasyl", member.ID, "the same person")
	must(err)
	tour := &club.Tournament{Name: "Cup", StartsOn: "2026-12-02", EndsOn: "2026-12-02", ChiefJudge: admin.ID}
	must(svc.Tournaments.Create(ctx, admin, tour))
	for _, n := range append([]string{"Olena"}, demo[:9]...) {
		_, err := svc.Tournaments.AddParticipant(ctx, admin, tour.ID, n)
		must(err)
	}
	stage, _, err := svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "Q", Rounds: 2})
	must(err)
	must(svc.Tournaments.SetJudge(ctx, admin, tour.ID, stage.ID, 1, host.ID))
	g, err := svc.Tournaments.StartGame(ctx, host, tour.ID, stage.ID, 1, 1, roles10)
	must(err)
	st, err = svc.Games.Act(ctx, host, g.ID, 0, []record.Event{{Event: mafia.TeamLoss(3), Reason: "oath"}})
	must(err)
	_, err = svc.Games.Save(ctx, host, g.ID, st.Game.Version, true)
	must(err)
	_, err = svc.Tournaments.FileProtest(ctx, member, g.ID, "result", "the oath was a joke")
	must(err)
}

func openClub(t *testing.T, dsn string) (*sqlstore.DB, *club.Services, *time.Time) {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	svc := club.NewServices(db, club.NewClock(time.UTC, func() time.Time { return now }))
	return db, svc, &now
}

// TestBackupDuringHostActions takes a backup with `mafiaclub backup` while hosts record actions, restores it with
// `mafiaclub restore` into another data folder, and finds there every action acknowledged before the backup
// began (issue 14.1).
func TestBackupDuringHostActions(t *testing.T) {
	data := t.TempDir()
	db, svc, now := openClub(t, filepath.Join(data, "mafiaclub.db"))
	fillClub(t, db, svc, now)
	ctx := context.Background()
	host, _ := db.UserByLogin(ctx, club.DemoHostLogin)
	var mu sync.Mutex
	acked := map[int64]int64{} // game -> the version its last acknowledged action left
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for k := 0; k < 3; k++ {
		ng := club.NewGame{Rules: club.ClubRules}
		for i, r := range roles10 {
			ng.Seats = append(ng.Seats, club.NewSeat{Name: fmt.Sprintf("G%d", i+1), Role: r, Guest: true})
		}
		g, err := svc.Games.Start(ctx, host, ng)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func(id int64) {
			defer wg.Done()
			version := int64(0)
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				e := mafia.Foul(1 + n%10)
				if n%2 == 1 {
					e = mafia.Adjust(1+n%10, 10)
				}
				st, err := svc.Games.Act(ctx, host, id, version, []record.Event{{Event: e}})
				if err != nil {
					t.Errorf("game %d: %v", id, err)
					return
				}
				version = st.Game.Version
				mu.Lock()
				acked[id] = version
				mu.Unlock()
			}
		}(g.ID)
	}
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	before := map[int64]int64{}
	for id, v := range acked {
		before[id] = v
	}
	mu.Unlock()
	file := filepath.Join(t.TempDir(), "copy.db")
	var out, errOut bytes.Buffer
	code := run([]string{"backup", "-data", data, file}, nil, &out, &errOut)
	time.Sleep(100 * time.Millisecond) // the actions go on after the backup too
	close(stop)
	wg.Wait()
	if code != 0 {
		t.Fatalf("backup: exit %d: %s", code, errOut.String())
	}
	if len(before) != 3 {
		t.Fatalf("the actions had not begun when the backup was taken: %v", before)
	}
	restored := t.TempDir()
	out.Reset()
	if code := run([]string{"restore", "-data", restored, file}, nil, &out, &errOut); code != 0 {
		t.Fatalf("restore: exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "games replay") {
		t.Errorf("restore did not report its check: %s", out.String())
	}
	rdb, _, _ := openClub(t, filepath.Join(restored, "mafiaclub.db"))
	for id, v := range before {
		g, err := rdb.Game(ctx, id)
		if err != nil {
			t.Fatalf("game %d is not in the backup: %v", id, err)
		}
		if g.Version < v {
			t.Errorf("game %d: the backup has version %d; version %d was acknowledged before the backup began", id, g.Version, v)
		}
	}
	// the saved games and the rating are the same; the live games went on after the backup
	if err := compareClubs(ctx, db, rdb, func(line string) bool { return strings.HasPrefix(line, "saved") }); err != nil {
		t.Error(err)
	}
}

// TestRestoreRefuses: not a database, or a server running on the data folder, and nothing is replaced.
func TestRestoreRefuses(t *testing.T) {
	data := t.TempDir()
	db, svc, now := openClub(t, filepath.Join(data, "mafiaclub.db"))
	fillClub(t, db, svc, now)
	db.Close()
	junk := filepath.Join(t.TempDir(), "junk.db")
	os.WriteFile(junk, []byte("this is not a database at all, not even close"), 0o600)
	var out, errOut bytes.Buffer
	if code := run([]string{"restore", "-data", data, junk}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "not a database to restore") {
		t.Errorf("restoring junk: exit %d: %s", code, errOut.String())
	}
	lock, err := lockData(data) // a server running
	if err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	if code := run([]string{"restore", "-data", data, junk}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "another mafiaclub process") {
		t.Errorf("restoring under a running server: exit %d: %s", code, errOut.String())
	}
	lock.Close()
	db2, _, _ := openClub(t, filepath.Join(data, "mafiaclub.db"))
	if d, err := club.Digest(context.Background(), db2); err != nil || len(d) < 6 {
		t.Errorf("the club's database was touched: %v, %d games", err, len(d)-1)
	}
}

// TestCopyBothWays copies a club from SQLite to PostgreSQL and back with `mafiaclub copy`: every game replays to the
// same points and the rating is the same each way; a target that is not empty is refused (issue 14.7).
func TestCopyBothWays(t *testing.T) {
	pg := storetest.FreshPostgres(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "club.db")
	db, svc, now := openClub(t, src)
	fillClub(t, db, svc, now)
	var out, errOut bytes.Buffer
	if code := run([]string{"copy", "-from", src, "-to", pg}, nil, &out, &errOut); code != 0 {
		t.Fatalf("copy to PostgreSQL: exit %d: %s\n%s", code, errOut.String(), out.String())
	}
	if !strings.Contains(out.String(), "every game replays to the same points") || !strings.Contains(out.String(), "game_events") {
		t.Errorf("the copy's report: %s", out.String())
	}
	back := filepath.Join(dir, "back.db")
	out.Reset()
	if code := run([]string{"copy", "-from", pg, "-to", back}, nil, &out, &errOut); code != 0 {
		t.Fatalf("copy back to SQLite: exit %d: %s", code, errOut.String())
	}
	bdb, bsvc, _ := openClub(t, back)
	if err := sameClub(context.Background(), db, bdb); err != nil {
		t.Errorf("after the round trip: %v", err)
	}
	// the copy is a working club: a new game gets a new id, not one already taken
	host, _ := bdb.UserByLogin(context.Background(), club.DemoHostLogin)
	ng := club.NewGame{Rules: club.ClubRules}
	for i, r := range roles10 {
		ng.Seats = append(ng.Seats, club.NewSeat{Name: fmt.Sprintf("G%d", i), Role: r, Guest: true})
	}
	if _, err := bsvc.Games.Start(context.Background(), host, ng); err != nil {
		t.Errorf("a new game in the copy: %v", err)
	}
	pdb, psvc, _ := openClub(t, pg)
	if _, err := psvc.Games.Start(context.Background(), host, ng); err != nil {
		t.Errorf("a new game in the PostgreSQL copy: %v", err)
	}
	_ = pdb
	errOut.Reset()
	if code := run([]string{"copy", "-from", src, "-to", back}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "not empty") {
		t.Errorf("a copy into a club: exit %d: %s", code, errOut.String())
	}
}

// TestServerLockAndGracefulShutdown runs the program: a second server on the same data folder is refused; on
// SIGTERM a live stream is closed, and the server stops cleanly (issue 14.4, 13.6).
func TestServerLockAndGracefulShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := testBinary(t)
	data := filepath.Join(t.TempDir(), "data")
	srv := startServer(t, bin, data)
	second, err := runQuick(bin, "serve", "-addr", "127.0.0.1:0", "-data", data)
	if err == nil || !strings.Contains(second, "another mafiaclub process is using the data folder") {
		t.Errorf("a second server on the same data folder: %v\n%s", err, second)
	}
	c := newHostClient(t, srv.base)
	c.login(t)
	id := c.createGame(t)
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/games/%d/live", srv.base, id), nil)
	stream := &http.Client{Jar: c.hc.Jar} // no timeout: a stream
	resp, err := stream.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	ended := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
		}
		close(ended)
	}()
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the live stream was not closed on SIGTERM")
	}
	done := make(chan error, 1)
	go func() { done <- srv.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the server's exit: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not stop within 15 s of SIGTERM")
	}
}

// runQuick runs the program and returns its output; it must end within 20 s.
func runQuick(bin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	return string(out), err
}

// TestServeRefusesBadLimits: a bound on live streams that is not a positive number (from its flag or its
// variable), a trusted proxy that is no address, or an engine setting that is neither auto nor off, stops the
// server at start with the flag and the bad value named, rather than leaving a limit unset or a setting read
// otherwise than meant.
func TestServeRefusesBadLimits(t *testing.T) {
	for _, c := range []struct{ flag, value, named string }{
		{"-max-streams", "0", `"0"`}, {"-max-streams", "-5", `"-5"`}, {"-max-streams-per-address", "0", `"0"`},
		{"-engine", "false", `"false"`}, {"-trusted-proxies", "10.0.0.0/8,proxy.example.org", `"proxy.example.org"`},
	} {
		var out, errOut strings.Builder
		code := serve([]string{"-data", t.TempDir(), "-engine", "off", c.flag, c.value}, &out, &errOut) // the case's flag last: it wins
		if code != 2 || !strings.Contains(errOut.String(), c.flag) || !strings.Contains(errOut.String(), c.named) {
			t.Errorf("%s %s: exit %d, %q; want 2 and the flag and %s named", c.flag, c.value, code, errOut.String(), c.named)
		}
	}
	for _, name := range []string{"MAFIACLUB_MAX_STREAMS", "MAFIACLUB_MAX_STREAMS_PER_ADDRESS"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, "many")
			var out, errOut strings.Builder
			if code := serve([]string{"-data", t.TempDir(), "-engine", "off"}, &out, &errOut); code != 2 ||
				!strings.Contains(errOut.String(), name+")") || !strings.Contains(errOut.String(), `"many"`) {
				t.Errorf("%s=many: exit %d, %q; want 2 and the variable and its value named", name, code, errOut.String())
			}
		})
	}
}

// TestServeBadLimitOverridden: a bound's variable that is no number does not stop a server whose flag gives the
// bound; the flag's bad value, not the variable's, is the one named.
func TestServeBadLimitOverridden(t *testing.T) {
	t.Setenv("MAFIACLUB_MAX_STREAMS", "many")
	var out, errOut strings.Builder
	if code := serve([]string{"-data", t.TempDir(), "-engine", "off", "-max-streams", "0"}, &out, &errOut); code != 2 ||
		!strings.Contains(errOut.String(), `not "0"`) {
		t.Errorf("MAFIACLUB_MAX_STREAMS=many -max-streams 0: exit %d, %q; want 2 and the flag's 0 named", code, errOut.String())
	}
}
