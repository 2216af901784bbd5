package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
)

// seatsView is the page that corrects a live game's seats: a mistyped card or name (issue 24, item 5). The host
// fills in the form, the server checks the correction with the engine and shows what it changes, and only the
// host's confirmation applies it.
type seatsView struct {
	Page
	Game    *club.Game
	Version int64
	Seats   []seatRow
	Reason  string
	Error   string
	// Confirm is the confirmation step: Changes say what the correction changes, Cards and Names which seats'.
	Confirm      bool
	Changes      []string
	Cards, Names string
	// CardsFixed: the server dealt the cards, only the names may be corrected; NamesFixed: a tournament game,
	// only the cards.
	CardsFixed, NamesFixed bool
}

type seatRow struct {
	N           int
	Name, Role  string
	Guest       bool
	RoleChoices []string
}

// seatsForm shows the game's seats as they are, to be corrected.
func (s *Server) seatsForm(w http.ResponseWriter, r *http.Request) {
	st, ok := s.loadGame(w, r)
	if !ok {
		return
	}
	if st.Game.Status != club.GameLive {
		s.fail(w, r, club.Errorf(club.Closed, "the game is saved; an admin may reopen it"))
		return
	}
	guests, err := s.svc.Games.ChosenGuests(r.Context(), currentUser(r), st)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := s.newSeatsView(r, st.Game)
	for i, seat := range st.Game.Seats {
		v.Seats[i].Name, v.Seats[i].Role, v.Seats[i].Guest = seat.Name, seat.Role, guests[i]
	}
	s.renderSeats(w, http.StatusOK, v)
}

func (s *Server) newSeatsView(r *http.Request, g *club.Game) seatsView {
	p := s.page(r)
	p.Title = p.T("seats.title", g.ID)
	v := seatsView{Page: p, Game: g, Version: g.Version, CardsFixed: g.Dealt, NamesFixed: g.StageID != 0}
	var choices []string
	if rs, ok := mafia.RuleSet(g.Rules); ok {
		for _, role := range rs.Roles() {
			choices = append(choices, role.String())
		}
	}
	v.Seats = make([]seatRow, len(g.Seats))
	for i := range v.Seats {
		v.Seats[i] = seatRow{N: i + 1, RoleChoices: choices}
	}
	return v
}

func (s *Server) renderSeats(w http.ResponseWriter, code int, v seatsView) {
	w.Header().Set("Cache-Control", "no-store") // the cards of a game in progress
	w.WriteHeader(code)
	s.render(w, "seats", v)
}

// correctSeats reads the corrected seats: the first post shows what the correction changes (the engine has
// checked it), the second, with confirm=yes, applies it; a refusal shows the form again with the reason.
func (s *Server) correctSeats(w http.ResponseWriter, r *http.Request) {
	st, version, ok := s.gameAtVersion(w, r, s.fail)
	if !ok {
		return
	}
	u, id := currentUser(r), st.Game.ID
	v := s.newSeatsView(r, st.Game)
	v.Version, v.Reason = version, strings.TrimSpace(r.PostFormValue("reason"))
	fixes := make([]club.SeatFix, len(v.Seats))
	for i := range v.Seats {
		k := strconv.Itoa(i + 1)
		row := &v.Seats[i]
		row.Name, row.Role, row.Guest = strings.TrimSpace(r.PostFormValue("name"+k)), r.PostFormValue("role"+k), r.PostFormValue("guest"+k) == "on"
		fixes[i] = club.SeatFix{Name: row.Name, Role: row.Role, Guest: row.Guest}
	}
	if r.PostFormValue("edit") != "" { // back from the confirmation to the form, as filled in
		s.renderSeats(w, http.StatusOK, v)
		return
	}
	if r.PostFormValue("confirm") == "yes" {
		st, err := s.svc.Games.CorrectSeats(r.Context(), u, id, version, fixes, v.Reason)
		if err == nil {
			s.Live.Publish(st.Game.ID, st.Game.Version) // the host's other devices reload, the live pages follow
			s.redirect(w, r, fmt.Sprintf("/games/%d", id))
			return
		}
		s.refuseSeats(w, r, v, st, err)
		return
	}
	fresh, c, err := s.svc.Games.PlanSeats(r.Context(), u, id, version, fixes, v.Reason)
	if err != nil {
		s.refuseSeats(w, r, v, fresh, err)
		return
	}
	v.Confirm = true
	var cards, names []string
	for _, ch := range c.Changes {
		if ch.Role() {
			cards = append(cards, "#"+strconv.Itoa(ch.Seat))
		}
		if ch.Name() {
			names = append(names, "#"+strconv.Itoa(ch.Seat))
		}
	}
	v.Cards, v.Names = strings.Join(cards, ", "), strings.Join(names, ", ")
	v.Changes = s.changeLines(v.Page, c)
	s.renderSeats(w, http.StatusOK, v)
}

