package web

import (
	"bytes"
	"html/template"
	"net/http"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/hostview"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// gameView is the host page: the content hostview draws (the browser's engine redraws the same content after each
// action), and the input it was drawn from, for the browser's engine.
type gameView struct {
	Page
	Game  *club.Game
	Host  template.HTML
	Input hostview.Input
	// Engine is the address of the engine compiled to WebAssembly, "" while it is not ready (the page then works
	// by plain form posts).
	Engine, Exec string
	// Offset is the club's time zone's offset from UTC now, in seconds: the browser writes the time of an action
	// not yet saved with it, as the server writes the saved ones (the browser's own time zone data may differ from
	// the server's: Chromium's and Debian's disagree on America/Edmonton by an hour).
	Offset int
	// Viewer is the viewer's account: what the page keeps on the device is his, and another's is not used.
	Viewer int64
}

// hostInput is what the host page of a game is drawn from, for its viewer.
func (s *Server) hostInput(r *http.Request, p Page, st *club.State) hostview.Input {
	in := hostview.Input{Game: st.Game.ID, Version: st.Game.Version, Live: st.Game.Status == club.GameLive, Rated: st.Game.Rated,
		Record: record.Encode(st.Record), Times: make([]string, len(st.Log)), IsAdmin: p.IsAdmin(), Lang: p.Lang, Dealt: st.Game.Dealt, Base: s.Base}
	if !in.Live {
		in.Saved = p.Time(st.Game.SavedAt)
	}
	for i, se := range st.Log {
		in.Times[i] = p.Clock(se.At)
	}
	if info, err := s.svc.Tournaments.Info(r.Context(), p.User, st); err == nil && info != nil {
		in.IsChief = info.ApprovesExtra // the agreement's form is his
	}
	in.Host = st.Game.HostID
	audit, err := s.svc.Games.Audit(r.Context(), p.User, st)
	if err == nil {
		for _, a := range audit {
			line := p.T("audit." + a.Action)
			if a.Action == "take_over" {
				// in the chronology, where the host reads the game, not among the entries "show roles" reveals;
				// and the page of the host it was taken from tells him once
				in.Notes = append(in.Notes, hostview.ChronoNote{After: takenAfter(st.Log, a), Text: p.T("chrono.take_over", p.Clock(a.At), a.ByName, a.Detail)})
				in.TakenOver = ""
				if p.User == nil || a.By != p.User.ID {
					in.TakenOver = p.T("host.taken_over", a.ByName, p.Clock(a.At))
				}
				continue
			}
			if a.Action == "undo" {
				detail := a.Detail
				if e, err := record.DecodeEvent([]byte(a.Detail), len(st.Game.Seats)); err == nil {
					detail = s.describe(p, e, "")
				}
				line = p.T("audit.undo", detail)
			}
			if a.Action == "correct_seats" {
				line = s.correctionLine(p, a.Detail)
			}
			in.Audit = append(in.Audit, p.Time(a.At)+" · "+a.ByName+" · "+line)
		}
	}
	return in
}

// takenAfter is how many events of the log came before the take-over a: those recorded before it, but the events
// of the action that took the game over (stamped just before it, by its new host), which follow it.
func takenAfter(log []club.StoredEvent, a club.AuditEntry) int {
	n := 0
	for n < len(log) && !log[n].At.After(a.At) {
		n++
	}
	for n > 0 && log[n-1].By == a.By && a.At.Sub(log[n-1].At) < time.Second {
		n--
	}
	return n
}

// renderGame shows the host page: the table, what happens next as the engine says, the actions it allows, the
// points and the chronology.
func (s *Server) renderGame(w http.ResponseWriter, r *http.Request, code int, st *club.State, errText string) {
	p := s.page(r)
	p.Title = p.T("game.title", st.Game.ID)
	in := s.hostInput(r, p, st)
	in.Error = errText
	hs := &hostview.State{In: in, Record: st.Record, Play: st.Play}
	var buf bytes.Buffer
	if err := hostview.Render(&buf, hostview.Build(hs, s.Catalog, newRequestID)); err != nil {
		s.fail(w, r, err)
		return
	}
	v := gameView{Page: p, Game: st.Game, Host: template.HTML(buf.String()), Input: in}
	v.Engine, v.Exec = s.engineURLs()
	_, v.Offset = s.now().In(s.zone()).Zone()
	if p.User != nil {
		v.Viewer = p.User.ID
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	s.render(w, "game", v)
}

// chronology describes every event of the log with its phase and time: "Day 2, 19:42:05, #4 nominated #7".
func (s *Server) chronology(p Page, st *club.State) []hostview.ChronoLine {
	times := make([]string, len(st.Log))
	for i, se := range st.Log {
		times[i] = p.Clock(se.At)
	}
	return hostview.Chronology(s.Catalog, p.Lang, st.Record, times)
}

func (s *Server) describe(p Page, e record.Event, answer string) string {
	return hostview.Describe(s.Catalog, p.Lang, e, answer)
}

// ruleText says a broken rule in the user's language, with the seats it concerns and the rule's reference.
func (s *Server) ruleText(lang string, err error, re *mafia.RuleError) string {
	return hostview.RuleText(s.Catalog, lang, err, re)
}
