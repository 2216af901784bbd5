package web

import (
	"context"
	"net/http"
	"strings"

	"mafiaclub/internal/club"
)

// PlatformAdmin is what the installation's own site needs of the platform (issue 29) for its admins, who are the
// platform's: the list of the installation's other clubs and the adding of one, served at once.
type PlatformAdmin interface {
	Tenants(ctx context.Context) ([]club.Tenant, error)
	// AddClub adds a club with its first admin (login, name, password) for the platform's admin u; the slug, the
	// host name, the name and the password are checked there, with the reason for a refusal.
	AddClub(ctx context.Context, u *club.User, t club.Tenant, login, adminName, password string) error
}

type clubsView struct {
	Page
	Clubs []clubLine
	Form  clubsForm
	Added string // the address of the club just added
	Error string
}

type clubLine struct {
	club.Tenant
	Address string
	Path    string // the club's prefix on the installation, shown under its own host name's address
	Created string
}

type clubsForm struct{ Slug, Name, Host, Login, AdminName string }

// clubsPage is the platform admin's page of the installation's clubs (/admin/clubs): only on the installation's
// own site, for its admins.
func (s *Server) clubsPage(w http.ResponseWriter, r *http.Request) {
	s.renderClubs(w, r, http.StatusOK, clubsForm{}, r.URL.Query().Get("added"), "")
}

func (s *Server) renderClubs(w http.ResponseWriter, r *http.Request, code int, f clubsForm, added, errText string) {
	if s.Platform == nil {
		s.fail(w, r, club.Errorf(club.NotFound, "no such page"))
		return
	}
	p := s.page(r)
	p.Title = p.T("platform.title")
	ts, err := s.Platform.Tenants(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := clubsView{Page: p, Form: f, Error: errText}
	for _, t := range ts {
		l := clubLine{Tenant: t, Address: Prefix(t.Slug) + "/", Created: p.Time(t.Created)}
		if t.Host != "" {
			// its host name first; the prefix, which leads there, says the slug where the slug's column is hidden
			l.Address, l.Path = "https://"+t.Host+"/", l.Address
		}
		if t.Slug == added {
			v.Added = l.Address
		}
		v.Clubs = append(v.Clubs, l)
	}
	w.WriteHeader(code)
	s.render(w, "admin_clubs", v)
}

// addClub adds a club from the platform admin's form.
func (s *Server) addClub(w http.ResponseWriter, r *http.Request) {
	if s.Platform == nil {
		s.fail(w, r, club.Errorf(club.NotFound, "no such page"))
		return
	}
	f := clubsForm{Slug: strings.TrimSpace(r.PostFormValue("slug")), Name: strings.TrimSpace(r.PostFormValue("name")),
		Host: strings.ToLower(strings.TrimSpace(r.PostFormValue("host"))), Login: strings.TrimSpace(r.PostFormValue("login")),
		AdminName: strings.TrimSpace(r.PostFormValue("admin_name"))}
	t := club.Tenant{Slug: f.Slug, Name: f.Name, Host: f.Host}
	if err := s.Platform.AddClub(r.Context(), currentUser(r), t, f.Login, f.AdminName, r.PostFormValue("password")); err != nil {
		if code := club.ErrorCode(err); code == club.Invalid || code == club.Conflict {
			s.renderClubs(w, r, status(code), f, "", s.errorText(s.page(r).Lang, err))
			return
		}
		s.fail(w, r, err)
		return
	}
	s.redirect(w, r, "/admin/clubs?added="+urlQueryEscape(t.Slug))
}
