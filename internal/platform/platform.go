// Package platform puts many clubs on one installation (issue 29): the installation's own club in the store it
// was started on, and its other clubs each in a store of its own (an SQLite file beside it, clubs/SLUG.db, or a
// PostgreSQL schema of its own in the same database), listed in the own store's registry (club.Registry). A
// club's store is a whole single-club store, so everything of one club (its accounts, members, games, ratings,
// club nights, tournaments, settings, notices, Telegram) is out of reach of another's services by construction,
// and a club moves in or out with `mafiaclub copy` and its checks, as a single club's database does.
package platform

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
)

// Platform is an installation's clubs: its own store, where the registry is, and where the others' stores are.
type Platform struct {
	Own    *sqlstore.DB
	OwnDSN string // the own store's: an SQLite file's path or a postgres:// URL
	// Names are the host names the installation answers on as itself, which no club may have (nil: those of
	// every installation only)
	Names *OwnNames
}

// DSN is where club slug's store is (sqlstore.TenantDSN).
func (p *Platform) DSN(slug string) (string, error) { return sqlstore.TenantDSN(p.OwnDSN, slug) }

// Tenant returns a registered club; NotFound when the installation has none of that slug.
func (p *Platform) Tenant(ctx context.Context, slug string) (*club.Tenant, error) {
	ts, err := p.Own.Tenants(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if t.Slug == slug {
			return &t, nil
		}
	}
	return nil, club.Errorf(club.NotFound, "no club %q on this installation", slug)
}

// Open opens (and migrates) the store of a registered club.
func (p *Platform) Open(ctx context.Context, slug string) (*sqlstore.DB, error) {
	if _, err := p.Tenant(ctx, slug); err != nil {
		return nil, err
	}
	dsn, err := p.DSN(slug)
	if err != nil {
		return nil, err
	}
	return sqlstore.Open(ctx, dsn)
}

// Create adds a club: it checks the slug and the host name (in its normal form, never one of the installation's
// own: OwnNames.CheckHost) and that neither is taken, makes the club's store and migrates it, has fill fill it
// (its first admin, or a whole club copied in), and registers it last. If any step fails, the store it made is
// removed and nothing is registered: a club is added whole or not at all. The returned store is open; the caller
// closes it.
func (p *Platform) Create(ctx context.Context, t club.Tenant, fill func(ctx context.Context, db *sqlstore.DB) error) (*sqlstore.DB, error) {
	if err := club.CheckSlug(t.Slug); err != nil {
		return nil, err
	}
	host, err := p.Names.CheckHost(t.Host)
	if err != nil {
		return nil, err
	}
	t.Host = host
	if strings.TrimSpace(t.Name) == "" {
		return nil, club.Errorf(club.Invalid, "a club's name is required")
	}
	if len(t.Name) > club.MaxClubName {
		return nil, club.Errorf(club.Invalid, "a club's name has at most %d characters", club.MaxClubName)
	}
	ts, err := p.Own.Tenants(ctx)
	if err != nil {
		return nil, err
	}
	for _, o := range ts {
		if o.Slug == t.Slug {
			return nil, club.Errorf(club.Conflict, "the slug %q is taken by another club of this installation", t.Slug)
		}
		if t.Host != "" && o.Host == t.Host {
			return nil, club.Errorf(club.Conflict, "another club of this installation has the host name %q", t.Host)
		}
	}
	dsn, err := p.DSN(t.Slug)
	if err != nil {
		return nil, err
	}
	if err := p.Own.DropClubMemberships(ctx, t.Slug); err != nil { // none, unless a removal failed half-way
		return nil, err
	}
	if err := p.Own.PrepareTenant(ctx, dsn); err != nil {
		return nil, err
	}
	db, err := sqlstore.Open(ctx, dsn)
	if err == nil {
		err = fill(ctx, db)
		if err == nil {
			err = p.Own.AddTenant(ctx, &t)
		}
		if err != nil {
			db.Close()
		}
	}
	if err != nil {
		if derr := p.Own.DropTenant(context.WithoutCancel(ctx), dsn); derr != nil {
			return nil, errors.Join(err, fmt.Errorf("and its store at %s could not be removed: %w", dsn, derr))
		}
		return nil, err
	}
	return db, nil
}

// Remove takes a club off the registry and removes its store with everything in it. The caller has closed the
// store (and copied the club out first, if it is to live on elsewhere).
func (p *Platform) Remove(ctx context.Context, slug string) error {
	if _, err := p.Tenant(ctx, slug); err != nil {
		return err
	}
	dsn, err := p.DSN(slug)
	if err != nil {
		return err
	}
	if err := p.Own.RemoveTenant(ctx, slug); err != nil {
		return err
	}
	// the persons who were its members are no longer (their accounts go with its store); a club made later under
	// its slug is another club
	if err := p.Own.DropClubMemberships(ctx, slug); err != nil {
		return err
	}
	return p.Own.DropTenant(ctx, dsn)
}

// WithAdmin fills a new club's store with its first admin (the password hashed here) and the club's name as its
// identity's: what `mafiaclub club add` and the platform admin's page make.
func WithAdmin(name, login, adminName, password string) func(ctx context.Context, db *sqlstore.DB) error {
	return func(ctx context.Context, db *sqlstore.DB) error {
		if strings.TrimSpace(login) == "" {
			return club.Errorf(club.Invalid, "the club's first admin needs a login")
		}
		if strings.TrimSpace(adminName) == "" {
			adminName = login
		}
		hash, err := club.HashPassword(password)
		if err != nil {
			return err
		}
		if err := db.CreateUser(ctx, &club.User{Login: login, Name: adminName, Role: club.RoleAdmin, PasswordHash: hash, Status: club.StatusActive}); err != nil {
			return err
		}
		c := club.NewClub()
		c.Name = name
		return db.SetClubProfile(ctx, c)
	}
}
