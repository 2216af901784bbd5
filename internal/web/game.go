package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/hostview"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

type gameListView struct {
	Page
	Live, Saved []club.Game
}

func (s *Server) gameList(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("games.title")
	live, err := s.svc.Games.List(r.Context(), p.User, club.GameLive, 0, 50)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	saved, err := s.svc.Games.List(r.Context(), p.User, club.GameSaved, 0, 50)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, "games", gameListView{Page: p, Live: live, Saved: saved})
}

// formVersion reads the game version the form was made from, which every change to a game must name (two devices
// never overwrite each other).
func formVersion(r *http.Request) (int64, error) {
	v, err := strconv.ParseInt(r.PostFormValue("version"), 10, 64)
	if err != nil || v < 0 {
		return 0, club.Errorf(club.Invalid, "the form has no version; reload the page")
	}
	return v, nil
}

func gameID(r *http.Request) (int64, error) { return pathID(r, "game", "game") }

// pathID reads a positive id from the URL's path; anything else is a page that does not exist.
func pathID(r *http.Request, key, what string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(key), 10, 64)
	if err != nil || id <= 0 {
		return 0, club.Errorf(club.NotFound, "no such %s", what)
	}
	return id, nil
}

// loadGame loads the game of the request's path for its user; on failure it has answered already.
func (s *Server) loadGame(w http.ResponseWriter, r *http.Request) (*club.State, bool) {
	id, err := gameID(r)
	if err == nil {
		var st *club.State
		if st, err = s.svc.Games.Load(r.Context(), currentUser(r), id); err == nil {
			return st, true
		}
	}
	s.fail(w, r, err)
	return nil, false
}

func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	if st, ok := s.loadGame(w, r); ok {
		if st.Game.IsSummary() { // a game from an old protocol has no host page: its summary
			s.redirect(w, r, fmt.Sprintf("/history/%d", st.Game.ID))
			return
		}
		s.renderGame(w, r, http.StatusOK, st, "")
	}
}

// gameRecord downloads the game's record in the spec's form.
func (s *Server) gameRecord(w http.ResponseWriter, r *http.Request) {
	if st, ok := s.loadGame(w, r); ok {
		s.writeRecord(w, st)
	}
}

// recordJSON is the game's record in the spec's form, with the club's fields carried along, and an imported game's
// own (its note, source, end, the platform's fields; a time among them in the club's zone).
func (s *Server) recordJSON(st *club.State) []byte {
	rec := *st.Record
	rec.Events = slices.Clone(rec.Events)
	for i := range rec.Events {
		rec.Events[i].At = s.apiStamp(rec.Events[i].At)
	}
	rec.Extra = map[string]json.RawMessage{}
	if len(st.Game.Extra) > 0 {
		_ = json.Unmarshal(st.Game.Extra, &rec.Extra)
		if raw, ok := rec.Extra["ended"]; ok {
			var ended string
			if json.Unmarshal(raw, &ended) == nil {
				rec.Extra["ended"], _ = json.Marshal(s.apiStamp(ended))
			}
		}
	}
	rec.Extra["id"] = []byte(strconv.FormatInt(st.Game.ID, 10))
	rec.Extra["rated"] = []byte(strconv.FormatBool(st.Game.Rated))
	rec.Extra["started"] = []byte(`"` + s.apiTime(st.Game.CreatedAt) + `"`)
	if st.Game.NightID != 0 {
		rec.Extra["event"] = []byte(strconv.FormatInt(st.Game.NightID, 10))
	}
	return record.Encode(&rec)
}

func resultJSON(st *club.State) []byte { return record.ResultJSON(st.Play, nil) }

