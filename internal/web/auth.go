package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"mafiaclub/internal/club"
)

type loginView struct {
	Page
	Next, Login, Error string
	LinkOn             bool // the club sends sign-in links (links.go): the page has their form
	Offer              bool // the login is held by its delay: the form of a link is offered first
	Sent               bool // a link was asked for
}

func (s *Server) loginForm(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("login.title")
	s.render(w, "login", loginView{Page: p, Next: s.safeNext(r.URL.Query().Get("next")), LinkOn: s.linksOn(r.Context())})
}

// login checks a login and password (club.Accounts.Login: throttled, one answer for a wrong login and a wrong
// password) and opens a session. A refusal of the throttle says in Retry-After when to try again. A success also
// gives the browser a device token (club.Accounts.DeviceToken): on it, the login is not held by the delay that
// guesses from elsewhere put on it.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	f := club.Credentials{Login: r.PostFormValue("login"), Password: r.PostFormValue("password"), Addr: s.clientAddr(r),
		Device: s.deviceToken(r)}
	next := s.safeNext(r.PostFormValue("next"))
	// on an installation of several clubs, a login that is not this club's own account may be an installation's
	// person's: the club's account is tried first, as always, then the person's
	var other func(ctx context.Context) error
	var personToken string
	if ps := s.persons(); ps != nil {
		other = func(ctx context.Context) (err error) {
			_, personToken, err = ps.Login(ctx, f)
			return err
		}
	}
	u, token, err := s.svc.Accounts.LoginOr(r.Context(), f, other)
	if err == nil && u == nil {
		if s.sessionToken(r) != "" {
			s.endSession(w, r) // the club's own session would hide the person's (session): he is who logged in now
		}
		s.setPersonSession(w, r, personToken)
		http.Redirect(w, r, next, http.StatusSeeOther)
		return
	}
	if err != nil {
		p := s.page(r)
		p.Title = p.T("login.title")
		msg := s.errorText(p.Lang, err)
		v := loginView{Page: p, Next: next, Login: strings.TrimSpace(f.Login), LinkOn: s.linksOn(r.Context())}
		switch club.ErrorCode(err) {
		case club.Unauthorized:
			msg = p.T("login.wrong")
		case club.TooMany:
			wait := retrySeconds(club.WaitFor(err))
			w.Header().Set("Retry-After", strconv.Itoa(wait))
			msg = p.T("login.throttled")
			if errors.Is(err, club.ErrDelayed) {
				msg = p.N("login.delayed.n", wait)
			}
			v.Offer = v.LinkOn // a new device of the owner's waits as a guesser's does: a link does not
			s.metrics.throttled.WithLabelValues("too_many").Inc()
		case club.Busy:
			w.Header().Set("Retry-After", "5")
			s.metrics.throttled.WithLabelValues("busy").Inc()
		default:
			s.fail(w, r, err)
			return
		}
		w.WriteHeader(status(club.ErrorCode(err)))
		v.Error = msg
		s.render(w, "login", v)
		return
	}
	s.setSession(w, r, token)
	s.setDevice(w, r, u, f.Device)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// setDevice gives the browser u's device token after a login (current is the one it sent, "" when none).
func (s *Server) setDevice(w http.ResponseWriter, r *http.Request, u *club.User, current string) {
	dev, err := s.svc.Accounts.DeviceToken(r.Context(), u, current)
	if err != nil {
		s.Log.Error("device token", "err", err) // the login stands; this browser is merely not known next time
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(deviceCookie), Value: dev, Path: s.cookiePath("/login"), HttpOnly: true, Secure: s.secureCookie(r),
		SameSite: http.SameSiteLaxMode, MaxAge: int(club.DeviceTTL.Seconds())})
}

// deviceCookie holds the browser's device token. Only the login posts need it, so only they are sent it.
const deviceCookie = "mafiaclub_device"

// deviceToken is the request's device token, "" when none.
func (s *Server) deviceToken(r *http.Request) string {
	if c, err := r.Cookie(s.cookieName(deviceCookie)); err == nil {
		return c.Value
	}
	return ""
}

// retrySeconds is a wait in whole seconds for Retry-After, rounded up: at least 1.
func retrySeconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}

// clientAddr is the address a request came from, for the throttles: the connection's peer, or, when the peer is
// one of the server's trusted proxies, the address the proxies say they had it from.
func (s *Server) clientAddr(r *http.Request) string { return ClientAddr(r, s.TrustedProxies) }

