package platform_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
)

// A club's host name is a name of its own: never one the installation answers on as itself (its -public-url's
// host, its -addr's, localhost, any IP address in any form), nor what is no host name; each refusal says why. A
// name is kept in its normal form: lowercase, without the trailing dot.
func TestCheckHost(t *testing.T) {
	names := platform.NewOwnNames("https://Fed.Example.org/clubs", "mafia.example.net:8080", "box.example.com")
	long := strings.Repeat("a", club.MaxHostLabel)
	for _, c := range []struct{ host, want, why string }{
		{"", "", ""},
		{"edmonton.example.org", "edmonton.example.org", ""},
		{"  Edmonton.Example.ORG.  ", "edmonton.example.org", ""}, // uppercase and the trailing dot normalised
		{"xn--e1afmkfd.example.org", "xn--e1afmkfd.example.org", ""},
		{"a-b.c-d.example.org", "a-b.c-d.example.org", ""},
		{long + ".example.org", long + ".example.org", ""},
		{"4club.example.org", "4club.example.org", ""},
		// the installation's own names
		{"fed.example.org", "", "installation's own host name"},
		{"FED.example.org.", "", "installation's own host name"},
		{"mafia.example.net", "", "installation's own host name"},
		{"box.example.com", "", "installation's own host name"},
		{"localhost", "", "localhost"},
		{"LocalHost.", "", "localhost"},
		{"club.localhost", "", "localhost"},
		{"127.0.0.1", "", "is an IP address"},
		{"127.0.0.1:8080", "", "is an IP address"},
		{"0.0.0.0", "", "is an IP address"},
		{"192.0.2.7", "", "is an IP address"},
		{"::1", "", "is an IP address"},
		{"[::1]", "", "is an IP address"},
		{"[::1]:8080", "", "is an IP address"},
		{"2001:db8::1", "", "is an IP address"},
		{"[2001:db8::1]:443", "", "is an IP address"},
		{"fe80::1%eth0", "", "is an IP address"},
		{"127.1", "", "is an IP address"},    // a browser's IPv4 address
		{"0x7f.0x1", "", "is an IP address"}, // and in hexadecimal
		{"club.example.1", "", "is an IP address"},
		// no host names
		{"-x.example", "", "starts or ends with a hyphen"},
		{"x-.example.org", "", "starts or ends with a hyphen"},
		{"edmonton.example-", "", "starts or ends with a hyphen"},
		{".example.org", "", "no empty part"},
		{"a..example.org", "", "no empty part"},
		{"example.org..", "", "no empty part"},
		{"a" + long + ".example.org", "", "at most 63 characters"},
		{strings.Repeat(long+".", 4) + "org", "", "at most 253 characters"},
		{"edmonton", "", "is not a host name"},
		{"edmonton.example.org:8443", "", "is not a host name"},
		{"ed_monton.example.org", "", "is not a host name"},
		{"ed monton.example.org", "", "is not a host name"},
		{"едмонтон.example.org", "", "is not a host name"},
		{"https://edmonton.example.org/", "", "is not a host name"},
		{"edmonton.example.org/c/x", "", "is not a host name"},
	} {
		got, err := names.CheckHost(c.host)
		switch {
		case c.why == "" && (err != nil || got != c.want):
			t.Errorf("%q: %q, %v; want %q accepted", c.host, got, err, c.want)
		case c.why != "" && (err == nil || !strings.Contains(err.Error(), c.why) || club.ErrorCode(err) != club.Invalid):
			t.Errorf("%q: %q, %v; want it refused saying %q", c.host, got, err, c.why)
		}
	}
	// without the installation's own names (the command line's defaults, a test's platform): those of every
	// installation still
	var none *platform.OwnNames
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]:80"} {
		if _, err := none.CheckHost(h); err == nil {
			t.Errorf("%q accepted without the installation's own names", h)
		}
	}
	// listening on all interfaces: every IP address is the installation's, and is refused above; -addr's empty
	// host adds no name
	if _, err := platform.NewOwnNames("", ":8080").CheckHost("edmonton.example.org"); err != nil {
		t.Errorf("listening on all interfaces: %v", err)
	}
}

// Has tells a request's host as the router sees it: any case, a port, a trailing dot.
func TestOwnNamesHas(t *testing.T) {
	names := platform.NewOwnNames("https://fed.example.org", "localhost:8080")
	for host, want := range map[string]bool{
		"fed.example.org": true, "FED.example.org:443": true, "fed.example.org.": true,
		"127.0.0.1:8080": true, "[::1]:8080": true, "localhost:8080": true, "x.localhost": true,
		"edmonton.example.org": false, "": false, "example.org": false,
	} {
		if got := names.Has(host); got != want {
			t.Errorf("Has(%q) = %v, want %v", host, got, want)
		}
	}
}

// The platform refuses the installation's own names as a club's, when it is added and when it is given one
// later; nothing is registered or made, and a name is registered in its normal form.
func TestCreateRefusesOwnHost(t *testing.T) {
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "mafiaclub.db")
	own, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { own.Close() })
	p := &platform.Platform{Own: own, OwnDSN: dsn, Names: platform.NewOwnNames("https://fed.example.org", "127.0.0.1:8080")}
	for _, host := range []string{"fed.example.org", "127.0.0.1", "localhost", "-x.example"} {
		if db, err := p.Create(ctx, club.Tenant{Slug: "edmonton", Name: "Edmonton", Host: host}, platform.WithAdmin("Edmonton", "boss", "Boss", "boss-password")); err == nil {
			db.Close()
			t.Fatalf("%q: a club added at it", host)
		}
	}
	if ts, _ := own.Tenants(ctx); len(ts) != 0 {
		t.Fatalf("the registry after the refusals: %+v", ts)
	}
	db, err := p.Create(ctx, club.Tenant{Slug: "edmonton", Name: "Edmonton", Host: "Edmonton.Example.org."}, platform.WithAdmin("Edmonton", "boss", "Boss", "boss-password"))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := p.SetHost(ctx, "edmonton", "FED.example.org"); err == nil || !strings.Contains(err.Error(), "own host name") {
		t.Errorf("the own host name given later: %v", err)
	}
	if ts, _ := own.Tenants(ctx); len(ts) != 1 || ts[0].Host != "edmonton.example.org" {
		t.Errorf("the registry: %+v", ts)
	}
}
