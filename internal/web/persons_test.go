package web_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/storetest"
	"mafiaclub/internal/web"
)

// personsClubs is an installation of two clubs whose sites know the installation's persons (issue 29, item 2):
// the own club "a" at the root and club-b at /c/club-b/, both with the demo club's accounts, behind one
// web.Platform, as `mafiaclub serve` wires them. Their clock runs, and advance moves it on.
type personsClubs struct {
	a, b    *harness
	persons *club.Persons

	mu    sync.Mutex
	ahead time.Duration
}

// advance moves the installation's clock on by d.
func (pc *personsClubs) advance(d time.Duration) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.ahead += d
}

func newPersonsClubs(t *testing.T) *personsClubs {
	t.Helper()
	return newPersonsClubsOn(t, filepath.Join(t.TempDir(), "mafiaclub.db"))
}

// newPersonsClubsOn is newPersonsClubs with the own club's store at ownDSN: an SQLite file, or a postgres:// URL
// (storetest.FreshPostgres).
func newPersonsClubsOn(t *testing.T, ownDSN string) *personsClubs {
	t.Helper()
	ctx := context.Background()
	pc := &personsClubs{}
	own, err := sqlstore.Open(ctx, ownDSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { own.Close() })
	if _, err := club.SeedDemo(ctx, own); err != nil {
		t.Fatal(err)
	}
	plat := &platform.Platform{Own: own, OwnDSN: ownDSN}
	tb := club.Tenant{Slug: "club-b", Name: "Club B"}
	bdb, err := plat.Create(ctx, tb, func(ctx context.Context, db *sqlstore.DB) error {
		_, err := club.SeedDemo(ctx, db)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		bdb.Close()
		if err := plat.Remove(context.Background(), tb.Slug); err != nil {
			t.Errorf("remove club %s: %v", tb.Slug, err)
		}
	})
	zone, _ := time.LoadLocation("America/Edmonton")
	clock := club.NewClock(zone, func() time.Time {
		pc.mu.Lock()
		defer pc.mu.Unlock()
		return time.Now().Add(pc.ahead)
	})
	newSite := func(db *sqlstore.DB) *web.Server {
		site, err := web.New(club.NewServices(db, clock))
		if err != nil {
			t.Fatal(err)
		}
		site.Cookies = web.CookieSecureNever
		site.Log = slog.New(slog.NewTextHandler(testLog{t}, nil))
		return site
	}
	asite, bsite := newSite(own), newSite(bdb)
	bsite.Base = web.Prefix(tb.Slug)
	dir := platform.NewDirectory(asite.Services())
	dir.Add(tb, bsite.Services())
	persons := club.NewPersons(own, asite.Services().Clock, dir)
	asite.SetPersons(persons)
	bsite.SetPersons(persons)
	p := web.NewPlatform(asite)
	p.Add(tb, http.StripPrefix(bsite.Base, bsite.Handler()))
	srv := httptest.NewServer(p)
	t.Cleanup(func() { asite.CloseStreams(); bsite.CloseStreams(); srv.CloseClientConnections(); srv.Close() })
	pc.a = &harness{t: t, srv: srv, site: asite, store: own}
	pc.b = &harness{t: t, srv: &httptest.Server{URL: srv.URL + "/c/club-b"}, site: bsite, store: bdb}
	pc.persons = persons
	return pc
}

var myStatusRE = regexp.MustCompile(`id="my-status">([^<]*)<`)

// status is what h's /me says of c's status there ("" when it is not his page).
func myStatus(h *harness, c *http.Client) string {
	h.t.Helper()
	r := h.get(c, "/me")
	if m := myStatusRE.FindStringSubmatch(r.Body); r.StatusCode == http.StatusOK && m != nil {
		return m[1]
	}
	return ""
}

// clubLine is the line of a club (slug) on the account page: "" when none.
func clubLine(body, slug string) string {
	m := regexp.MustCompile(`(?s)<li data-club="` + regexp.QuoteMeta(slug) + `">(.*?)</li>`).FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return m[1]
}

