package web

import (
	"fmt"
	"mafiaclub/internal/club"
	"net/http"
	"strconv"
)

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
	u := currentUser(r)
	list, err := s.svc.Accounts.Members(r.Context(), u)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := membersView{Page: p, Members: list, Error: errText,
		Statuses: []string{string(club.StatusActive), string(club.StatusLowPriority), string(club.StatusExcluded)},
		Roles:    []string{string(club.RoleMember), string(club.RoleHost), string(club.RoleAdmin)}}
	if id, err := strconv.ParseInt(r.URL.Query().Get("log"), 10, 64); err == nil {
		v.Log, _ = s.svc.Accounts.MemberLog(r.Context(), u, id)
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
	err = s.svc.Accounts.ChangeMember(r.Context(), currentUser(r), id, r.PostFormValue("field"), r.PostFormValue("to"), r.PostFormValue("reason"))
	s.afterMembers(w, r, err, fmt.Sprintf("/admin/members?log=%d", id))
}

func (s *Server) linkGuest(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PostFormValue("user"), 10, 64)
	if err != nil {
		err = club.Errorf(club.Invalid, "choose a member")
	} else {
		_, err = s.svc.Accounts.LinkGuest(r.Context(), currentUser(r), r.PostFormValue("guest"), id, r.PostFormValue("reason"))
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
