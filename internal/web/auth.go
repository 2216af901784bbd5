package web

import (
	"net/http"
	"strings"

	"mafiaclub/internal/club"
)

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	if u := currentUser(r); u != nil {
		to := "/me"
		if u.Role.Can(club.RoleHost) {
			to = "/games"
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	p := s.page(r)
	p.Title = p.T("home.title")
	s.render(w, "home", p)
}

type loginView struct {
	Page
	Next, Login, Error string
}

func (s *Server) loginForm(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("login.title")
	s.render(w, "login", loginView{Page: p, Next: safeNext(r.URL.Query().Get("next"))})
}

// login checks a login and password. A wrong login and a wrong password get the same answer, after the same
// slow hash, so that an attacker cannot tell which logins exist.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	login := strings.TrimSpace(r.PostFormValue("login"))
	pass := r.PostFormValue("password")
	next := safeNext(r.PostFormValue("next"))
	keys := loginKeys(r, login)
	if s.throttle.blocked(keys, s.Now()) {
		p := s.page(r)
		p.Title = p.T("login.title")
		w.WriteHeader(http.StatusTooManyRequests)
		s.render(w, "login", loginView{Page: p, Next: next, Login: login, Error: p.T("login.throttled")})
		return
	}
	u, err := s.Store.UserByLogin(r.Context(), login)
	ok := false
	if err == nil {
		ok = club.CheckPassword(u.PasswordHash, pass)
	} else {
		club.CheckPassword(dummyHash, pass)
		if club.ErrorCode(err) != club.NotFound {
			s.fail(w, r, err)
			return
		}
	}
	if !ok {
		s.throttle.fail(keys, s.Now())
		p := s.page(r)
		p.Title = p.T("login.title")
		w.WriteHeader(http.StatusUnauthorized)
		s.render(w, "login", loginView{Page: p, Next: next, Login: login, Error: p.T("login.wrong")})
		return
	}
	s.throttle.succeed(keys)
	if err := s.startSession(w, r, u); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
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
	var keep []byte
	if c, err := r.Cookie(sessionCookie); err == nil {
		keep = hashToken(c.Value)
	}
	err := s.Club.ChangePassword(r.Context(), currentUser(r), r.PostFormValue("current"), r.PostFormValue("new"), keep)
	switch club.ErrorCode(err) {
	case "":
		http.Redirect(w, r, "/me/password?done=1", http.StatusSeeOther)
	case club.Invalid:
		refuse(http.StatusBadRequest, s.errorText(p.Lang, err))
	default:
		s.fail(w, r, err)
	}
}

// dummyHash is checked when the login does not exist, so that both failures take as long.
var dummyHash, _ = club.HashPassword("not a real password at all")

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	s.endSession(w, r)
	http.Redirect(w, r, "/", http.StatusSeeOther)
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
	http.SetCookie(w, &http.Cookie{Name: "lang", Value: lang, Path: "/", MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode,
		Secure: s.secureCookie(r)})
	if u := currentUser(r); u != nil {
		if err := s.Store.SetUserLang(r.Context(), u.ID, lang); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
}
