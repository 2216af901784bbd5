package platform

import (
	"context"
	"sync"

	"mafiaclub/internal/club"
)

// Directory is the clubs a server serves, as the installation's persons reach them (club.ClubDirectory): the own
// club's services, and every other club's as it is added and removed. The persons' service reads a club's
// accounts and results through it, each from that club's own services and store.
type Directory struct {
	own *club.Services

	mu    sync.RWMutex
	clubs map[string]dirEntry
}

type dirEntry struct {
	t   club.Tenant
	svc *club.Services
}

// NewDirectory is a directory of the own club only.
func NewDirectory(own *club.Services) *Directory {
	return &Directory{own: own, clubs: map[string]dirEntry{}}
}

// Add serves a club in the directory (again: replaces it).
func (d *Directory) Add(t club.Tenant, svc *club.Services) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clubs[t.Slug] = dirEntry{t, svc}
}

// Remove takes a club out.
func (d *Directory) Remove(slug string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.clubs, slug)
}

// Len is the number of the installation's other clubs in the directory.
func (d *Directory) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return len(d.clubs)
}

// Club returns a club's services and its entry ("" the own club, named by its identity); NotFound when the
// directory has none of that slug.
func (d *Directory) Club(ctx context.Context, slug string) (*club.Services, club.Tenant, error) {
	if slug == "" {
		t := club.Tenant{}
		if c, err := d.own.Club.Get(ctx); err == nil {
			t.Name = c.Name
		}
		return d.own, t, nil
	}
	d.mu.RLock()
	e, ok := d.clubs[slug]
	d.mu.RUnlock()
	if !ok {
		return nil, club.Tenant{}, club.Errorf(club.NotFound, "no club %q on this installation", slug)
	}
	return e.svc, e.t, nil
}