func (s *Server) writeRecord(w http.ResponseWriter, st *club.State) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="game-%d.json"`, st.Game.ID))
	w.Write(s.recordJSON(st))
}

// gameAct records the host's action: the form names an event (or a batch, "shoot_all") and the version it was
// made on.
func (s *Server) gameAct(w http.ResponseWriter, r *http.Request) {
	st, version, ok := s.gameAtVersion(w, r, s.failAction)
	if !ok {
		return
	}
	u := currentUser(r)
	events, err := eventsFromForm(r, st)
	if err != nil && wantsJSON(r) {
		s.answerJSON(w, r, st, err)
		return
	}
	if err != nil {
		s.renderGame(w, r, http.StatusBadRequest, st, s.errorText(s.page(r).Lang, err))
		return
	}
	s.afterChange(w, r, st, version)(s.svc.Games.ActOnce(r.Context(), u, st, version, r.PostFormValue("key"), events))
}

// gameAtVersion reads the game of the path and the version the change's form was made on, and loads the game for
// the request's user (club.Games.Load checks who may); on failure it has answered already with fail.
func (s *Server) gameAtVersion(w http.ResponseWriter, r *http.Request, fail func(http.ResponseWriter, *http.Request, error)) (*club.State, int64, bool) {
	id, err := gameID(r)
	var version int64
	if err == nil {
		version, err = formVersion(r)
	}
	var st *club.State
	if err == nil {
		st, err = s.svc.Games.Load(r.Context(), currentUser(r), id)
	}
	if err != nil {
		fail(w, r, err)
		return nil, 0, false
	}
	return st, version, true
}

// failAction answers a refused action: as JSON to the host page's script, as a page to a browser without it.
func (s *Server) failAction(w http.ResponseWriter, r *http.Request, err error) {
	if wantsJSON(r) {
		s.answerJSON(w, r, nil, err)
		return
	}
	s.fail(w, r, err)
}

// sanctionHint tells the host, after a refused second hand in one round, what the rule set gives for voting
// against several candidates (matrix R28): the engine only refuses the vote, the sanction is the host's to give.
func (s *Server) sanctionHint(lang string, st *club.State, err error) string {
	if st == nil || st.Play == nil || !errors.Is(err, mafia.ErrVotedTwice) {
		return ""
	}
	switch st.Play.Rules().WrongVote {
	case mafia.SanctionFoul:
		return " " + s.Catalog.T(lang, "game.wrong_vote_foul")
	case mafia.SanctionDisqualify:
		return " " + s.Catalog.T(lang, "game.wrong_vote_dq")
	}
	return ""
}

// afterChange answers a change: on success the browser is sent back to the game (its new state is durable by
// now); on failure the game is shown again, fresh, with the reason.
func (s *Server) afterChange(w http.ResponseWriter, r *http.Request, old *club.State, version int64) func(*club.State, error) {
	return func(st *club.State, err error) {
		if err == nil {
			s.Live.Publish(st.Game.ID, st.Game.Version)
		} else if st != nil && s.svc.Games.MayView(r.Context(), currentUser(r), st) != nil {
			// an answer to a refused request carries nothing of a game its asker may not see (the services
			// return no such state; this is the second lock on the same door)
			st, old = nil, nil
		}
		if wantsJSON(r) {
			if st == nil {
				st = old
			}
			s.answerJSON(w, r, st, err)
			return
		}
		if err == nil {
			s.redirect(w, r, fmt.Sprintf("/games/%d", st.Game.ID))
			return
		}
		if st == nil {
			st = old
		}
		if st == nil { // refused before the game was loaded for this user (not his table): nothing of it is shown
			s.fail(w, r, err)
			return
		}
		switch club.ErrorCode(err) {
		case club.Rejected, club.Conflict, club.Closed, club.Invalid, club.Forbidden:
			lang := s.page(r).Lang
			s.renderGame(w, r, status(club.ErrorCode(err)), st, s.errorText(lang, err)+s.sanctionHint(lang, st, err))
		default:
			s.fail(w, r, err)
		}
	}
}

func (s *Server) gameUndo(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err != nil {
		s.failAction(w, r, err)
		return
	}
	version, err := formVersion(r)
	if err != nil {
		s.failAction(w, r, err)
		return
	}
	u := currentUser(r)
	if r.PostFormValue("confirm") != "yes" {
		s.failAction(w, r, club.Errorf(club.Invalid, "confirm the undo"))
		return
	}
	s.afterChange(w, r, nil, version)(s.svc.Games.Undo(r.Context(), u, id, version))
}

func (s *Server) gameSave(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	version, err := formVersion(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rated := r.PostFormValue("rated") == "yes"
	s.afterChange(w, r, nil, version)(s.svc.Games.Save(r.Context(), currentUser(r), id, version, rated))
}

func (s *Server) gameReopen(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	version, err := formVersion(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.afterChange(w, r, nil, version)(s.svc.Games.Reopen(r.Context(), currentUser(r), id, version))
}

// gameLive streams a game's new versions (server-sent events), so that a second device reloads when the first
// records something. Only those who may open the game follow it.
func (s *Server) gameLive(w http.ResponseWriter, r *http.Request) {
	st, ok := s.loadGame(w, r)
	if !ok {
		return
	}
	id := st.Game.ID
	if r.Method == http.MethodHead { // the head only: no stream to hold a place for
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		return
	}
	release, err := s.hostStreamSlot(currentUser(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer release()
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	_ = rc.SetReadDeadline(time.Time{}) // the server's read timeout would cancel the stream's request
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if rc.Flush() != nil {
		return
	}
	ch, stop := s.Live.Subscribe(id)
	defer stop()
	tick := time.NewTicker(25 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.streams: // the server shuts down
			return
		case v := <-ch:
			fmt.Fprintf(w, "event: version\ndata: %d\n\n", v)
		case <-tick.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// eventsFromForm turns the action form into record events, as the browser's engine does (hostview reads both).
func eventsFromForm(r *http.Request, st *club.State) ([]record.Event, error) {
	events, err := hostview.EventsFromForm(r.PostForm, st.Play)
	var fe *hostview.FormError
	if errors.As(err, &fe) {
		return nil, club.Errorf(club.Invalid, fe.Format, fe.Args...)
	}
	return events, err
}

// approveExtra records the chief judge's agreement to a winner's 0.6 or 0.7 (§T6.1.3), or the organiser's in the
// place of a chief judge who plays at the table.
func (s *Server) approveExtra(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err == nil {
		seat, _ := strconv.Atoi(r.PostFormValue("seat")) // not a number: 0, which the domain refuses
		err = s.svc.Tournaments.ApproveExtra(r.Context(), currentUser(r), id, seat)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.redirect(w, r, fmt.Sprintf("/games/%d", id))
}
