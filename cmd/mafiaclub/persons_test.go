package main

import (
	"net/http"
	"net/url"
	"testing"
)

// The server wires the installation's persons (issue 29, item 2) once its registry has a club: before that, an
// installation of one club signs up and logs in its own accounts only, as it always did (its own session cookie,
// no person's); after a platform admin adds a club, a person signed up at the club logs in at the own site too,
// where he is a person who is not a member (sent to join), and is a member of the club he signed up at.
func TestServePersonsOnceTheInstallationHasClubs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	srv := startServerArgs(t, testBinary(t), "-data", t.TempDir(), "-demo-pace", "0")
	cookies := func(c *hostClient) map[string]bool {
		u, _ := url.Parse(srv.base + "/")
		out := map[string]bool{}
		for _, k := range c.hc.Jar.Cookies(u) {
			out[k.Name] = true
		}
		return out
	}
	signup := func(c *hostClient, at, login string) {
		t.Helper()
		code, loc, err := c.post(at+"/signup", url.Values{"login": {login}, "nick": {login}, "password": {login + "-password"}, "password2": {login + "-password"}})
		if err != nil || code != http.StatusSeeOther {
			t.Fatalf("sign-up of %s at %q: %d %q %v", login, at, code, loc, err)
		}
	}
	login := func(c *hostClient, at, login string) {
		t.Helper()
		if code, loc, err := c.post(at+"/login", url.Values{"login": {login}, "password": {login + "-password"}}); err != nil || code != http.StatusSeeOther {
			t.Fatalf("login of %s at %q: %d %q %v", login, at, code, loc, err)
		}
	}
	get := func(c *hostClient, path string) (int, string) {
		t.Helper()
		resp, err := c.hc.Get(srv.base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Location")
	}

	solo := newHostClient(t, srv.base)
	signup(solo, "", "solo")
	login(solo, "", "solo")
	if got := cookies(solo); !got["mafiaclub_session"] || got["mafiaclub_person"] {
		t.Errorf("one club: a sign-up logs in with the club's own session, as always: cookies %v", got)
	}
	if code, _ := get(solo, "/me"); code != http.StatusOK {
		t.Errorf("one club: the member's page: %d", code)
	}

	admin := newHostClient(t, srv.base)
	if code, _, err := admin.post("/login", url.Values{"login": {"admin"}, "password": {"demo-admin"}}); err != nil || code != http.StatusSeeOther {
		t.Fatalf("admin login: %d %v", code, err)
	}
	if code, loc, err := admin.post("/admin/clubs", url.Values{"slug": {"edmonton"}, "name": {"Mafia Edmonton"}, "login": {"boss"},
		"admin_name": {"Boss"}, "password": {"boss-password"}}); err != nil || code != http.StatusSeeOther {
		t.Fatalf("add a club: %d %q %v", code, loc, err)
	}
	nomad := newHostClient(t, srv.base)
	signup(nomad, "/c/edmonton", "nomad")
	login(nomad, "", "nomad")
	if got := cookies(nomad); !got["mafiaclub_person"] || got["mafiaclub_session"] {
		t.Errorf("a person's login at the own site: cookies %v, want the person's only", got)
	}
	if code, loc := get(nomad, "/me"); code != http.StatusSeeOther || loc != "/join" {
		t.Errorf("the own site's /me for a person of another club: %d %q, want the join page", code, loc)
	}
	if code, loc := get(nomad, "/c/edmonton/me"); code != http.StatusOK {
		t.Errorf("the club's /me for its member: %d %q", code, loc)
	}
	// the own club's accounts still log in as themselves
	again := newHostClient(t, srv.base)
	login(again, "", "solo")
	if got := cookies(again); !got["mafiaclub_session"] || got["mafiaclub_person"] {
		t.Errorf("the own club's account after a club was added: cookies %v", got)
	}
}
