package web

import (
	"net"
	"net/http"
	"strings"
	"sync"

	"mafiaclub/internal/club"
)

// Platform serves the clubs of one installation (issue 29): its own club at the root, and each of its other
// clubs at /c/SLUG/ on the installation's host names, or at the root of a host name of its own. Every club has its
// own Server over its own services and store, so its sessions, caches, live topics and throttles are its own; the
// platform only chooses which club a request is for. Files under /static/ are the same for every club and are
// served by the installation's own site.
type Platform struct {
	own  *Server
	ownH http.Handler
	// noClub answers an address of a club the installation does not have: 404, in the installation's language
	noClub http.Handler
	mu     sync.RWMutex
	slugs  map[string]tenantRoute
	hosts  map[string]http.Handler
	// OwnHost tells the installation's own host names (platform.OwnNames.Has), set before it serves: no club is
	// served at one, even one a registry written by an older version gives it, so that the own site, its admins
	// and its other clubs' addresses stay where they are. nil: none.
	OwnHost func(host string) bool
}

type tenantRoute struct {
	h    http.Handler
	host string
}

// NewPlatform serves the installation's own club's site, with no other clubs yet.
func NewPlatform(own *Server) *Platform {
	noClub := own.chain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		own.fail(w, r, club.Errorf(club.NotFound, "this installation has no such club"))
	}))
	return &Platform{own: own, ownH: own.Handler(), noClub: noClub, slugs: map[string]tenantRoute{}, hosts: map[string]http.Handler{}}
}

// Add serves a club: its site's handler h, which expects paths without the club's prefix (/c/SLUG) when the club
// has no host name of its own; with one, the club is served at that host name's root and /c/SLUG/ sends there. A
// club added again replaces its earlier site.
func (p *Platform) Add(t club.Tenant, h http.Handler) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if old, ok := p.slugs[t.Slug]; ok && old.host != "" {
		delete(p.hosts, old.host)
	}
	p.slugs[t.Slug] = tenantRoute{h: h, host: t.Host}
	if t.Host != "" && (p.OwnHost == nil || !p.OwnHost(t.Host)) {
		p.hosts[t.Host] = h
	}
}

// Remove stops serving a club: its addresses are not found from now on.
func (p *Platform) Remove(slug string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if old, ok := p.slugs[slug]; ok && old.host != "" {
		delete(p.hosts, old.host)
	}
	delete(p.slugs, slug)
}

// Prefix is the path prefix of a club served at /c/SLUG/.
func Prefix(slug string) string { return "/c/" + slug }

func (p *Platform) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := strings.ToLower(r.Host)
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	p.mu.RLock()
	h, own := p.hosts[host]
	p.mu.RUnlock()
	if own {
		h.ServeHTTP(w, r)
		return
	}
	rest, ok := strings.CutPrefix(r.URL.Path, "/c/")
	if !ok {
		p.ownH.ServeHTTP(w, r)
		return
	}
	slug, _, _ := strings.Cut(rest, "/")
	p.mu.RLock()
	t, ok := p.slugs[slug]
	p.mu.RUnlock()
	switch {
	case !ok:
		p.noClub.ServeHTTP(w, r)
	case t.host != "": // a club with a host name of its own is reached there
		u := *r.URL
		u.Scheme, u.Host = "https", t.host
		if r.TLS == nil && !strings.HasPrefix(p.own.PublicURL, "https://") {
			u.Scheme = "http"
		}
		u.Path = strings.TrimPrefix(r.URL.Path, Prefix(slug))
		if u.Path == "" {
			u.Path = "/"
		}
		u.RawPath = ""
		http.Redirect(w, r, u.String(), http.StatusPermanentRedirect)
	case r.URL.Path == Prefix(slug):
		target := Prefix(slug) + "/"
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusPermanentRedirect)
	default:
		t.h.ServeHTTP(w, r)
	}
}
