package web

import (
	"io/fs"
	"net/http"

	"mafiaclub/internal/club"
)

// routes lists every route of the site. Permissions: public pages need nothing; host pages need the host role
// (an admin has it too); reopening a saved game needs an admin.
func (s *Server) routes(mux *http.ServeMux) {
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", cacheStatic(http.FileServerFS(static))))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })

	mux.HandleFunc("GET /{$}", s.home)
	mux.HandleFunc("GET /login", s.loginForm)
	mux.HandleFunc("POST /login", s.login)
	mux.HandleFunc("POST /logout", s.logout)
	mux.HandleFunc("POST /lang", s.setLang)

	mux.HandleFunc("GET /games", s.require(club.RoleHost, s.gameList))
	mux.HandleFunc("GET /games/new", s.require(club.RoleHost, s.newGameForm))
	mux.HandleFunc("POST /games", s.require(club.RoleHost, s.createGame))
	mux.HandleFunc("GET /games/{id}", s.require(club.RoleHost, s.gamePage))
	mux.HandleFunc("GET /games/{id}/record.json", s.require(club.RoleHost, s.gameRecord))
	mux.HandleFunc("GET /games/{id}/live", s.require(club.RoleHost, s.gameLive))
	mux.HandleFunc("POST /games/{id}/act", s.require(club.RoleHost, s.gameAct))
	mux.HandleFunc("POST /games/{id}/undo", s.require(club.RoleHost, s.gameUndo))
	mux.HandleFunc("POST /games/{id}/save", s.require(club.RoleHost, s.gameSave))
	mux.HandleFunc("POST /games/{id}/reopen", s.require(club.RoleAdmin, s.gameReopen))
	mux.HandleFunc("GET /players/search", s.require(club.RoleHost, s.playerSearch))
}

func cacheStatic(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=300")
		h.ServeHTTP(w, r)
	})
}