// ClientAddr is the address r came from, as the throttles count it. Its connection's peer, unless the peer is in
// trusted (a reverse proxy or load balancer of the club's): then X-Forwarded-For is read from its right end, each
// proxy having appended the address it had the request from, and the first address there that is not a trusted
// proxy is the client's. A client that writes X-Forwarded-For itself only adds addresses to the left of the one its
// proxy appended, so it cannot pass for another; a hop that is no address ("unknown") ends the reading at the last
// address known, since what lies to its left is the client's own words. An IPv6 client counts as its /64: one
// subscriber holds a whole /64 and could otherwise take a new address for each attempt.
func ClientAddr(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr := peer.Unmap()
	if isTrusted(addr, trusted) {
		hops := r.Header.Values("X-Forwarded-For")
	read:
		for i := len(hops) - 1; i >= 0; i-- {
			parts := strings.Split(hops[i], ",")
			for j := len(parts) - 1; j >= 0; j-- {
				a, ok := hopAddr(strings.TrimSpace(parts[j]))
				if !ok {
					break read
				}
				addr = a
				if !isTrusted(addr, trusted) {
					break read
				}
			}
		}
	}
	if addr.Is6() {
		return netip.PrefixFrom(addr, 64).Masked().String()
	}
	return addr.String()
}

// hopAddr reads one hop of X-Forwarded-For: an address, or an address and port as some proxies write it.
func hopAddr(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ParseTrustedProxies reads a comma-separated list of addresses and prefixes ("127.0.0.1", "10.0.0.0/8", "::1").
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, x := range strings.Split(list, ",") {
		x = strings.TrimSpace(x)
		if x == "" {
			continue
		}
		if strings.Contains(x, "/") {
			p, err := netip.ParsePrefix(x)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: %v", x, err)
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(x)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %v", x, err)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

type passwordView struct {
	Page
	Error string
	Done  bool
}

func (s *Server) passwordForm(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("password.title")
	s.render(w, "password", passwordView{Page: p, Done: r.URL.Query().Get("done") == "1"})
}

// changePassword sets a new password after the current one; the account's other sessions end.
func (s *Server) changePassword(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("password.title")
	refuse := func(code int, msg string) {
		w.WriteHeader(code)
		s.render(w, "password", passwordView{Page: p, Error: msg})
	}
	if r.PostFormValue("new") != r.PostFormValue("new2") {
		refuse(http.StatusBadRequest, p.T("signup.mismatch"))
		return
	}
	err := s.svc.Accounts.ChangePassword(r.Context(), currentUser(r), r.PostFormValue("current"), r.PostFormValue("new"), s.sessionToken(r))
	switch club.ErrorCode(err) {
	case "":
		s.redirect(w, r, "/me/password?done=1")
	case club.Invalid, club.TooMany, club.Busy:
		refuse(status(club.ErrorCode(err)), s.errorText(p.Lang, err))
	default:
		s.fail(w, r, err)
	}
}

// logout ends the session (a person's too: in every club at once) and has the browser forget what this site kept on the device: the host pages the service
// worker keeps and the games the host page keeps (their records hold the roles), so that the device's next user
// finds none of it, even offline.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if s.Base == "" {
		// the whole origin's: a club under a path prefix shares it with the other clubs on its host name, whose
		// hosts' actions not yet saved it would drop too; its own pages' script forgets its own (app.js)
		w.Header().Set("Clear-Site-Data", `"cache", "storage"`)
	}
	s.endSession(w, r)
	if ps := s.persons(); ps != nil {
		s.endPersonSession(w, r, ps)
	}
	s.redirect(w, r, "/")
}

// setLang switches the language and remembers it: in a cookie, and on the account when logged in.
func (s *Server) setLang(w http.ResponseWriter, r *http.Request) {
	lang := r.PostFormValue("lang")
	valid := false
	for _, l := range Languages {
		valid = valid || l == lang
	}
	if !valid {
		s.fail(w, r, club.Errorf(club.Invalid, "unknown language %q", lang))
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(langCookie), Value: lang, Path: s.cookiePath("/"), MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode,
		Secure: s.secureCookie(r)})
	if u := currentUser(r); u != nil {
		if err := s.svc.Accounts.SetLang(r.Context(), u, lang); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	http.Redirect(w, r, s.safeNext(r.PostFormValue("next")), http.StatusSeeOther)
}