// refuseSeats shows the form again, as the host filled it in, with why the correction was refused. A game
// changed since the form was drawn gets the fresh version: the host checks and sends it again. A refusal of the
// game itself (not his table, not live) is an error page.
func (s *Server) refuseSeats(w http.ResponseWriter, r *http.Request, v seatsView, st *club.State, err error) {
	switch club.ErrorCode(err) {
	case club.Invalid, club.Rejected, club.Conflict:
	default:
		s.fail(w, r, err)
		return
	}
	if st != nil && club.ErrorCode(err) == club.Conflict {
		v.Game, v.Version = st.Game, st.Game.Version
	}
	v.Error = s.seatsErrorText(v.Page, st, err)
	s.renderSeats(w, status(club.ErrorCode(err)), v)
}

// seatsErrorText says why a correction was refused; a correction that breaks the log names the event it makes
// impossible as the chronology says it, with the rule.
func (s *Server) seatsErrorText(p Page, st *club.State, err error) string {
	var be *club.BrokenEvent
	if errors.Is(err, club.ErrRoles) && st != nil {
		if rs, ok := mafia.RuleSet(st.Game.Rules); ok {
			return p.T("error.invalid", s.roleError(p, rs, len(st.Game.Seats), err))
		}
	}
	if !errors.As(err, &be) {
		return s.errorText(p.Lang, err)
	}
	what := s.describe(p, be.Event, "")
	if st != nil {
		if lines := s.chronology(p, st); be.Index >= 1 && be.Index <= len(lines) {
			what = lines[be.Index-1].Text
		}
	}
	why := be.Err.Error()
	if re := club.RuleError(be.Err); re != nil {
		why = s.ruleText(p.Lang, be.Err, re)
	}
	return p.T("seats.broken", be.Index, what, why)
}

// changeLines says each change of a correction: "#3: citizen → don", "#5: «Alpha» → «Alfa» (club player)".
func (s *Server) changeLines(p Page, c *club.Correction) []string {
	var out []string
	for _, ch := range c.Changes {
		if ch.Role() {
			out = append(out, p.T("seats.change_card", ch.Seat, p.T("role."+ch.FromRole), p.T("role."+ch.ToRole)))
		}
		if ch.Name() {
			who := p.T("seats.now_guest")
			if ch.ToPlayer != 0 {
				who = p.T("seats.now_player")
			}
			out = append(out, p.T("seats.change_name", ch.Seat, ch.FromName, ch.ToName, who))
		}
	}
	return out
}

// correctionLine is the chronology's line of a correction of the seats (its audit entry's detail).
func (s *Server) correctionLine(p Page, detail string) string {
	c, err := club.ParseCorrection(detail)
	if err != nil {
		return p.T("audit.correct_seats", detail, "")
	}
	return p.T("audit.correct_seats", strings.Join(s.changeLines(p, c), "; "), c.Reason)
}
