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
	Log      []memberLogLine
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
		changes, _ := s.svc.Accounts.MemberLog(r.Context(), u, id)
		for _, c := range changes {
			v.Log = append(v.Log, memberLogLine{MemberChange: c, Text: memberChangeText(p, c)})
		}
		for _, m := range list {
			if m.ID == id {
				v.LogFor = m.Login
			}
		}
	}
	w.WriteHeader(code)
	s.render(w, "members", v)
}

// memberLogLine is a line of a member's change log, said in the reader's language.
type memberLogLine struct {
	club.MemberChange
	Text string
}

// memberChangeText says what a change did in words, in the reader's language: the field's name and each value's
// ("статус: очікує підтвердження → активний"), the guest's seats linked to the member; a value the catalogue
// does not know is shown as it was stored.
func memberChangeText(p Page, c club.MemberChange) string {
	value := func(prefix, v string) string {
		if p.cat.Known(p.Lang, prefix+v) {
			return p.T(prefix + v)
		}
		return v
	}
	switch c.Field {
	case "status":
		return p.T("members.log_status", value("status.", c.From), value("status.", c.To))
	case "role":
		return p.T("members.log_role", value("members.role_", c.From), value("members.role_", c.To))
	case "linked":
		var n int
		if _, err := fmt.Sscanf(c.To, "%d seats", &n); err == nil {
			return p.N("members.log_linked.n", n, c.From)
		}
	}
	return c.Field + ": " + c.From + " → " + c.To
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
		s.redirect(w, r, next)
	case club.Invalid, club.NotFound:
		s.renderMembers(w, r, status(club.ErrorCode(err)), s.errorText(s.page(r).Lang, err))
	default:
		s.fail(w, r, err)
	}
}
