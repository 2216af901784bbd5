package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
)

// Issue 23, item 1: at a club night hosts also play. Nobody seated at a live game's table receives its hidden
// information (roles, shots, checks) by any route while it is played, whatever his role; the game's host and a host
// who does not play are served, and a host who takes the game over is named in its chronology.
func TestSeatedHostSeesNothingHidden(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		seatedHostSeesNothingHidden(t, newHarnessOn(t, filepath.Join(t.TempDir(), "club.db")))
	})
	t.Run("PostgreSQL", func(t *testing.T) { seatedHostSeesNothingHidden(t, newHarnessOn(t, storetest.FreshPostgres(t))) })
}

// seatedUser adds an account with a role whose player profile has the nickname nick, logged in.
func (h *harness) seatedUser(login, nick string, role club.Role) *http.Client {
	h.t.Helper()
	ctx := context.Background()
	p := &club.Player{Nick: nick}
	if err := h.store.CreatePlayer(ctx, p); err != nil {
		h.t.Fatal(err)
	}
	hash, _ := club.HashPassword("password-" + login)
	if err := h.store.CreateUser(ctx, &club.User{Login: login, Name: login, Role: role, PasswordHash: hash, PlayerID: p.ID}); err != nil {
		h.t.Fatal(err)
	}
	return h.login(login, "password-"+login)
}

// jsonPost posts a form as the host page's script does, asking for a JSON answer.
func (h *harness) jsonPost(c *http.Client, path string, form url.Values) response {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	return h.do(c, req)
}

// hidden reports what of the game's hidden information a body shows: a role's name or the record's roles.
func hidden(body string) []string {
	var found []string
	low := strings.ToLower(body)
	for _, w := range []string{"шериф", "sheriff", `"role"`, `"roles"`, "\"shot\"", "\"check\""} {
		if strings.Contains(low, w) {
			found = append(found, w)
		}
	}
	return found
}

// alphaBravoGame is the new-game form of a club game dealt by hand (tenRoles) that seats the players with the
// nicknames Alpha at #3 and Bravo at #5 (the seated accounts' profiles), and guests elsewhere.
func alphaBravoGame() url.Values {
	f := url.Values{"form": {"1"}, "rules": {"fiim-2025-club"}, "n": {"10"}, "deal": {"hand"}, "rated": {"on"}}
	for i, r := range tenRoles {
		name := fmt.Sprintf("Guest %d", i+1)
		switch i {
		case 2:
			name = "Alpha"
		case 4:
			name = "Bravo"
		}
		f.Set(fmt.Sprintf("name%d", i+1), name)
		f.Set(fmt.Sprintf("role%d", i+1), r)
	}
	return f
}

