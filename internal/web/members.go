package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"mafiaclub/internal/club"
)

type signupView struct {
	Page
	Login, Nick, RealName, Error string
	Done                         bool
}

func (s *Server) signupForm(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("signup.title")
	s.render(w, "signup", signupView{Page: p})
}

// signup creates a pending member and logs him in; an admin approves him later.
func (s *Server) signup(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("signup.title")
	v := signupView{Page: p, Login: strings.TrimSpace(r.PostFormValue("login")), Nick: strings.TrimSpace(r.PostFormValue("nick")),
		RealName: strings.TrimSpace(r.PostFormValue("real_name"))}
	if r.PostFormValue("password") != r.PostFormValue("password2") {
		v.Error = p.T("signup.mismatch")
		w.WriteHeader(http.StatusBadRequest)
		s.render(w, "signup", v)
		return
	}
	u, err := s.Club.SignUp(r.Context(), v.Login, r.PostFormValue("password"), v.Nick, v.RealName)
	if err != nil {
		if code := club.ErrorCode(err); code == club.Invalid || code == club.Conflict {
			v.Error = s.errorText(p.Lang, err)
			if code == club.Conflict && !errors.Is(err, club.ErrNickTaken) {
				v.Error = p.T("signup.taken", v.Login)
			}
			w.WriteHeader(status(code))
			s.render(w, "signup", v)
			return
		}
		s.fail(w, r, err)
		return
	}
	if err := s.startSession(w, r, u); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/me", http.StatusSeeOther)
}

type meView struct {
	Page
	Status  string
	Regs    []regRow
	Strikes []string
}

type regRow struct {
	club.Registration
	When, State string
}

func (s *Server) mePage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("me.title")
	u := p.User
	regs, err := s.Store.UserRegistrations(r.Context(), u.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	strikes, err := s.Store.Strikes(r.Context(), u.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := meView{Page: p, Status: p.T("status." + string(u.Status))}
	for i := len(regs) - 1; i >= 0; i-- {
		reg := regs[i]
		n, err := s.Store.Night(r.Context(), reg.NightID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		state := p.T("reg." + string(reg.State))
		if reg.Late {
			state = p.T("reg.late")
		}
		if reg.NoShow {
			state += " · " + p.T("strike.no_show")
		}
		v.Regs = append(v.Regs, regRow{Registration: reg, When: p.Time(n.StartsAt) + " · " + n.Place, State: state})
	}
	for _, st := range strikes {
		v.Strikes = append(v.Strikes, p.Time(st.At)+" · "+p.T("strike."+string(st.Kind)))
	}
	s.render(w, "me", v)
}

type membersView struct {
	Page
	Members  []club.User
	Statuses []string
	Roles    []string
	Log      []club.MemberChange
	LogFor   string
	Error    string
}

func (s *Server) membersPage(w http.ResponseWriter, r *http.Request) {
	s.renderMembers(w, r, http.StatusOK, "")
}

func (s *Server) renderMembers(w http.ResponseWriter, r *http.Request, code int, errText string) {
	p := s.page(r)
	p.Title = p.T("members.title")
	list, err := s.Store.Members(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := membersView{Page: p, Members: list, Error: errText,
		Statuses: []string{string(club.StatusActive), string(club.StatusLowPriority), string(club.StatusExcluded)},
		Roles:    []string{string(club.RoleMember), string(club.RoleHost), string(club.RoleAdmin)}}
	if id, err := strconv.ParseInt(r.URL.Query().Get("log"), 10, 64); err == nil {
		v.Log, _ = s.Store.MemberLog(r.Context(), id)
		for _, m := range list {
			if m.ID == id {
				v.LogFor = m.Login
			}
		}
	}
	w.WriteHeader(code)
	s.render(w, "members", v)
}

// changeMember sets a status or role with its reason (an admin's action, logged).
func (s *Server) changeMember(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "member")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	err = s.Club.ChangeMember(r.Context(), currentUser(r), id, r.PostFormValue("field"), r.PostFormValue("to"), r.PostFormValue("reason"))
	s.afterMembers(w, r, err, fmt.Sprintf("/admin/members?log=%d", id))
}

func (s *Server) linkGuest(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PostFormValue("user"), 10, 64)
	if err != nil {
		err = club.Errorf(club.Invalid, "choose a member")
	} else {
		_, err = s.Club.LinkGuest(r.Context(), currentUser(r), r.PostFormValue("guest"), id, r.PostFormValue("reason"))
	}
	s.afterMembers(w, r, err, fmt.Sprintf("/admin/members?log=%d", id))
}

func (s *Server) afterMembers(w http.ResponseWriter, r *http.Request, err error, next string) {
	switch club.ErrorCode(err) {
	case "":
		http.Redirect(w, r, next, http.StatusSeeOther)
	case club.Invalid, club.NotFound:
		s.renderMembers(w, r, status(club.ErrorCode(err)), s.errorText(s.page(r).Lang, err))
	default:
		s.fail(w, r, err)
	}
}

type profileView struct {
	Page
	Player *club.Player
	Error  string
	Saved  bool
}

func (s *Server) profileForm(w http.ResponseWriter, r *http.Request) {
	s.renderProfile(w, r, http.StatusOK, "", r.URL.Query().Get("saved") == "1")
}

func (s *Server) renderProfile(w http.ResponseWriter, r *http.Request, code int, errText string, saved bool) {
	p := s.page(r)
	p.Title = p.T("profile.title")
	if p.User.PlayerID == 0 {
		s.fail(w, r, club.Errorf(club.Invalid, "this account has no player profile"))
		return
	}
	pl, err := s.Store.Player(r.Context(), p.User.PlayerID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(code)
	s.render(w, "profile", profileView{Page: p, Player: pl, Error: errText, Saved: saved})
}

// saveProfile changes the member's own nickname, real name and photo.
func (s *Server) saveProfile(w http.ResponseWriter, r *http.Request) {
	u := currentUser(r)
	r.Body = http.MaxBytesReader(w, r.Body, club.MaxPhoto+64<<10)
	if err := r.ParseMultipartForm(club.MaxPhoto + 64<<10); err != nil && err != http.ErrNotMultipart {
		s.renderProfile(w, r, http.StatusBadRequest, s.page(r).T("profile.too_big"), false)
		return
	}
	var photo []byte
	var err error
	if r.MultipartForm != nil && len(r.MultipartForm.File["photo"]) > 0 {
		f, ferr := r.MultipartForm.File["photo"][0].Open()
		if ferr == nil {
			photo, ferr = io.ReadAll(io.LimitReader(f, club.MaxPhoto+1))
			f.Close()
		}
		if ferr != nil {
			err = club.Errorf(club.Invalid, "the photo could not be read")
		} else if len(photo) == 0 {
			photo = nil // the file field left empty
		}
	}
	if err == nil {
		err = s.Club.SaveProfile(r.Context(), u, r.FormValue("nick"), r.FormValue("real_name"), photo, r.FormValue("remove_photo") == "on")
	}
	switch {
	case err == nil:
		http.Redirect(w, r, "/me/profile?saved=1", http.StatusSeeOther)
	case club.ErrorCode(err) == club.Invalid || club.ErrorCode(err) == club.Conflict:
		s.renderProfile(w, r, status(club.ErrorCode(err)), s.errorText(s.page(r).Lang, err), false)
	default:
		s.fail(w, r, err)
	}
}

// playerPhoto serves a profile photo with the type found in its content.
func (s *Server) playerPhoto(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "player")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	photo, ct, err := s.Store.PlayerPhoto(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(photo)
}
