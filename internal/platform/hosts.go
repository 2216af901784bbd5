package platform

import (
	"context"
	"net"
	"net/url"
	"strings"

	"mafiaclub/internal/club"
)

// OwnNames are the host names an installation answers on as itself: besides those of every installation
// (localhost and its subdomains, every IP address: club.CheckHost), the host of its -public-url, the host its
// -addr names, and any other it is given (the machine's name). A club given one of them would take the
// installation's own site over: its own admins would get 401 and its other clubs 404, until the command line
// took the name away. The zero value (or nil) knows the names of every installation only.
type OwnNames struct {
	names map[string]bool
}

// NewOwnNames are the own names of an installation served at publicURL ("" none) and listening on addr (host:port;
// an empty host or an IP address listens on addresses, which every IP literal covers), with more names of its own.
func NewOwnNames(publicURL, addr string, more ...string) *OwnNames {
	n := &OwnNames{names: map[string]bool{}}
	if u, err := url.Parse(publicURL); err == nil && u.Hostname() != "" {
		more = append(more, u.Hostname())
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr // no port: the whole of it is the host
	}
	more = append(more, host)
	for _, m := range more {
		if m = club.NormalHost(m); m != "" {
			n.names[m] = true
		}
	}
	return n
}

// Has tells whether a request's host (as its Host header gives it: any case, with a port, a trailing dot) is one
// of the installation's own names, which only the installation's own site answers on.
func (n *OwnNames) Has(host string) bool {
	host = strings.ToLower(strings.TrimSpace(host))
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = club.NormalHost(host)
	if host == "" {
		return false
	}
	if club.IsIPHost(host) || club.IsLocalhost(host) {
		return true
	}
	return n != nil && n.names[host]
}

// CheckHost returns a club's host name in its normal form (club.NormalHost), or the reason it cannot be one: no
// host name, a name of every installation (club.CheckHost), or one of this installation's own names. "" (none)
// is accepted. It does not know whether another club has it (the registry does).
func (n *OwnNames) CheckHost(host string) (string, error) {
	host = club.NormalHost(host)
	if err := club.CheckHost(host); err != nil {
		return "", err
	}
	if host != "" && n != nil && n.names[host] {
		return "", club.Errorf(club.Invalid, "%q is this installation's own host name (its address, -public-url or -addr): a club's host name is one of its own", host)
	}
	return host, nil
}

// SetHost gives a registered club a host name of its own ("" takes it away), checked as Create checks it.
func (p *Platform) SetHost(ctx context.Context, slug, host string) error {
	host, err := p.Names.CheckHost(host)
	if err != nil {
		return err
	}
	return p.Own.SetTenantHost(ctx, slug, host)
}
