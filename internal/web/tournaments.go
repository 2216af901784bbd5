package web

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"html/template"
	"net/http"

	"strconv"
	"strings"
	"sync"

	"mafiaclub/internal/club"
	"mafiaclub/internal/seating"
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
	list, err := s.svc.Tournaments.List(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := tournamentsView{Page: p, List: list, Rules: mafia.RuleSets(), Error: errText}
	if p.IsAdmin() {
		if v.Hosts, err = s.svc.Accounts.Hosts(r.Context(), p.User); err != nil {
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
	if err := s.svc.Tournaments.Create(r.Context(), currentUser(r), t); err != nil {
		if club.ErrorCode(err) == club.Invalid {
			s.renderTournaments(w, r, http.StatusBadRequest, s.errorText(s.page(r).Lang, err))
			return
		}
		s.fail(w, r, err)
		return
	}
	s.redirect(w, r, fmt.Sprintf("/tournaments/%d", t.ID))
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
	SitOuts []sitOutView
	Judges  map[int]string
	Quality []string // the generator's figures, a line each
	Unequal string   // why the players cannot all play the same number of games, "" when they do
	Lines   []standingLine
}

// sitOutView is a round's players who sit it out.
type sitOutView struct {
	Round int
	Names []string
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
	Report       []lineView // what became of each line of a pasted list
	TableSizes   []int      // the table sizes the rule set allows
	Seated       map[int64]bool
	// Body is the whole page below the menu, when it was drawn before (a public reader's page: bodyCache).
	Body template.HTML
}

// lineView is one line of a pasted list's report.
type lineView struct {
	Line    int
	Name    string
	Outcome string // the catalogue's words
	Added   bool
}

func tournamentID(r *http.Request) (int64, error) { return pathID(r, "id", "tournament") }

func (s *Server) tournamentPage(w http.ResponseWriter, r *http.Request) {
	s.renderTournament(w, r, http.StatusOK, "")
}

// participantName is a participant's name in the standings: a substitute says whom he replaced, a player who left
// says who took his place.
func participantName(p Page, id int64, parts map[int64]club.Participant) string {
	pt := parts[id]
	switch {
	case pt.Replaces != 0:
		return p.T("tour.substitute_for", pt.Name, parts[pt.Replaces].Name)
	case pt.Left:
		for _, other := range parts {
			if other.Replaces == id {
				return p.T("tour.left_replaced", pt.Name, other.Name)
			}
		}
		return p.T("tour.left", pt.Name)
	}
	return pt.Name
}

func (s *Server) standingLines(p Page, lines []tourney.Line, parts map[int64]club.Participant) []standingLine {
	var out []standingLine
	for _, l := range lines {
		sl := standingLine{Line: l, Name: participantName(p, l.Participant, parts), Points: p.PointsText(l.Points), Extra: p.PointsText(l.Extra)}
		if l.DecidedBy != "" {
			sl.Decided = p.T("tour.step." + string(l.DecidedBy))
		}
		out = append(out, sl)
	}
	return out
}

func (s *Server) renderTournament(w http.ResponseWriter, r *http.Request, code int, errText string) {
	s.renderTournamentWith(w, r, code, errText, nil)
}

func (s *Server) renderTournamentWith(w http.ResponseWriter, r *http.Request, code int, errText string, report []club.LineReport) {
	id, err := tournamentID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ctx := r.Context()
	p := s.page(r)
	// A public reader's page (no account, no form answered) is the same for everyone who reads the same
	// tournament as it stands (its stamp: one read of every row its overview is made of) in the same language:
	// drawn once, kept. The stamp is read before the overview, so that a kept page is never older than its key.
	public := ""
	if p.User == nil && errText == "" && report == nil && code == http.StatusOK {
		if stamp, err := s.svc.Tournaments.Stamp(ctx, id); err == nil {
			public = "tournament\x00" + p.Lang + "\x00" + stamp
			if title, body, ok := s.bodies.get(public); ok {
				p.Title = title
				s.render(w, "tournament", tournamentView{Page: p, Body: body})
				return
			}
		}
	}
	o, err := s.svc.Tournaments.Overview(ctx, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	t := o.Tournament
	p.Title = t.Name
	v := tournamentView{Page: p, Tour: t, Error: errText, IsChief: p.User != nil && p.User.ID == t.ChiefJudge, Seated: map[int64]bool{}}
	for _, l := range report {
		lv := lineView{Line: l.Line, Name: l.Name, Outcome: p.T("tour.line." + string(l.Outcome)), Added: l.Added()}
		if l.Err != nil {
			lv.Outcome = s.messageText(p.Lang, l.Err)
		}
		v.Report = append(v.Report, lv)
	}
	lo, hi := club.TableSizes(t.Rules)
	for k := hi; k >= lo; k-- {
		v.TableSizes = append(v.TableSizes, k)
	}
	byID := map[int64]club.Participant{}
	for _, pt := range o.Participants {
		byID[pt.ID] = pt
		if pt.Approved && !pt.Left {
			v.Participants = append(v.Participants, pt)
		} else {
			v.Pending = append(v.Pending, pt)
		}
		if p.User != nil && pt.PlayerID != 0 && pt.PlayerID == p.User.PlayerID {
			v.Registered = true
		}
	}
	for _, so := range o.Stages {
		st := so.Stage
		sv := stageView{Stage: st, Judges: map[int]string{}}
		for _, id := range st.Players {
			v.Seated[id] = true
		}
		for _, j := range so.Judges {
			sv.Judges[j.Table] = j.Name
		}
		type key struct{ r, t int }
		played := map[key]club.Game{}
		for _, g := range so.Games {
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
				} else {
					slot.CanStart = club.CanHost(p.User, t, so.JudgeOf(ti+1))
				}
				sv.Slots = append(sv.Slots, slot)
			}
		}
		for ri := range st.Schedule {
			if out := st.SitsOut(ri + 1); len(out) > 0 {
				so := sitOutView{Round: ri + 1}
				for _, pid := range out {
					so.Names = append(so.Names, byID[pid].Name)
				}
				sv.SitOuts = append(sv.SitOuts, so)
			}
		}
		if so.Quality != nil {
			sv.Quality, sv.Unequal = qualityLines(p, st, *so.Quality)
		}
		v.Stages = append(v.Stages, sv)
	}
	std, err := s.tournamentStandings(r, p, o)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for i := range v.Stages {
		v.Stages[i].Lines = std.stages[i]
	}
	v.Overall = std.overall
	if p.IsAdmin() {
		if v.Hosts, err = s.svc.Accounts.Hosts(ctx, p.User); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if public != "" {
		var buf bytes.Buffer
		if err := s.pages["tournament"].ExecuteTemplate(&buf, "tournament_body", v); err != nil {
			s.fail(w, r, err)
			return
		}
		v.Body = template.HTML(buf.String())
		s.bodies.put(public, p.Title, v.Body)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8") // before the status: the page is compressed by its type
	w.WriteHeader(code)
	s.render(w, "tournament", v)
}

// qualityLines says the seating generator's figures of a stage, each against the best any schedule of its size
// can do, and, when the players cannot all play the same number of games, why.
func qualityLines(p Page, st club.Stage, q seating.Quality) (lines []string, unequal string) {
	if q.Equal() {
		lines = append(lines, p.T("tour.q_games_equal", q.GamesMax))
	} else {
		lines = append(lines, p.T("tour.q_games_range", q.GamesMin, q.GamesMax))
		if !q.EqualPossible {
			unequal = p.T("tour.q_unequal", len(q.Games), st.Tables(), st.PerTable, st.Rounds)
		} else {
			unequal = p.T("tour.q_unequal_swaps")
		}
	}
	if q.SitOutsMax > 0 {
		lines = append(lines, p.N("tour.q_sitouts.n", q.SitOutsMax, q.SitOutsMin))
	}
	lines = append(lines,
		p.N("tour.q_seats.n", q.SeatMax, q.SeatBound),
		p.N("tour.q_tables.n", q.TableMax, q.TableBound),
		p.N("tour.q_meet.n", q.MeetMax, q.MeetBound, q.Repeats()),
		p.T("tour.q_seed", st.Seed))
	return lines, unequal
}

// tourForm is a tournament action's form, its numbers read: an empty field is 0 (no top cut); anything else must
// be a whole number.
type tourForm struct {
	Name, Apart, List, Substitute        string
	Participant, Stage, User, Seed, A, B int64
	Rounds, Top, Table, Round            int
	PerTable, Tables                     int
}

func parseTourForm(r *http.Request) (tourForm, error) {
	f := tourForm{Name: r.PostFormValue("name"), Apart: r.PostFormValue("apart"), List: r.PostFormValue("list"),
		Substitute: r.PostFormValue("substitute")}
	for name, dst := range map[string]*int64{"participant": &f.Participant, "stage": &f.Stage, "user": &f.User, "seed": &f.Seed, "a": &f.A, "b": &f.B} {
		if v := strings.TrimSpace(r.PostFormValue(name)); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return f, club.Errorf(club.Invalid, "%s must be a whole number", name)
			}
			*dst = n
		}
	}
	for name, dst := range map[string]*int{"rounds": &f.Rounds, "top": &f.Top, "table": &f.Table, "round": &f.Round,
		"per_table": &f.PerTable, "tables": &f.Tables} {
		if v := strings.TrimSpace(r.PostFormValue(name)); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return f, club.Errorf(club.Invalid, "%s must be a whole number", name)
			}
			*dst = n
		}
	}
	return f, nil
}