func seatedHostSeesNothingHidden(t *testing.T, h *harness) {
	ctx := context.Background()
	runner := h.user("runner", club.RoleHost)
	other := h.user("other", club.RoleHost)
	seatedHost := h.seatedUser("playinghost", "Alpha", club.RoleHost)
	seatedAdmin := h.seatedUser("playingadmin", "Bravo", club.RoleAdmin)
	anon := h.client()

	// the game's host seats both of them (by their nicknames, as club players), then plays into the first night
	f := alphaBravoGame()
	resp := h.post(runner, "/games", f)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("new game: %d %s", resp.StatusCode, errorOf(resp.Body))
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(resp.Header.Get("Location"), "/games/"), 10, 64)
	g, err := h.store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Seats[2].PlayerID == 0 || g.Seats[4].PlayerID == 0 {
		t.Fatalf("the players are not seated as club players: %+v", g.Seats)
	}
	h.mustAct(runner, id, "type", "foul", "seat", "1")
	// the broadcast with roles on, so that its refusal is the seat's and not the game's
	if r := h.post(runner, fmt.Sprintf("/live/%d/broadcast", id), url.Values{"delay": {"1"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("broadcast: %d %s", r.StatusCode, errorOf(r.Body))
	}
	version := strconv.FormatInt(h.version(id), 10)

	game := fmt.Sprintf("/games/%d", id)
	type probe struct {
		name, method, path string
		form               url.Values
		json               bool
	}
	probes := []probe{
		{"host page", "GET", game, nil, false},
		{"record", "GET", game + "/record.json", nil, false},
		{"state", "GET", game + "/state.json", nil, false},
		{"host's stream head", "HEAD", game + "/live", nil, false},
		{"host's stream", "GET", game + "/live", nil, false},
		{"act", "POST", game + "/act", url.Values{"version": {version}, "type": {"foul"}, "seat": {"2"}}, false},
		{"act by the script", "POST", game + "/act", url.Values{"version": {version}, "type": {"foul"}, "seat": {"2"}, "key": {"seated-key-1"}}, true},
		{"undo", "POST", game + "/undo", url.Values{"version": {version}, "confirm": {"yes"}}, false},
		{"undo by the script", "POST", game + "/undo", url.Values{"version": {version}, "confirm": {"yes"}}, true},
		{"save", "POST", game + "/save", url.Values{"version": {version}, "rated": {"yes"}}, false},
		{"save by the script", "POST", game + "/save", url.Values{"version": {version}, "rated": {"yes"}}, true},
		{"broadcast setting", "POST", fmt.Sprintf("/live/%d/broadcast", id), url.Values{"delay": {"0"}}, false},
		{"broadcast page", "GET", fmt.Sprintf("/live/%d?mode=broadcast", id), nil, false},
		{"broadcast screen", "GET", fmt.Sprintf("/live/%d/screen?mode=broadcast", id), nil, false},
		{"broadcast overlay", "GET", fmt.Sprintf("/live/%d/overlay?mode=broadcast", id), nil, false},
		{"broadcast JSON", "GET", fmt.Sprintf("/api/live/%d?mode=broadcast", id), nil, false},
		{"broadcast stream", "GET", fmt.Sprintf("/live/%d/events?mode=broadcast", id), nil, false},
		{"public record", "GET", fmt.Sprintf("/history/%d", id), nil, false},
		{"public record download", "GET", fmt.Sprintf("/history/%d/record.json", id), nil, false},
		{"public game JSON", "GET", fmt.Sprintf("/api/games/%d", id), nil, false},
	}
	send := func(c *http.Client, p probe) response {
		t.Helper()
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second) // a stream that is served is cut here
		defer cancel()
		var body *strings.Reader
		if p.form != nil {
			body = strings.NewReader(p.form.Encode())
		} else {
			body = strings.NewReader("")
		}
		req, _ := http.NewRequestWithContext(cctx, p.method, h.srv.URL+p.path, body)
		if p.form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		if p.json {
			req.Header.Set("Accept", "application/json")
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		defer res.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := res.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return response{res.StatusCode, res.Header, b.String()}
	}

	for who, c := range map[string]*http.Client{"a seated host": seatedHost, "a seated admin": seatedAdmin} {
		for _, p := range probes {
			r := send(c, p)
			if r.StatusCode < 400 {
				t.Errorf("%s, %s: %d, want a refusal", who, p.name, r.StatusCode)
			}
			if got := hidden(r.Body); len(got) > 0 {
				t.Errorf("%s, %s: the answer shows %v", who, p.name, got)
			}
			if p.json && r.StatusCode != http.StatusForbidden && !strings.HasPrefix(p.path, "/history") {
				t.Errorf("%s, %s: %d, want 403 as the plain form gets", who, p.name, r.StatusCode)
			}
		}
		// the page says why, in the reader's language
		if r := h.get(c, game); r.StatusCode != http.StatusForbidden || !strings.Contains(r.Body, "ви граєте за цим столом") {
			t.Errorf("%s: host page %d %q, want 403 saying he sits at the table", who, r.StatusCode, errorOf(r.Body))
		}
	}
	if v := strconv.FormatInt(h.version(id), 10); v != version {
		t.Fatalf("the seated players' requests changed the game: version %s, want %s", v, version)
	}
	// a seated host may not start a game he plays in either
	f.Set("name3", "Alpha")
	if r := h.post(seatedHost, "/games", f); r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, "ви не можете вести гру, в якій граєте") {
		t.Errorf("a host seating himself: %d %q, want 400", r.StatusCode, errorOf(r.Body))
	}

	// the game's host, and a host who does not play, are served: the roles are there (the check above can see them)
	for who, c := range map[string]*http.Client{"the game's host": runner, "another host": other} {
		for _, path := range []string{game, game + "/record.json", game + "/state.json"} {
			r := h.get(c, path)
			if r.StatusCode != http.StatusOK || len(hidden(r.Body)) == 0 {
				t.Errorf("%s, %s: %d, roles shown %v; want 200 with the roles", who, path, r.StatusCode, hidden(r.Body))
			}
		}
	}
	// a spectator who does not play follows the broadcast
	if r := h.get(anon, fmt.Sprintf("/api/live/%d?mode=broadcast", id)); r.StatusCode != http.StatusOK {
		t.Errorf("a spectator's broadcast: %d, want 200", r.StatusCode)
	}

	// another host takes the game over: his action is recorded, the game is his, and its chronology says so
	h.mustAct(other, id, "type", "foul", "seat", "2")
	otherUser, _ := h.store.UserByLogin(ctx, "other")
	if g, _ := h.store.Game(ctx, id); g.HostID != otherUser.ID {
		t.Errorf("the game's host is %d, want the host who took it over (%d)", g.HostID, otherUser.ID)
	}
	audit, err := h.store.Audit(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(audit) != 1 || audit[0].Action != "take_over" || audit[0].By != otherUser.ID || audit[0].Detail != "runner" {
		t.Errorf("audit %+v, want other's take over from runner", audit)
	}
	if r := h.get(other, game); !strings.Contains(r.Body, "перебрав гру в ведучого runner") {
		t.Errorf("the host page's chronology does not name the take over")
	}
	// the first host takes it back: a second entry; the same host's next actions add none
	h.mustAct(runner, id, "type", "foul", "seat", "3")
	h.mustAct(runner, id, "type", "foul", "seat", "4")
	if audit, _ := h.store.Audit(ctx, id); len(audit) != 2 || audit[1].Detail != "other" {
		t.Errorf("audit %+v, want two take overs", audit)
	}
}
