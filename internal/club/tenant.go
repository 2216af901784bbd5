package club

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"time"
)

// Tenant is a club of a platform of many clubs: one installation serves its own club (at the site's root, the
// store it was started on) and any number of others, each with a store of its own, reached at /c/SLUG/ or at a
// host name of its own. Nothing of one club's store is reachable from another's services: the isolation is that
// of the stores, and every cache, live topic, throttle and notice lives in a club's own services.
type Tenant struct {
	Slug    string // the club's address on the installation: /c/SLUG/
	Name    string // the club's name as the platform lists it (its own pages name it by its identity, Club)
	Host    string // a host name of its own ("edmonton.example.org"), "" when none
	Created time.Time
}

// Registry is the installation's list of its other clubs, kept in its own store.
type Registry interface {
	// Tenants lists the clubs, by slug.
	Tenants(ctx context.Context) ([]Tenant, error)
	// AddTenant registers a club; a slug or a host name taken already is a Conflict, and nothing is written.
	AddTenant(ctx context.Context, t *Tenant) error
	// SetTenantHost gives a club a host name of its own ("" takes it away); a host name taken is a Conflict.
	SetTenantHost(ctx context.Context, slug, host string) error
	// RemoveTenant takes a club off the registry (its store is the caller's to remove); NotFound when none.
	RemoveTenant(ctx context.Context, slug string) error
}

// The bounds of a club's slug: a PostgreSQL schema's name is the installation's own schema's and the slug's, at
// most 63 bytes in all.
const (
	MinSlug = 2
	MaxSlug = 30
)

// reservedSlugs are the slugs refused for a club whatever their form: words a club's address would be mistaken for
// (the site's own paths).
var reservedSlugs = map[string]bool{"static": true, "api": true, "admin": true, "c": true, "www": true, "new": true}

// CheckSlug refuses a slug that is empty, too short or too long, not URL-safe (only lowercase Latin letters,
// digits and inner hyphens: the address /c/SLUG/, a file name and a schema name are made of it) or reserved, with
// the reason. It does not know whether the slug is taken (the registry does).
func CheckSlug(slug string) error {
	switch {
	case slug == "":
		return Errorf(Invalid, "a club's slug is required (its address: /c/SLUG/)")
	case len(slug) < MinSlug:
		return Errorf(Invalid, "a club's slug has at least %d characters", MinSlug)
	case len(slug) > MaxSlug:
		return Errorf(Invalid, "a club's slug has at most %d characters", MaxSlug)
	case strings.Trim(slug, "abcdefghijklmnopqrstuvwxyz0123456789-") != "":
		return Errorf(Invalid, "a club's slug is made of lowercase Latin letters, digits and hyphens only: %q is not", slug)
	case slug[0] == '-' || slug[len(slug)-1] == '-' || strings.Contains(slug, "--"):
		return Errorf(Invalid, "a club's slug neither starts nor ends with a hyphen, nor has two together: %q", slug)
	case reservedSlugs[slug]:
		return Errorf(Invalid, "%q is one of the site's own words and cannot be a club's slug", slug)
	}
	return nil
}

// The bounds of a host name (RFC 1035): 253 characters in all, 63 a label (a part between dots).
const (
	MaxHost      = 253
	MaxHostLabel = 63
)

// NormalHost is a host name as the registry keeps it and a request's Host header is compared with it: without
// the spaces around it, in lowercase (names are case-blind), and without the one trailing dot of a fully
// qualified name ("Edmonton.Example.org." is "edmonton.example.org"). It checks nothing (CheckHost does).
func NormalHost(host string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
}

// CheckHost refuses what cannot be a club's host name of its own, with the reason: what is no host name
// (anything but Latin letters, digits, hyphens and dots; an empty label; a label starting or ending with a
// hyphen; over MaxHostLabel characters a label or MaxHost in all; a single label; a port), and the names every
// installation answers on as itself: an IP address (v4 or v6, bracketed or not, with a port or without, or a
// name whose last label is a number, which a browser takes for an IPv4 address) and localhost with its
// subdomains. A club given one of those would take the installation's own site over. The names only one
// installation answers on (its -public-url's, its -addr's) are the platform's to refuse (platform.OwnNames).
// host is in its normal form (NormalHost); "" (none) is accepted.
func CheckHost(host string) error {
	if host == "" {
		return nil
	}
	if IsIPHost(host) {
		return Errorf(Invalid, "%q is an IP address: a club's host name is a name of its own (the installation answers on its addresses itself)", host)
	}
	if IsLocalhost(host) {
		return Errorf(Invalid, "%q is a name of this machine (localhost): a club's host name is a name of its own", host)
	}
	if len(host) > MaxHost {
		return Errorf(Invalid, "a host name has at most %d characters", MaxHost)
	}
	if strings.Trim(host, "abcdefghijklmnopqrstuvwxyz0123456789-.") != "" {
		return Errorf(Invalid, "%q is not a host name (like edmonton.example.org, lowercase, without a port)", host)
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return Errorf(Invalid, "%q is not a host name (like edmonton.example.org, lowercase, without a port)", host)
	}
	for _, l := range labels {
		switch {
		case l == "":
			return Errorf(Invalid, "a host name has no empty part between its dots: %q", host)
		case len(l) > MaxHostLabel:
			return Errorf(Invalid, "each part of a host name between its dots has at most %d characters: %q", MaxHostLabel, l)
		case l[0] == '-' || l[len(l)-1] == '-':
			return Errorf(Invalid, "no part of a host name starts or ends with a hyphen: %q", host)
		}
	}
	return nil
}

// IsIPHost tells an IP address in any of the forms a Host header or a URL gives it: 192.0.2.1, ::1, [::1],
// with a port or a zone, or a name whose last label is a number (decimal, or hexadecimal with 0x), which the
// browsers' URL parser takes for an IPv4 address ("127.1", "0x7f.1").
func IsIPHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	last := host[strings.LastIndex(host, ".")+1:]
	if hex, ok := strings.CutPrefix(last, "0x"); ok {
		return strings.Trim(hex, "0123456789abcdef") == ""
	}
	return last != "" && strings.Trim(last, "0123456789") == ""
}

// IsLocalhost tells localhost and its subdomains (RFC 6761: always this machine), host in its normal form.
func IsLocalhost(host string) bool {
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}
