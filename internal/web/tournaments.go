package web

import (
	"context"
	"fmt"
	"net/http"

	"strconv"
	"strings"

	"mafiaclub/internal/club"
	"mafiaclub/internal/tourney"
	"mafiaclub/mafia"
)

type tournamentsView struct {
	Page
	List  []club.Tournament
	Hosts []club.User
	Rules []*mafia.Rules
	Error string
}

func (s *Server) tournamentsPage(w http.ResponseWriter, r *http.Request) {
	s.renderTournaments(w, r, http.StatusOK, "")
}

func (s *Server) renderTournaments(w http.ResponseWriter, r *http.Request, code int, errText string) {
	p := s.page(r)
	p.Title = p.T("tour.title")
	list, err := s.Store.Tournaments(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := tournamentsView{Page: p, List: list, Rules: mafia.RuleSets(), Error: errText}
	if p.IsAdmin() {
		if v.Hosts, err = s.judges(r.Context()); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	w.WriteHeader(code)
	s.render(w, "tournaments", v)
}

func (s *Server) createTournament(w http.ResponseWriter, r *http.Request) {
	chief, _ := strconv.ParseInt(r.PostFormValue("chief"), 10, 64)
	t := &club.Tournament{Name: r.PostFormValue("name"), StartsOn: r.PostFormValue("from"), EndsOn: r.PostFormValue("to"),
		Place: r.PostFormValue("place"), Rules: r.PostFormValue("rules"), ChiefJudge: chief}
	if err := s.Tours.Create(r.Context(), currentUser(r), t); err != nil {
		if club.ErrorCode(err) == club.Invalid {
			s.renderTournaments(w, r, http.StatusBadRequest, s.errorText(s.page(r).Lang, err))
			return
		}
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/tournaments/%d", t.ID), http.StatusSeeOther)
}

type slotView struct {
	Round, Table int
	Names        []string
	GameID       int64
	Saved        bool
	Judge        string
	CanStart     bool
}

type stageView struct {
	club.Stage
	Slots   []slotView
	Judges  map[int]string
	Quality string
	Lines   []standingLine
}

type standingLine struct {
	tourney.Line
	Name, Points, Extra, Decided string
}

type tournamentView struct {
	Page
	Tour         *club.Tournament
	Participants []club.Participant
	Pending      []club.Participant
	Stages       []stageView
	Overall      []standingLine
	Hosts        []club.User
	Registered   bool
	IsChief      bool
	Error        string
}

func tournamentID(r *http.Request) (int64, error) { return pathID(r, "id", "tournament") }

func (s *Server) tournamentPage(w http.ResponseWriter, r *http.Request) {
	s.renderTournament(w, r, http.StatusOK, "")
}

func (s *Server) standingLines(p Page, lines []tourney.Line, parts map[int64]club.Participant) []standingLine {
	var out []standingLine
	for _, l := range lines {
		sl := standingLine{Line: l, Name: parts[l.Participant].Name, Points: formatPoints(l.Points), Extra: formatPoints(l.Extra)}
		if l.DecidedBy != "" {
			sl.Decided = p.T("tour.step." + string(l.DecidedBy))
		}
		out = append(out, sl)
	}
	return out
}

func (s *Server) renderTournament(w http.ResponseWriter, r *http.Request, code int, errText string) {
	id, err := tournamentID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ctx := r.Context()
	t, err := s.Store.Tournament(ctx, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	p.Title = t.Name
	v := tournamentView{Page: p, Tour: t, Error: errText, IsChief: p.User != nil && p.User.ID == t.ChiefJudge}
	parts, err := s.Store.Participants(ctx, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	byID := map[int64]club.Participant{}
	for _, pt := range parts {
		byID[pt.ID] = pt
		if pt.Approved {
			v.Participants = append(v.Participants, pt)
		} else {
			v.Pending = append(v.Pending, pt)
		}
		if p.User != nil && pt.PlayerID != 0 && pt.PlayerID == p.User.PlayerID {
			v.Registered = true
		}
	}
	stages, err := s.Store.Stages(ctx, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for _, st := range stages {
		sv := stageView{Stage: st, Judges: map[int]string{}}
		judges, err := s.Store.TableJudges(ctx, st.ID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		judgeID := map[int]int64{}
		for _, j := range judges {
			sv.Judges[j.Table], judgeID[j.Table] = j.Name, j.UserID
		}
		games, err := s.Store.Games(ctx, club.GameFilter{StageID: st.ID, Limit: 500})
		if err != nil {
			s.fail(w, r, err)
			return
		}
		type key struct{ r, t int }
		played := map[key]club.Game{}
		for _, g := range games {
			played[key{g.Round, g.TableNo}] = g
		}
		for ri, round := range st.Schedule {
			for ti, seats := range round {
				slot := slotView{Round: ri + 1, Table: ti + 1, Judge: sv.Judges[ti+1]}
				for _, pid := range seats {
					slot.Names = append(slot.Names, byID[pid].Name)
				}
				if g, ok := played[key{ri + 1, ti + 1}]; ok {
					slot.GameID, slot.Saved = g.ID, g.Status == club.GameSaved
				} else if p.User != nil {
					slot.CanStart = p.User.ID == judgeID[ti+1] || p.User.ID == t.ChiefJudge || p.IsAdmin()
				}
				sv.Slots = append(sv.Slots, slot)
			}
		}
		sv.Quality = scheduleQuality(p, st)
		lines, parts, err := s.Tours.Standings(ctx, id, st.Name)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		sv.Lines = s.standingLines(p, lines, parts)
		v.Stages = append(v.Stages, sv)
	}
	lines, partsMap, err := s.Tours.Standings(ctx, id, "")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.Overall = s.standingLines(p, lines, partsMap)
	if p.IsAdmin() {
		if v.Hosts, err = s.judges(ctx); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	w.WriteHeader(code)
	s.render(w, "tournament", v)
}

// judges lists the accounts that may judge a table or be the chief judge: hosts and admins.
func (s *Server) judges(ctx context.Context) ([]club.User, error) {
	users, err := s.Store.Users(ctx)
	var out []club.User
	for _, u := range users {
		if u.Role.Can(club.RoleHost) {
			out = append(out, u)
		}
	}
	return out, err
}

// scheduleQuality states a stage's seating figures: how evenly each player sits at each seat number, and how
// often pairs meet.
func scheduleQuality(p Page, st club.Stage) string {
	seatCount := map[int64]map[int]int{}
	meet := map[[2]int64]int{}
	for _, round := range st.Schedule {
		for _, table := range round {
			for i, a := range table {
				if seatCount[a] == nil {
					seatCount[a] = map[int]int{}
				}
				seatCount[a][i+1]++
				for _, b := range table[i+1:] {
					k := [2]int64{a, b}
					if b < a {
						k = [2]int64{b, a}
					}
					meet[k]++
				}
			}
		}
	}
	spread := 0
	for _, counts := range seatCount {
		lo, hi := 1<<30, 0
		for seat := 1; seat <= st.PerTable; seat++ {
			lo, hi = min(lo, counts[seat]), max(hi, counts[seat])
		}
		spread = max(spread, hi-lo)
	}
	most, twice := 0, 0
	for _, m := range meet {
		most = max(most, m)
		if m >= 2 {
			twice++
		}
	}
	return p.T("tour.quality", spread, most, twice, st.Seed)
}

// tournamentAction runs an organiser's or a member's action and shows the tournament again.
func (s *Server) tournamentAction(w http.ResponseWriter, r *http.Request) {
	id, err := tournamentID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	u := currentUser(r)
	ctx := r.Context()
	// the form's numbers: an empty field is 0 (no top cut); anything else must be a whole number
	for _, name := range []string{"participant", "rounds", "top", "stage", "table", "user", "seed", "round", "a", "b"} {
		if v := strings.TrimSpace(r.PostFormValue(name)); v != "" {
			if _, perr := strconv.ParseInt(v, 10, 64); perr != nil {
				s.renderTournament(w, r, http.StatusBadRequest, s.errorText(s.page(r).Lang, club.Errorf(club.Invalid, "%s must be a whole number", name)))
				return
			}
		}
	}
	num := func(name string) int64 {
		v, _ := strconv.ParseInt(strings.TrimSpace(r.PostFormValue(name)), 10, 64)
		return v
	}
	switch r.PathValue("action") {
	case "participants":
		_, err = s.Tours.AddParticipant(ctx, u, id, r.PostFormValue("name"))
	case "register":
		_, err = s.Tours.Register(ctx, u, id)
	case "approve":
		err = s.Tours.Approve(ctx, u, num("participant"))
	case "stages":
		var apart [][2]string
		for _, pair := range strings.Split(r.PostFormValue("apart"), ",") {
			if a, b, ok := strings.Cut(pair, "-"); ok {
				apart = append(apart, [2]string{a, b})
			} else if strings.TrimSpace(pair) != "" {
				err = club.Errorf(club.Invalid, "pairs to keep apart: like Joker-Dana, Emil-Iris")
			}
		}
		if err == nil {
			_, _, err = s.Tours.AddStage(ctx, u, id, r.PostFormValue("name"), int(num("rounds")), int(num("top")), apart)
		}
	case "judge":
		err = s.Tours.SetJudge(ctx, u, num("stage"), int(num("table")), num("user"))
	case "reseat":
		err = s.Tours.Reseat(ctx, u, num("stage"), num("seed"))
	case "swap":
		err = s.Tours.Swap(ctx, u, num("stage"), int(num("round")), num("a"), num("b"))
	case "start":
		var g *club.Game
		g, err = s.Tours.StartGame(ctx, u, num("stage"), int(num("round")), int(num("table")), nil)
		if err == nil {
			http.Redirect(w, r, fmt.Sprintf("/games/%d", g.ID), http.StatusSeeOther)
			return
		}
	default:
		err = club.Errorf(club.NotFound, "no such action")
	}
	switch club.ErrorCode(err) {
	case "":
		http.Redirect(w, r, fmt.Sprintf("/tournaments/%d", id), http.StatusSeeOther)
	case club.Invalid, club.Conflict:
		s.renderTournament(w, r, status(club.ErrorCode(err)), s.errorText(s.page(r).Lang, err))
	default:
		s.fail(w, r, err)
	}
}

// tournamentCSV exports the standings (a stage's with ?stage=).
func (s *Server) tournamentCSV(w http.ResponseWriter, r *http.Request) {
	id, err := tournamentID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	lines, parts, err := s.Tours.Standings(r.Context(), id, r.URL.Query().Get("stage"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="tournament-%d.csv"`, id))
	data := tourney.CSV(lines)
	// the participants' names follow the ids, in the same order
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		if i == 0 {
			b.WriteString(line + ",name\n")
			continue
		}
		b.WriteString(line + "," + csvSafe(strings.ReplaceAll(parts[lines[i-1].Participant].Name, ",", " ")) + "\n")
	}
	w.Write([]byte(b.String()))
}

// fileProtest files a player's protest about a saved tournament game.
func (s *Server) fileProtest(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err == nil {
		_, err = s.Tours.FileProtest(r.Context(), currentUser(r), id, r.PostFormValue("matter"), r.PostFormValue("text"))
	}
	s.backToRecord(w, r, id, err)
}

// decideProtest records the chief judge's decision.
func (s *Server) decideProtest(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err == nil {
		var pid int64
		if pid, err = pathID(r, "pid", "protest"); err == nil {
			err = s.Tours.DecideProtest(r.Context(), currentUser(r), id, pid, r.PostFormValue("upheld") == "yes", r.PostFormValue("reason"))
		}
	}
	s.backToRecord(w, r, id, err)
}

func (s *Server) backToRecord(w http.ResponseWriter, r *http.Request, id int64, err error) {
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/history/%d", id), http.StatusSeeOther)
}
