package web

import (
	"context"
	"io"
	"net/http"
	"strings"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
)

// clubOf is the club's identity the site shows: every page's title and header, the e-mails, the iCal feed and the
// protocol name the club by it. It is read through the club's service, which keeps it in memory (no query per
// page). The one function a platform of many clubs will key by the request's club. Never nil: a store that cannot
// be read gives a club never set, and the pages name the site as their catalogue does.
func (s *Server) clubOf(ctx context.Context) *club.Club {
	c, err := s.svc.Club.Get(ctx)
	if err != nil {
		s.Log.Error("the club's identity", "err", err)
		return club.NewClub()
	}
	return c
}

// clubName is the club's name in lang: the club's own for that language, its main name, or the catalogue's
// "site.name" for a club that has none.
func (s *Server) clubName(ctx context.Context, lang string) string {
	if n := s.clubOf(ctx).NameIn(lang); n != "" {
		return n
	}
	return s.Catalog.T(lang, "site.name")
}

// metaKeys are the catalogue's sentences of the public pages' meta descriptions, by the path's first segment, for a
// club without a description of its own.
var metaKeys = map[string]string{"": "meta.home", "rating": "meta.rating", "history": "meta.history", "nights": "meta.nights",
	"live": "meta.live", "tournaments": "meta.tournaments", "rules": "meta.rules", "players": "meta.players", "stats": "meta.stats",
	"signup": "meta.signup", "login": "meta.login"}

// MetaDescription is the page's meta description: the club's own description, or the catalogue's sentence for the
// page, naming the club.
func (p Page) MetaDescription() string {
	if p.Club != nil && p.Club.Description != "" {
		return p.Club.Description
	}
	seg, _, _ := strings.Cut(strings.TrimPrefix(p.Path, "/"), "/")
	seg, _, _ = strings.Cut(seg, "?")
	seg = strings.TrimSuffix(seg, ".html")
	key, ok := metaKeys[seg]
	if !ok {
		key = "meta.default"
	}
	return p.T(key, p.SiteName)
}

// clubLogo serves the club's logo, cached by browsers and revalidated with its ETag (a hash of its bytes, worked out
// when the identity is read): a browser that holds it is answered 304.
func (s *Server) clubLogo(w http.ResponseWriter, r *http.Request) {
	c := s.clubOf(r.Context())
	if len(c.Logo) == 0 {
		s.fail(w, r, club.Errorf(club.NotFound, "the club has no logo"))
		return
	}
	tag := c.LogoTag()
	w.Header().Set("Cache-Control", "public, no-cache") // kept, and asked again each time: a changed logo shows at once, an unchanged one is a 304
	w.Header().Set("ETag", tag)
	for _, t := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if t = strings.TrimSpace(t); t == tag || t == "W/"+tag || t == "*" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Header().Set("Content-Type", c.LogoType)
	w.Write(c.Logo)
}

type clubView struct {
	Page
	C        *club.Club
	Names    []clubNameField
	Rules    []ruleChoice
	ZoneName string
	Saved    bool
	Error    string
}

type clubNameField struct{ Lang, Label, Value string }

// clubForm is the admin's page of the club's identity (/admin/club).
func (s *Server) clubForm(w http.ResponseWriter, r *http.Request) {
	s.renderClub(w, r, http.StatusOK, nil, r.URL.Query().Get("saved") == "1", "")
}

func (s *Server) renderClub(w http.ResponseWriter, r *http.Request, code int, shown *club.Club, saved bool, errText string) {
	p := s.page(r)
	p.Title = p.T("club.title")
	if shown == nil {
		shown = p.Club
	}
	v := clubView{Page: p, C: shown, ZoneName: s.zone().String(), Saved: saved, Error: errText}
	for _, lang := range Languages {
		v.Names = append(v.Names, clubNameField{Lang: lang, Label: p.T("lang." + lang), Value: shown.Names[lang]})
	}
	for _, rs := range mafia.RuleSets() {
		v.Rules = append(v.Rules, ruleChoice{ID: rs.ID, Title: p.RulesTitle(rs), Selected: rs.ID == shown.RulesID()})
	}
	w.WriteHeader(code)
	s.render(w, "club", v)
}

// saveClub changes the club's identity from the admin's form; the logo is a file of at most club.MaxLogo bytes.
func (s *Server) saveClub(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, club.MaxLogo+64<<10)
	if err := r.ParseMultipartForm(club.MaxLogo + 64<<10); err != nil && err != http.ErrNotMultipart {
		s.renderClub(w, r, http.StatusBadRequest, nil, false, s.page(r).T("club.too_big"))
		return
	}
	f := club.ClubForm{Name: r.FormValue("name"), Names: map[string]string{}, City: r.FormValue("city"), Description: r.FormValue("description"),
		Site: r.FormValue("site"), Telegram: r.FormValue("telegram"), Instagram: r.FormValue("instagram"), YouTube: r.FormValue("youtube"),
		Rules: r.FormValue("rules"), ClubExtras: r.FormValue("club_extras") == "on", RemoveLogo: r.FormValue("remove_logo") == "on"}
	if f.Rules == mafia.DefaultRuleSetID {
		f.Rules = "" // the club's own, as for a club never set
	}
	for _, lang := range Languages {
		f.Names[lang] = r.FormValue("name_" + lang)
	}
	var err error
	if r.MultipartForm != nil && len(r.MultipartForm.File["logo"]) > 0 {
		file, ferr := r.MultipartForm.File["logo"][0].Open()
		if ferr == nil {
			f.Logo, ferr = io.ReadAll(io.LimitReader(file, club.MaxLogo+1))
			file.Close()
		}
		if ferr != nil {
			err = club.Errorf(club.Invalid, "the logo could not be read")
		} else if len(f.Logo) == 0 {
			f.Logo = nil // the file field left empty
		}
	}
	if err == nil {
		_, err = s.svc.Club.Update(r.Context(), currentUser(r), f)
	}
	switch {
	case err == nil:
		s.redirect(w, r, "/admin/club?saved=1")
	case club.ErrorCode(err) == club.Invalid:
		shown := &club.Club{Name: f.Name, Names: f.Names, City: f.City, Description: f.Description, Site: f.Site, Telegram: f.Telegram,
			Instagram: f.Instagram, YouTube: f.YouTube, Rules: f.Rules, ClubExtras: f.ClubExtras}
		s.renderClub(w, r, http.StatusBadRequest, shown, false, s.errorText(s.page(r).Lang, err))
	default:
		s.fail(w, r, err)
	}
}
