package web

import (
	"net/http"

	"mafiaclub/internal/club"
)

type backupsView struct {
	Page
	Available bool
	List      []club.Backup
	Made      string
	Error     string
}

// backupsPage shows the last backups and the button that takes one (an admin's page).
func (s *Server) backupsPage(w http.ResponseWriter, r *http.Request) {
	s.renderBackups(w, r, http.StatusOK, r.URL.Query().Get("made"), "")
}

func (s *Server) renderBackups(w http.ResponseWriter, r *http.Request, code int, made, errText string) {
	p := s.page(r)
	p.Title = p.T("backups.title")
	list, err := s.svc.Backups.List(r.Context(), p.User)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(code)
	s.render(w, "backups", backupsView{Page: p, Available: s.svc.Backups.Available(), List: list, Made: made, Error: errText})
}

// startBackup takes a backup now; the page answers once the copy is on disk. It is heavy work (club.HeavyWork),
// within the club's share.
func (s *Server) startBackup(w http.ResponseWriter, r *http.Request) {
	var b *club.Backup
	err := s.svc.Heavy.Do(r.Context(), func() (err error) {
		b, err = s.svc.Backups.Start(r.Context(), currentUser(r))
		return err
	})
	switch club.ErrorCode(err) {
	case "":
		s.redirect(w, r, "/admin/backups?made="+urlQueryEscape(b.Name))
	case club.Invalid, club.Conflict:
		s.renderBackups(w, r, status(club.ErrorCode(err)), "", s.errorText(s.page(r).Lang, err))
	default:
		s.fail(w, r, err)
	}
}
