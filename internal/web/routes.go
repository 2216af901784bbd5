package web

import (
	"io/fs"
	"net/http"

	"mafiaclub/internal/club"
)

// routes lists every route of the site. Permissions: public pages need nothing; a member registers for club nights;
// host pages need the host role (an admin has it too); reopening a saved game, club nights, members and no-shows
// need an admin. The club's services check the same again, and everything finer (a tournament table's judge, a
// member's own registration): a route's role is only the first gate.
//
// The routes are a table (routeTable) that the mux is filled from and that Routes gives out, so that a property
// that must hold on every route (a refused request carries nothing of the game it refused) is tested by walking
// the table: a route added later is walked too.
func (s *Server) routes(mux *routeTable) {
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", cacheStatic(staticFiles(static))))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })
	mux.Handle("GET /metrics", s.metricsHandler()) // this machine or the configured token only

	mux.HandleFunc("GET /{$}", s.home)
	mux.HandleFunc("GET /login", s.loginForm)
	mux.HandleFunc("POST /login", s.login)
	mux.HandleFunc("POST /login/link", s.requestLink)
	mux.HandleFunc("GET /login/link", s.useLink)
	mux.HandleFunc("POST /logout", s.logout)
	mux.HandleFunc("POST /lang", s.setLang)

	mux.HandleFunc("GET /games", s.require(club.RoleHost, s.gameList))
	mux.HandleFunc("GET /games/new", s.require(club.RoleHost, s.newGameForm))
	mux.HandleFunc("POST /games", s.require(club.RoleHost, s.createGame))
	mux.HandleFunc("GET /games/{game}", s.require(club.RoleHost, s.gamePage))
	mux.HandleFunc("GET /games/{game}/record.json", s.require(club.RoleHost, s.gameRecord))
	mux.HandleFunc("GET /games/{game}/state.json", s.require(club.RoleHost, s.gameState))
	mux.HandleFunc("GET /static/engine/{hash}/{file}", s.engineFile)
	mux.HandleFunc("GET /static/i18n/{file}", s.catalogFile)
	mux.HandleFunc("GET /sw.js", s.serviceWorker)
	mux.HandleFunc("GET /games/{game}/live", s.require(club.RoleHost, s.gameLive))
	mux.HandleFunc("POST /games/{game}/act", s.require(club.RoleHost, s.gameAct))
	mux.HandleFunc("POST /games/{game}/undo", s.require(club.RoleHost, s.gameUndo))
	mux.HandleFunc("POST /games/{game}/save", s.require(club.RoleHost, s.gameSave))
	mux.HandleFunc("POST /games/{game}/reopen", s.require(club.RoleAdmin, s.gameReopen))
	mux.HandleFunc("GET /games/{game}/seats", s.require(club.RoleHost, s.seatsForm))     // a mistyped card or name
	mux.HandleFunc("POST /games/{game}/seats", s.require(club.RoleHost, s.correctSeats)) // checked, confirmed, applied
	mux.HandleFunc("GET /players/search", s.require(club.RoleHost, s.playerSearch))

	// the club: public pages show nicknames only
	mux.HandleFunc("GET /rating", s.ratingPage)
	mux.HandleFunc("GET /rating.csv", s.ratingCSV)
	mux.HandleFunc("GET /players/{id}", s.playerPage)
	mux.HandleFunc("GET /history", s.historyPage)
	mux.HandleFunc("GET /history/{game}", s.recordPage)
	mux.HandleFunc("GET /history/{game}/record.json", s.recordDownload)
	mux.HandleFunc("GET /nights", s.nightsPage)
	mux.HandleFunc("GET /nights.ics", s.nightsICS)
	mux.HandleFunc("GET /nights/{id}", s.nightPage)
	mux.HandleFunc("GET /rules", s.rulesPage)
	mux.HandleFunc("GET /api/standings", s.apiStandings)
	mux.HandleFunc("GET /api/players/{id}/stats", s.apiPlayerStats)
	mux.HandleFunc("GET /stats", s.clubStatsPage)
	mux.HandleFunc("GET /api/games/{game}", s.apiGame)
	mux.HandleFunc("GET /api/nights", s.apiNights)

	mux.HandleFunc("GET /join", s.joinForm)
	mux.HandleFunc("POST /join", s.join)
	mux.HandleFunc("GET /signup", s.signupForm)
	mux.HandleFunc("POST /signup", s.signup)
	mux.HandleFunc("GET /me", s.require(club.RoleMember, s.mePage))
	mux.HandleFunc("GET /me/profile", s.require(club.RoleMember, s.profileForm))
	mux.HandleFunc("GET /me/password", s.require(club.RoleMember, s.passwordForm))
	mux.HandleFunc("POST /me/password", s.require(club.RoleMember, s.changePassword))
	mux.HandleFunc("POST /me/profile", s.require(club.RoleMember, s.saveProfile))
	mux.HandleFunc("GET /players/{id}/photo", s.playerPhoto)
	mux.HandleFunc("POST /nights/{id}/register", s.require(club.RoleMember, s.nightRegister))
	mux.HandleFunc("POST /nights/{id}/cancel", s.require(club.RoleMember, s.nightCancel))

	mux.HandleFunc("GET /nights/new", s.require(club.RoleAdmin, s.newNightForm))
	mux.HandleFunc("POST /nights", s.require(club.RoleAdmin, s.createNight))
	mux.HandleFunc("POST /nights/{id}/noshow", s.require(club.RoleAdmin, s.nightNoShow))
	mux.HandleFunc("GET /admin/members", s.require(club.RoleAdmin, s.membersPage))
	mux.HandleFunc("POST /admin/members/{id}", s.require(club.RoleAdmin, s.changeMember))
	mux.HandleFunc("POST /admin/link-guest", s.require(club.RoleAdmin, s.linkGuest))
	mux.HandleFunc("GET /admin/import", s.require(club.RoleAdmin, s.importForm))
	mux.HandleFunc("GET /admin/backups", s.require(club.RoleAdmin, s.backupsPage))
	mux.HandleFunc("POST /admin/backups", s.require(club.RoleAdmin, s.startBackup))
	mux.HandleFunc("GET /admin/club", s.require(club.RoleAdmin, s.clubForm)) // the club's identity (issue 25)
	mux.HandleFunc("POST /admin/club", s.require(club.RoleAdmin, s.saveClub))
	mux.HandleFunc("GET /club/logo", s.clubLogo) // public, cached, with its ETag
	// the installation's clubs (issue 29): its own site's admins are the platform's
	mux.HandleFunc("GET /admin/clubs", s.require(club.RoleAdmin, s.clubsPage))
	mux.HandleFunc("POST /admin/clubs", s.require(club.RoleAdmin, s.addClub))

	// tournaments: public pages; the organiser (admin), the chief judge and the table judges act
	mux.HandleFunc("GET /tournaments", s.tournamentsPage)
	mux.HandleFunc("POST /tournaments", s.require(club.RoleAdmin, s.createTournament))
	mux.HandleFunc("GET /tournaments/{id}", s.tournamentPage)
	mux.HandleFunc("GET /tournaments/{id}/standings.csv", s.tournamentCSV)
	mux.HandleFunc("POST /tournaments/{id}/{action}", s.require(club.RoleMember, s.tournamentAction))
	mux.HandleFunc("POST /history/{game}/protests", s.require(club.RoleMember, s.fileProtest))
	mux.HandleFunc("POST /history/{game}/protests/{pid}", s.require(club.RoleHost, s.decideProtest))
	mux.HandleFunc("POST /games/{game}/approve-extra", s.require(club.RoleHost, s.approveExtra))
	mux.HandleFunc("POST /admin/import", s.require(club.RoleAdmin, s.importGames))
	// a club's old protocols: summaries into the history and the rating (issue 26, item 7)
	mux.HandleFunc("GET /admin/summaries", s.require(club.RoleAdmin, s.summariesPage))
	mux.HandleFunc("POST /admin/summaries/preview", s.require(club.RoleAdmin, s.previewSummaries))
	mux.HandleFunc("POST /admin/summaries/import", s.require(club.RoleAdmin, s.importSummaries))
	mux.HandleFunc("POST /history/{game}/delete", s.require(club.RoleAdmin, s.deleteSummary))

	// club nights' edits, notices, the strikes report (issue 10)
	mux.HandleFunc("GET /nights/{id}/edit", s.require(club.RoleAdmin, s.editNightForm))
	mux.HandleFunc("POST /nights/{id}/edit", s.require(club.RoleAdmin, s.editNight))
	mux.HandleFunc("POST /nights/{id}/call-off", s.require(club.RoleAdmin, s.cancelNightByAdmin))
	mux.HandleFunc("GET /me/notices", s.require(club.RoleMember, s.noticesPage))
	mux.HandleFunc("POST /me/notices/read", s.require(club.RoleMember, s.noticesRead))
	mux.HandleFunc("POST /me/email", s.require(club.RoleMember, s.setEmail))
	mux.HandleFunc("GET /me/email/confirm", s.require(club.RoleMember, s.confirmEmail))
	mux.HandleFunc("GET /admin/strikes", s.require(club.RoleAdmin, s.strikesPage))
	mux.HandleFunc("POST /admin/strikes/rule", s.require(club.RoleAdmin, s.setStrikeRule))
	// live games: public (the public view, or the club's delayed broadcast); one stream per page
	mux.HandleFunc("GET /live", s.liveList)
	mux.HandleFunc("GET /live/events", s.liveEvents)
	mux.HandleFunc("GET /live/{game}", s.livePage)
	mux.HandleFunc("GET /live/{game}/screen", s.liveScreen)
	mux.HandleFunc("GET /live/{game}/overlay", s.liveOverlay)
	mux.HandleFunc("GET /live/{game}/events", s.liveEvents)
	mux.HandleFunc("GET /api/live/{game}", s.apiLive)
	mux.HandleFunc("POST /live/{game}/broadcast", s.require(club.RoleHost, s.setBroadcast))
	mux.HandleFunc("POST /live/settings", s.require(club.RoleAdmin, s.setDefaultBroadcast))

	// the club's Telegram (issue 28): a member's link, the admin's settings and failures, the bot's webhook
	mux.HandleFunc("GET /me/telegram", s.require(club.RoleMember, s.telegramPage))
	mux.HandleFunc("POST /me/telegram/link", s.require(club.RoleMember, s.telegramLink))
	mux.HandleFunc("POST /me/telegram/unlink", s.require(club.RoleMember, s.telegramUnlink))
	mux.HandleFunc("GET /admin/telegram", s.require(club.RoleAdmin, s.adminTelegramPage))
	mux.HandleFunc("POST /admin/telegram", s.require(club.RoleAdmin, s.saveAdminTelegram))
	mux.HandleFunc("POST /telegram/{secret}", s.telegramWebhook) // Telegram's own: its secret, checked by the bot

	// anything else: the site's own page, in the reader's language
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { s.fail(w, r, club.Errorf(club.NotFound, "no such page")) })
}

// routeTable registers the site's routes on its mux (when it has one) and keeps their patterns in order.
type routeTable struct {
	mux      *http.ServeMux
	patterns []string
}

func (t *routeTable) Handle(pattern string, h http.Handler) {
	t.patterns = append(t.patterns, pattern)
	if t.mux != nil {
		t.mux.Handle(pattern, h)
	}
}

func (t *routeTable) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	t.Handle(pattern, http.HandlerFunc(h))
}

// Routes lists the patterns of every route the site registers ("GET /games/{game}", "/" for the rest), in the order
// they are registered, as http.ServeMux reads them.
func (s *Server) Routes() []string {
	var t routeTable
	s.routes(&t)
	return t.patterns
}

func cacheStatic(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=300")
		h.ServeHTTP(w, r)
	})
}