func statusWord(h *harness, s club.MemberStatus) string {
	return h.site.Catalog.T(web.Languages[0], "status."+string(s))
}

// One person, several clubs: a person signs up at club a and is a pending member there only, nobody's host; at
// club b his session is a person's who is not a member, offered to join (a taken nickname refused); he joins and is
// pending in b; a's admin approves him in a and he is still pending in b; b's admin makes him a host in b and he
// is a host in b and a plain member in a; his page lists both clubs with his status and games in each and in all;
// logging out at b ends his session at a too. A club's own account of a with the login of a person of b logs into
// a as itself and is nobody in b.
func TestOnePersonSeveralClubs(t *testing.T) {
	pc := newPersonsClubs(t)
	a, b := pc.a, pc.b
	ctx := context.Background()

	anon := a.client()
	if r := a.post(anon, "/signup", url.Values{"login": {"Nomad"}, "nick": {"Nomad"}, "password": {"nomad-password"}, "password2": {"nomad-password"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-up at a: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if _, err := b.store.PlayerByNick(ctx, "Nomad"); club.ErrorCode(err) != club.NotFound {
		t.Errorf("signing up at a made a player in b: %v", err)
	}
	nomad := a.client()
	r := a.post(nomad, "/login", url.Values{"login": {"nomad"}, "password": {"nomad-password"}, "next": {"/me"}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/me" {
		t.Fatalf("a person's login at a: %d %q %s", r.StatusCode, r.Header.Get("Location"), errorOf(r.Body))
	}
	cookie := r.Header.Get("Set-Cookie")
	for _, want := range []string{"mafiaclub_person=", "Path=/;", "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(cookie, want) {
			t.Errorf("the person's cookie %q lacks %q", cookie, want)
		}
	}
	if got := myStatus(a, nomad); got != statusWord(a, club.StatusPending) {
		t.Errorf("at a, where he signed up: status %q, want pending", got)
	}
	for _, h := range []*harness{a, b} {
		if r := h.get(nomad, "/games/new"); r.StatusCode == http.StatusOK {
			t.Errorf("%s: a pending member opens the new game form", h.srv.URL)
		}
	}

	// at b: a person, not a member; offered to join
	if r := b.get(nomad, "/"); !strings.Contains(r.Body, `id="nav-join"`) || !strings.Contains(r.Body, "Nomad") {
		t.Errorf("b's front door for a person who is not its member: no join link, or not his login")
	}
	if r := b.get(nomad, "/me"); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/c/club-b/join" {
		t.Errorf("b's /me for a person who is not its member: %d %q, want the join page", r.StatusCode, r.Header.Get("Location"))
	}
	if r := b.get(nomad, "/join"); r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `action="/c/club-b/join"`) || !strings.Contains(r.Body, `id="join-intro"`) {
		t.Errorf("b's join page: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := b.post(nomad, "/join", url.Values{"nick": {"Joker"}}); r.StatusCode != http.StatusConflict || !strings.Contains(errorOf(r.Body), a.site.Catalog.T(web.Languages[0], "profile.nick_taken")) {
		t.Errorf("joining b with a nickname b's player has: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := b.post(nomad, "/join", url.Values{"nick": {"Nomad B"}}); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/c/club-b/me" {
		t.Fatalf("join b: %d %q %s", r.StatusCode, r.Header.Get("Location"), errorOf(r.Body))
	}
	if got := myStatus(b, nomad); got != statusWord(b, club.StatusPending) {
		t.Errorf("at b after joining: status %q, want pending", got)
	}
	if r := b.post(nomad, "/join", url.Values{"nick": {"Nomad C"}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("joining b again: %d", r.StatusCode)
	}
	if _, err := b.store.PlayerByNick(ctx, "Nomad C"); club.ErrorCode(err) != club.NotFound {
		t.Errorf("joining again made another player: %v", err)
	}
	// his account in b has no password of its own: it is not logged into at b's form by any login of it
	ub, err := b.store.PlayerByNick(ctx, "Nomad B")
	if err != nil {
		t.Fatal(err)
	}
	userIn := func(h *harness, playerID int64) *club.User {
		t.Helper()
		us, err := h.store.Members(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range us {
			if u.PlayerID == playerID {
				return &u
			}
		}
		t.Fatalf("no account of player %d", playerID)
		return nil
	}
	inB := userIn(b, ub.ID)
	if inB.PasswordHash != "" {
		t.Errorf("his account in b has a password hash %q", inB.PasswordHash)
	}
	if r := b.post(b.client(), "/login", url.Values{"login": {inB.Login}, "password": {""}}); r.StatusCode == http.StatusSeeOther {
		t.Errorf("his account in b was logged into at b's form as %q", inB.Login)
	}
	ua, _ := a.store.PlayerByNick(ctx, "Nomad")
	inA := userIn(a, ua.ID)

	// a's admin approves him in a: still pending in b
	adminA := a.login(club.DemoAdminLogin, club.DemoAdminPassword)
	if r := a.post(adminA, fmt.Sprintf("/admin/members/%d", inA.ID), url.Values{"field": {"status"}, "to": {"active"}, "reason": {"welcome"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("a's admin approves him: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if got := myStatus(a, nomad); got != statusWord(a, club.StatusActive) {
		t.Errorf("at a after a's approval: %q, want active", got)
	}
	if got := myStatus(b, nomad); got != statusWord(b, club.StatusPending) {
		t.Errorf("at b after a's approval: %q, want still pending", got)
	}

	// b's admin makes him a host in b: a host in b, a plain member in a
	adminB := b.login(club.DemoAdminLogin, club.DemoAdminPassword)
	if r := b.post(adminB, fmt.Sprintf("/admin/members/%d", inB.ID), url.Values{"field": {"role"}, "to": {"host"}, "reason": {"judge"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("b's admin makes him a host: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := b.get(nomad, "/games/new"); r.StatusCode != http.StatusOK {
		t.Errorf("a host of b on b's new game form: %d", r.StatusCode)
	}
	if r := a.get(nomad, "/games/new"); r.StatusCode != http.StatusForbidden {
		t.Errorf("a host of b on a's new game form: %d, want 403 (a plain member there)", r.StatusCode)
	}
	if r := a.get(nomad, "/admin/members"); r.StatusCode != http.StatusForbidden {
		t.Errorf("a member of a on a's members: %d", r.StatusCode)
	}

	// a game of a's with him seated: his page counts it in a and in all, not in b
	hostA := a.login(club.DemoHostLogin, club.DemoHostPassword)
	a.playToRedWin(hostA, []string{"Nomad", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10"})
	for _, side := range []struct{ h *harness }{{a}, {b}} {
		r := side.h.get(nomad, "/me")
		lineA, lineB := clubLine(r.Body, ""), clubLine(r.Body, "club-b")
		if !strings.Contains(r.Body, `id="my-clubs"`) || lineA == "" || lineB == "" {
			t.Fatalf("%s/me: his clubs are not listed: %s", side.h.srv.URL, errorOf(r.Body))
		}
		if !strings.Contains(lineA, statusWord(a, club.StatusActive)) || !strings.Contains(lineA, `href="/players/`+fmt.Sprint(ua.ID)+`"`) ||
			!strings.Contains(lineA, a.site.Catalog.N(web.Languages[0], "persons.games.n", 1)) {
			t.Errorf("%s/me: a's line %q: want active, his profile in a, one game", side.h.srv.URL, lineA)
		}
		if !strings.Contains(lineB, statusWord(b, club.StatusPending)) || !strings.Contains(lineB, `href="/c/club-b/players/`+fmt.Sprint(ub.ID)+`"`) ||
			!strings.Contains(lineB, a.site.Catalog.N(web.Languages[0], "persons.games.n", 0)) || !strings.Contains(lineB, "Club B") {
			t.Errorf("%s/me: b's line %q: want pending, his profile in b, no game", side.h.srv.URL, lineB)
		}
		if m := regexp.MustCompile(`(?s)id="my-clubs-total">(.*?)</p>`).FindStringSubmatch(r.Body); m == nil ||
			!strings.Contains(m[1], a.site.Catalog.N(web.Languages[0], "persons.games.n", 1)) || !strings.Contains(m[1], a.site.Catalog.N(web.Languages[0], "persons.wins.n", 1)) {
			t.Errorf("%s/me: the whole of his clubs: %v", side.h.srv.URL, m)
		}
	}

	// logout at b ends his session at a too: the cookie he had is nobody's anywhere
	var token string
	for _, c := range nomad.Jar.Cookies(mustURL(t, a.srv.URL+"/")) {
		if c.Name == "mafiaclub_person" {
			token = c.Value
		}
	}
	if r := b.post(nomad, "/logout", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout at b: %d", r.StatusCode)
	}
	replay := a.client()
	replay.Jar.SetCookies(mustURL(t, a.srv.URL+"/"), []*http.Cookie{{Name: "mafiaclub_person", Value: token, Path: "/"}})
	for _, c := range []*http.Client{nomad, replay} {
		if r := a.get(c, "/me"); r.StatusCode != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), "/login") {
			t.Errorf("a's /me after the logout at b: %d %q", r.StatusCode, r.Header.Get("Location"))
		}
		if r := b.get(c, "/me"); r.StatusCode != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), "/c/club-b/login") {
			t.Errorf("b's /me after the logout at b: %d %q", r.StatusCode, r.Header.Get("Location"))
		}
	}

	// a club's own account of a, "twin", and a person "twin" of b: each password is its own account's
	if r := b.post(b.client(), "/signup", url.Values{"login": {"twin"}, "nick": {"Twin"}, "password": {"person-twin"}, "password2": {"person-twin"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-up at b: %d %s", r.StatusCode, errorOf(r.Body))
	}
	local := a.user("twin", club.RoleHost) // password "password-twin"
	if r := a.get(local, "/games/new"); r.StatusCode != http.StatusOK {
		t.Errorf("a's own host twin at a: %d", r.StatusCode)
	}
	if r := b.get(local, "/games/new"); r.StatusCode != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), "/c/club-b/login") {
		t.Errorf("a's own host twin at b: %d %q, want nobody (b's login)", r.StatusCode, r.Header.Get("Location"))
	}
	if r := b.post(b.client(), "/login", url.Values{"login": {"twin"}, "password": {"password-twin"}}); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a's own twin's password at b: %d, want refused", r.StatusCode)
	}
	person := a.client()
	if r := a.post(person, "/login", url.Values{"login": {"twin"}, "password": {"person-twin"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the person twin at a: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := a.get(person, "/games/new"); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/join" {
		t.Errorf("the person twin at a, where he is no member: %d %q, want the join page (not a's host twin)", r.StatusCode, r.Header.Get("Location"))
	}
	if got := myStatus(b, person); got != statusWord(b, club.StatusPending) {
		t.Errorf("the person twin at b: %q, want pending", got)
	}
}

// postFrom posts form to h's path as a new browser (no cookie) at the client address from (the sites believe
// X-Forwarded-For from the test's own address, as from the club's proxy).
func postFrom(h *harness, from, path string, form url.Values) response {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", from)
	return h.do(h.client(), req)
}

// A person borrows no club account's bound: a person who has the login of club a's admin (made before the rule
// below, or a club added later with an admin of his login) logs in at a's form from addresses of his; that trusts
// none of them for a's admin, clears none of their failures at the admin's password, and pushes none of the admin's
// own addresses out: his guesses of the admin's password keep to the bound of any stranger's (in the attack this
// test repeats, 40 passwords in 2 minutes where the bound is 11), and the admin logs in from home during the delay
// they make.
func TestPersonBorrowsNoClubAccountsBound(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { personBorrowsNoBound(t, newPersonsClubs(t)) })
	t.Run("PostgreSQL", func(t *testing.T) { personBorrowsNoBound(t, newPersonsClubsOn(t, storetest.FreshPostgres(t))) })
}

// A person cannot take a club account's login at sign-up: at the club he signs up at, or the installation's own,
// the login is taken (the answer is a new person's, as for any taken login, and nobody is made).
func TestPersonTakesNoClubAccountsLogin(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { personTakesNoClubLogin(t, newPersonsClubs(t)) })
	t.Run("PostgreSQL", func(t *testing.T) { personTakesNoClubLogin(t, newPersonsClubsOn(t, storetest.FreshPostgres(t))) })
}

func personTakesNoClubLogin(t *testing.T, pc *personsClubs) {
	ctx := context.Background()
	a, b := pc.a, pc.b
	for _, h := range []*harness{a, b} {
		f := url.Values{"login": {"ADMIN"}, "nick": {"Impostor " + h.site.Base}, "password": {"attacker-pw"}, "password2": {"attacker-pw"}}
		if r := postFrom(h, "198.51.100.250", "/signup", f); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-up as ADMIN at %q: %d %s, want the answer of a new person", h.site.Base, r.StatusCode, errorOf(r.Body))
		}
	}
	if p, err := a.store.PersonByLogin(ctx, "admin"); club.ErrorCode(err) != club.NotFound {
		t.Fatalf("a person with the login of a's admin was made: %+v %v", p, err)
	}
	if r := postFrom(a, "198.51.100.250", "/login", url.Values{"login": {"admin"}, "password": {"attacker-pw"}}); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("the refused sign-up's password at a's form: %d, want a wrong login", r.StatusCode)
	}
	// a login no club account has is a person's, as before
	f := url.Values{"login": {"nomad"}, "nick": {"Nomad"}, "password": {"nomad-password"}, "password2": {"nomad-password"}}
	if r := postFrom(b, "198.51.100.250", "/signup", f); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-up as nomad at b: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := postFrom(b, "198.51.100.250", "/login", url.Values{"login": {"nomad"}, "password": {"nomad-password"}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the person nomad at b's form: %d %s", r.StatusCode, errorOf(r.Body))
	}
}

func personBorrowsNoBound(t *testing.T, pc *personsClubs) {
	ctx := context.Background()
	a := pc.a
	a.site.TrustedProxies, _ = web.ParseTrustedProxies("127.0.0.1,::1")
	admin := url.Values{"login": {club.DemoAdminLogin}, "password": {club.DemoAdminPassword}}
	const home = "192.0.2.1"

	// such a person (made in the store: before the sign-up rule, or before a club with an admin of his login)
	hash, err := club.HashPassword("attacker-pw")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.store.CreatePerson(ctx, &club.Person{Login: "Admin", PasswordHash: hash, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	person := url.Values{"login": {"admin"}, "password": {"attacker-pw"}}

	// the admin logs in from home; the person from nine addresses of his, a run apart, each trusted by him
	if r := postFrom(a, home, "/login", admin); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the admin from home: %d %s", r.StatusCode, errorOf(r.Body))
	}
	for i := range 9 {
		pc.advance(club.RunQuiet + time.Minute)
		if r := postFrom(a, fmt.Sprintf("203.0.113.%d", 10+i), "/login", person); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("the person's login %d: %d %s", i+1, r.StatusCode, errorOf(r.Body))
		}
	}
	pc.advance(club.RunQuiet + time.Minute)

	// he guesses the admin's password from two addresses of his, logging in as himself between the guesses
	x, y := "203.0.113.10", "203.0.113.11"
	start := time.Now()
	checked := 0
	for i := range 20 {
		for _, from := range []string{x, y} {
			postFrom(a, from, "/login", person) // his own success, or refused once his guesses held the address
			r := postFrom(a, from, "/login", url.Values{"login": {"admin"}, "password": {fmt.Sprintf("guess-%d", i)}})
			switch r.StatusCode {
			case http.StatusUnauthorized:
				checked++
			case http.StatusTooManyRequests:
			default:
				t.Fatalf("guess %d from %s: %d %s", i+1, from, r.StatusCode, errorOf(r.Body))
			}
		}
	}
	if bound := club.MaxGuesses(time.Since(start)); checked > bound {
		t.Errorf("%d of 40 guesses of the admin's password were checked in %v, over the bound of %d", checked, time.Since(start).Round(time.Millisecond), bound)
	}
	if r := postFrom(a, x, "/login", url.Values{"login": {"admin"}, "password": {"guess-x"}}); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a guess from his address after his logins: %d, want refused (his address is not the admin's)", r.StatusCode)
	}

	// the admin's home is still his, during the delay the guesses made
	if r := postFrom(a, home, "/login", admin); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the admin from home during the delay, after the person's logins: %d %s, want logged in", r.StatusCode, errorOf(r.Body))
	}
	if r := postFrom(a, "198.51.100.77", "/login", admin); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the admin's right password from an address new to him during the delay: %d, want delayed", r.StatusCode)
	}
}

// writeTimeout is the server's (cmd/mafiaclub serve): an answer later than it is a dropped connection.
const writeTimeout = 60 * time.Second

// A flood of wrong logins at one club (300 at once, each a login of its own from an address of its own, so that
// the throttle checks them all) is answered, every login of it, well within the server's write timeout (wrong,
// throttled or busy, a refusal saying when to try again); meanwhile another club's admin logs in. The clubs share
// the hashing's slots, and each holds at most its share of them (club.HashShare), waiting at most
// club.MaxHashWait: before, a login waited for two hashes (the club's account's and the person's) behind 30
// others for up to 74 s, past the write timeout, and another club's logins were refused 503.
func TestLoginFloodAtOneClub(t *testing.T) {
	pc := newPersonsClubs(t)
	a, b := pc.a, pc.b
	b.site.TrustedProxies, _ = web.ParseTrustedProxies("127.0.0.1,::1")
	a.site.TrustedProxies = b.site.TrustedProxies
	const n = 300
	type answer struct {
		code       int
		retryAfter string
		took       time.Duration
		at         time.Time
		err        error
	}
	answers := make([]answer, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	client := &http.Client{Timeout: 2 * writeTimeout}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			f := url.Values{"login": {fmt.Sprintf("flood%d", i)}, "password": {"wrong-password"}}
			req, _ := http.NewRequest(http.MethodPost, b.srv.URL+"/login", strings.NewReader(f.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.9.%d.%d", i>>8, i&255))
			began := time.Now()
			resp, err := client.Do(req)
			answers[i] = answer{took: time.Since(began), at: time.Now(), err: err}
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				answers[i].code, answers[i].retryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
			}
		}()
	}
	close(start)
	time.Sleep(300 * time.Millisecond) // the flood holds its places
	began := time.Now()
	r := postFrom(a, "192.0.2.1", "/login", url.Values{"login": {club.DemoAdminLogin}, "password": {club.DemoAdminPassword}})
	adminAt, adminTook := time.Now(), time.Since(began)
	if r.StatusCode != http.StatusSeeOther {
		t.Errorf("club a's admin during club b's flood: %d %s, want logged in", r.StatusCode, errorOf(r.Body))
	}
	wg.Wait()
	count, after, longest := map[int]int{}, 0, time.Duration(0)
	for i, ans := range answers {
		switch {
		case ans.err != nil:
			t.Errorf("login %d of the flood: no answer after %v: %v", i, ans.took.Round(time.Millisecond), ans.err)
			continue
		case ans.took > writeTimeout/2:
			t.Errorf("login %d of the flood: answered %d after %v, over half the write timeout", i, ans.code, ans.took.Round(time.Millisecond))
		}
		switch ans.code {
		case http.StatusUnauthorized:
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			if ans.retryAfter == "" {
				t.Errorf("login %d of the flood: %d without Retry-After", i, ans.code)
			}
		default:
			t.Errorf("login %d of the flood: %d", i, ans.code)
		}
		count[ans.code]++
		longest = max(longest, ans.took)
		if ans.at.After(adminAt) {
			after++
		}
	}
	t.Logf("club b's flood of %d wrong logins: %v, the longest answered in %v; club a's admin logged in in %v, with %d of the flood still unanswered",
		n, count, longest.Round(time.Millisecond), adminTook.Round(time.Millisecond), after)
	if after == 0 {
		t.Error("the flood was over before club a's admin logged in: the test proves nothing")
	}
	if count[http.StatusUnauthorized] == 0 {
		t.Error("no login of the flood was checked at all")
	}
}
