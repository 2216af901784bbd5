package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/telegram"
)

// One-time sign-in links (club/links.go): the login page offers one when a login is held by its delay (the
// owner on a new device, while his password is being guessed), and as a small form below the password's. The
// browser that asks gets a nonce in a cookie; the link, sent to the account's Telegram chat and confirmed e-mail
// address, works in that browser only, once, for club.LinkTTL. A member's new address is sent a link that
// confirms it (confirmEmail).

// linkCookie holds the nonce of the browser that asked for a link. Only the login pages need it.
const linkCookie = "mafiaclub_link"

// linksOn reports whether the site can send sign-in links: it needs its public address (the links are to it; a
// request's Host header is not to be trusted with them) and e-mail or the club's bot.
func (s *Server) linksOn(ctx context.Context) bool {
	if s.PublicURL == "" {
		return false
	}
	if s.Mail {
		return true
	}
	cfg, err := s.svc.Telegram.Config(ctx)
	return err == nil && cfg.Token != ""
}

// linkAnswerTime is how long after its request the answer to asking for a link comes, at least: a login with an
// account and a chat takes a link written to the store, another none, and the wait hides the difference.
const linkAnswerTime = 250 * time.Millisecond

// requestLink asks for a sign-in link. The page says the same whether the login exists and has a chat or not,
// and the browser gets its nonce's cookie either way, after the same time (linkAnswerTime); only the server's log
// says what was done.
func (s *Server) requestLink(w http.ResponseWriter, r *http.Request) {
	answerAt := time.Now().Add(linkAnswerTime)
	p := s.page(r)
	p.Title = p.T("login.title")
	if !s.linksOn(r.Context()) {
		s.fail(w, r, club.Errorf(club.NotFound, "this club sends no sign-in links"))
		return
	}
	login, addr := strings.TrimSpace(r.PostFormValue("login")), s.clientAddr(r)
	v := loginView{Page: p, Next: s.safeNext(r.PostFormValue("next")), Login: login, LinkOn: true}
	nonce := ""
	if c, err := r.Cookie(s.cookieName(linkCookie)); err == nil {
		nonce = c.Value
	}
	req, err := s.svc.Accounts.RequestSignInLink(r.Context(), login, addr, nonce)
	switch club.ErrorCode(err) {
	case "":
	case club.TooMany:
		s.metrics.throttled.WithLabelValues("too_many").Inc()
		v.Error = p.T("login.link.throttled")
		w.WriteHeader(http.StatusTooManyRequests)
		s.render(w, "login", v)
		return
	default:
		s.fail(w, r, err)
		return
	}
	// the audit: who asked for which account's link and what became of it, never the token
	s.Log.Info("sign-in link asked for", "addr", addr, "user", req.UserID, "sent", req.Via)
	select {
	case <-time.After(time.Until(answerAt)):
	case <-r.Context().Done():
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(linkCookie), Value: req.Nonce, Path: s.cookiePath("/login"), HttpOnly: true,
		Secure: s.secureCookie(r), SameSite: http.SameSiteLaxMode, MaxAge: int(club.LinkTTL.Seconds())})
	v.Sent = true
	s.render(w, "login", v)
}

// useLink follows a sign-in link: in the browser that asked for it, it opens a session as the password's login
// does (and gives the browser the account's device token, so that next time its password is not held either). It
// is no guess: the login's throttle neither counts nor holds it.
func (s *Server) useLink(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Referrer-Policy", "no-referrer") // the token is in this page's address
	nonce := ""
	if c, err := r.Cookie(s.cookieName(linkCookie)); err == nil {
		nonce = c.Value
	}
	addr := s.clientAddr(r)
	u, token, err := s.svc.Accounts.SignInByLink(r.Context(), r.URL.Query().Get("token"), nonce)
	if err != nil {
		if club.ErrorCode(err) != club.NotFound {
			s.fail(w, r, err)
			return
		}
		s.Log.Warn("a sign-in link was refused", "addr", addr, "cookie", nonce != "")
		p := s.page(r)
		p.Title = p.T("login.title")
		w.WriteHeader(http.StatusNotFound)
		s.render(w, "login", loginView{Page: p, Next: s.path("/"), Error: p.T("login.link.invalid"), LinkOn: s.linksOn(r.Context())})
		return
	}
	s.Log.Info("signed in by a one-time link", "user", u.ID, "addr", addr)
	if s.sessionToken(r) != "" {
		s.endSession(w, r)
	}
	s.setSession(w, r, token)
	s.setDevice(w, r, u, s.deviceToken(r))
	s.redirect(w, r, "/")
}

// LinkText writes a one-time link's Telegram message in its member's language (the sender's
// notify.TelegramSender.LinkRender): what it is for, for how long and where it works, and what to do when he did
// not ask for it.
func (s *Server) LinkText(m club.LinkMessage) (string, telegram.Keyboard) {
	x := tgTexts{s}
	lang := x.Lang(&club.User{Lang: m.Lang}, "")
	link := s.link("/login/link?token=" + url.QueryEscape(m.Token))
	var b strings.Builder
	b.WriteString("<b>" + tgEscape(s.clubName(context.Background(), lang)+": "+s.Catalog.T(lang, "login.link.tg.title")) + "</b>\n")
	b.WriteString(x.T(lang, "login.link.tg.body") + "\n\n")
	b.WriteString(`<a href="` + tgEscape(link) + `">` + tgEscape(link) + "</a>\n\n")
	b.WriteString(x.T(lang, "login.link.tg.notyou"))
	return b.String(), telegram.Keyboard{{{Text: x.T(lang, "login.link.tg.button"), URL: link}}}
}

// LinkMail writes a one-time link's mail in its member's language (the sender's notify.LinkRender): a sign-in
// link as LinkText says it, or the link that confirms his address.
func (s *Server) LinkMail(m club.LinkMessage) (subject, body string) {
	lang := tgTexts{s}.Lang(&club.User{Lang: m.Lang}, "")
	T := func(key string) string { return s.Catalog.T(lang, key) }
	path := "/login/link?token="
	what, notYou := "login.link.tg", "login.link.tg.notyou"
	if m.Purpose == club.LinkConfirmEmail {
		path, what, notYou = "/me/email/confirm?token=", "email.confirm.mail", "email.confirm.mail.notyou"
	}
	link := s.link(path + url.QueryEscape(m.Token))
	if link == "" {
		link = s.path(path + url.QueryEscape(m.Token)) // no public address: the member puts the site's before it
	}
	body = s.Catalog.T(lang, "notice.greeting", m.Name) + "\n\n" + T(what+".body") + "\n\n" + link + "\n\n" + T(notYou) +
		"\n\n-- \n" + T("notice.footer") + "\n"
	return s.clubName(context.Background(), lang) + ": " + T(what+".title"), body
}

// confirmEmail follows the link sent to a member's new address: logged in as him, it confirms the address.
func (s *Server) confirmEmail(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Referrer-Policy", "no-referrer") // the token is in this page's address
	u := currentUser(r)
	err := s.svc.Accounts.ConfirmEmail(r.Context(), u, r.URL.Query().Get("token"))
	switch club.ErrorCode(err) {
	case "":
		s.Log.Info("e-mail address confirmed", "user", u.ID)
		s.redirect(w, r, "/me/notices?confirmed=1")
	case club.NotFound:
		s.Log.Warn("an e-mail confirmation link was refused", "user", u.ID)
		s.renderNotices(w, r, http.StatusNotFound, s.page(r).T("email.confirm.invalid"))
	default:
		s.fail(w, r, err)
	}
}