// pairs reads the pairs to keep apart: "Joker-Dana, Emil-Iris".
func (f tourForm) pairs() ([][2]string, error) {
	var apart [][2]string
	for _, pair := range strings.Split(f.Apart, ",") {
		if a, b, ok := strings.Cut(pair, "-"); ok {
			apart = append(apart, [2]string{a, b})
		} else if strings.TrimSpace(pair) != "" {
			return nil, club.Errorf(club.Invalid, "pairs to keep apart: like Joker-Dana, Emil-Iris")
		}
	}
	return apart, nil
}

// tournamentAction runs an organiser's or a member's action on the tournament of the path (and on nothing of
// another tournament: the services check that the stage or participant is this tournament's), and shows the
// tournament again.
func (s *Server) tournamentAction(w http.ResponseWriter, r *http.Request) {
	id, err := tournamentID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	u := currentUser(r)
	ctx := r.Context()
	f, err := parseTourForm(r)
	if err != nil {
		s.renderTournament(w, r, http.StatusBadRequest, s.errorText(s.page(r).Lang, err))
		return
	}
	tours := s.svc.Tournaments
	switch r.PathValue("action") {
	case "participants":
		_, err = tours.AddParticipant(ctx, u, id, f.Name)
	case "bulk":
		var report []club.LineReport
		if report, err = tours.AddParticipants(ctx, u, id, f.List); err == nil {
			s.renderTournamentWith(w, r, http.StatusOK, "", report)
			return
		}
	case "remove":
		err = tours.RemoveParticipant(ctx, u, id, f.Participant)
	case "replace":
		_, err = tours.Replace(ctx, u, id, f.Participant, f.Substitute)
	case "register":
		_, err = tours.Register(ctx, u, id)
	case "approve":
		err = tours.Approve(ctx, u, id, f.Participant)
	case "stages":
		var apart [][2]string
		if apart, err = f.pairs(); err == nil {
			_, _, err = tours.AddStage(ctx, u, id, club.StageForm{Name: f.Name, Rounds: f.Rounds, Top: f.Top,
				PerTable: f.PerTable, Tables: f.Tables, Apart: apart})
		}
	case "judge":
		err = tours.SetJudge(ctx, u, id, f.Stage, f.Table, f.User)
	case "reseat":
		err = tours.Reseat(ctx, u, id, f.Stage, f.Seed)
	case "swap":
		err = tours.Swap(ctx, u, id, f.Stage, f.Round, f.A, f.B)
	case "start":
		var g *club.Game
		g, err = tours.StartGame(ctx, u, id, f.Stage, f.Round, f.Table, nil)
		if err == nil {
			s.Live.Publish(g.ID, g.Version) // the live pages list it
			s.redirect(w, r, fmt.Sprintf("/games/%d", g.ID))
			return
		}
	default:
		err = club.Errorf(club.NotFound, "no such action")
	}
	switch club.ErrorCode(err) {
	case "":
		s.redirect(w, r, fmt.Sprintf("/tournaments/%d", id))
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
	lines, parts, err := s.svc.Tournaments.Standings(r.Context(), id, r.URL.Query().Get("stage"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="tournament-%d.csv"`, id))
	cw := newCSV(w)
	writeCSVLine(cw, append(tourney.CSVHeader(), "name"))
	p := s.page(r)
	for _, l := range lines {
		writeCSVLine(cw, append(tourney.CSVRecord(l), participantName(p, l.Participant, parts)))
	}
	cw.Flush()
}

// fileProtest files a player's protest about a saved tournament game.
func (s *Server) fileProtest(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err == nil {
		_, err = s.svc.Tournaments.FileProtest(r.Context(), currentUser(r), id, r.PostFormValue("matter"), r.PostFormValue("text"))
	}
	s.backToRecord(w, r, id, err)
}

// decideProtest records the chief judge's decision.
func (s *Server) decideProtest(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err == nil {
		var pid int64
		if pid, err = pathID(r, "pid", "protest"); err == nil {
			err = s.svc.Tournaments.DecideProtest(r.Context(), currentUser(r), id, pid, r.PostFormValue("upheld") == "yes", r.PostFormValue("reason"))
		}
	}
	s.backToRecord(w, r, id, err)
}

func (s *Server) backToRecord(w http.ResponseWriter, r *http.Request, id int64, err error) {
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.redirect(w, r, fmt.Sprintf("/history/%d", id))
}

// drawnStandings are a tournament's standings as its page shows them: each stage's, in the overview's order, and
// the whole tournament's.
type drawnStandings struct {
	stages  [][]standingLine
	overall []standingLine
}

// tourCache keeps drawn standings by what they are made of (standingsKey): every stage's standings replay
// each saved game of the tournament, a few milliseconds a page, the same for every reader until one of those
// games, the seating, the participants or the lot changes. At most maxStandings are kept; when full, all go.
type tourCache struct {
	mu sync.Mutex
	m  map[string]*drawnStandings
}

// bodyCache keeps pages drawn for public readers (everything below the menu), each by a key that names all it
// was drawn from: a tournament's page, a club game's. At most maxBodies (a page is 5-40 KB: 10 MB at most); when
// full, all go.
type bodyCache struct {
	mu sync.Mutex
	m  map[string]keptBody
}

type keptBody struct {
	title string
	body  template.HTML
}

const maxBodies = 256

// get returns a kept page's title and body.
func (c *bodyCache) get(key string) (string, template.HTML, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[key]
	return b.title, b.body, ok
}

func (c *bodyCache) put(key, title string, body template.HTML) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxBodies {
		c.m = map[string]keptBody{}
	}
	c.m[key] = keptBody{title, body}
}

const maxStandings = 64

// tournamentStandings gives the page's standings, drawn once for what they are made of in the page's language.
func (s *Server) tournamentStandings(r *http.Request, p Page, o *club.Overview) (*drawnStandings, error) {
	key := standingsKey(p.Lang, o)
	s.tourLines.mu.Lock()
	d := s.tourLines.m[key]
	s.tourLines.mu.Unlock()
	if d != nil {
		return d, nil
	}
	d = &drawnStandings{}
	id := o.Tournament.ID
	for _, so := range o.Stages {
		lines, parts, err := s.svc.Tournaments.Standings(r.Context(), id, so.Name)
		if err != nil {
			return nil, err
		}
		d.stages = append(d.stages, s.standingLines(p, lines, parts))
	}
	lines, parts, err := s.svc.Tournaments.Standings(r.Context(), id, "")
	if err != nil {
		return nil, err
	}
	d.overall = s.standingLines(p, lines, parts)
	s.tourLines.mu.Lock()
	if s.tourLines.m == nil || len(s.tourLines.m) >= maxStandings {
		s.tourLines.m = map[string]*drawnStandings{}
	}
	s.tourLines.m[key] = d
	s.tourLines.mu.Unlock()
	return d, nil
}

// standingsKey names everything a tournament's standings are drawn from: the language, the lot's seed, the
// participants (their names, approvals, substitutes), each stage's name and seating, and each of its games with
// its version and status (a saved, reopened or corrected game, a judge's extra points, each raise the version).
func standingsKey(lang string, o *club.Overview) string {
	h := sha256.New()
	t := o.Tournament
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00", lang, t.ID, t.LotSeed)
	for _, pt := range o.Participants {
		fmt.Fprintf(h, "p%d,%d,%q,%t,%d,%t\x00", pt.ID, pt.PlayerID, pt.Name, pt.Approved, pt.Replaces, pt.Left)
	}
	for _, so := range o.Stages {
		fmt.Fprintf(h, "s%d,%q,%v,%v\x00", so.ID, so.Name, so.Schedule, so.SitOut)
		for _, g := range so.Games {
			fmt.Fprintf(h, "g%d,%d,%s,%d,%d\x00", g.ID, g.Version, g.Status, g.Round, g.TableNo)
		}
	}
	return string(h.Sum(nil))
}
