package club

import (
	"context"
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

// CheckHost refuses a host name that is not one: lowercase letters, digits, hyphens and dots, with a dot, at most
// 253 bytes, no port. "" (none) is accepted.
func CheckHost(host string) error {
	if host == "" {
		return nil
	}
	if len(host) > 253 || !strings.Contains(host, ".") || strings.Trim(host, "abcdefghijklmnopqrstuvwxyz0123456789-.") != "" ||
		strings.HasPrefix(host, ".") || strings.HasSuffix(host, ".") || strings.Contains(host, "..") {
		return Errorf(Invalid, "%q is not a host name (like edmonton.example.org, lowercase, without a port)", host)
	}
	return nil
}
