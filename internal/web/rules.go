package web

import "net/http"

// rulesPage is the public page with the club's rules (FIIM 2025 points, the club's role tables and extras,
// registration). The text of each language (uk, en, ru) lives in templates/rules.html, the title in the catalogues
// ("rules.title"); it needs no store.
func (s *Server) rulesPage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("rules.title")
	s.render(w, "rules", p)
}
