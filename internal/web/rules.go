package web

import "net/http"

// rulesPage is the public page with the club's rules (FIIM 2025 points, the club's role tables and extras,
// registration). The text of both languages lives in templates/rules.html; it needs no store.
func (s *Server) rulesPage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	switch p.Lang {
	case "en":
		p.Title = "Club rules"
	case "ru":
		p.Title = "Правила клуба" // the text itself is still the Ukrainian one
	default:
		p.Title = "Правила клубу"
	}
	s.render(w, "rules", p)
}
