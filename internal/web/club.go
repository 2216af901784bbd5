package web

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
)

// ratingFilter reads the season from the query: from and to are dates (YYYY-MM-DD) in the club's time zone; to is
// inclusive.
func (s *Server) ratingFilter(r *http.Request) (club.RatingFilter, string, string, error) {
	var f club.RatingFilter
	from, to := r.URL.Query().Get("from"), r.URL.Query().Get("to")
	if from != "" {
		t, err := time.ParseInLocation("2006-01-02", from, s.Zone)
		if err != nil {
			return f, from, to, club.Errorf(club.Invalid, "from: a date like 2026-09-01")
		}
		f.From = t
	}
	if to != "" {
		t, err := time.ParseInLocation("2006-01-02", to, s.Zone)
		if err != nil {
			return f, from, to, club.Errorf(club.Invalid, "to: a date like 2027-05-31")
		}
		f.To = t.AddDate(0, 0, 1)
	}
	return f, from, to, nil
}

func (s *Server) standings(r *http.Request) ([]club.Standing, string, string, error) {
	f, from, to, err := s.ratingFilter(r)
	if err != nil {
		return nil, from, to, err
	}
	list, err := s.Store.Standings(r.Context(), f)
	if err != nil {
		return nil, from, to, err
	}
	club.SortStandings(list)
	return list, from, to, nil
}

type ratingRow struct {
	club.Standing
	WinRate, Average, Total string
	Roles                   []string
}

type ratingView struct {
	Page
	From, To, Query string
	Rows            []ratingRow
	RoleNames       []string
}

func (s *Server) ratingPage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("rating.title")
	list, from, to, err := s.standings(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := ratingView{Page: p, From: from, To: to, Query: r.URL.RawQuery}
	for _, role := range club.RatingRoles {
		v.RoleNames = append(v.RoleNames, p.T("role."+role))
	}
	for _, st := range list {
		row := ratingRow{Standing: st, WinRate: fmt.Sprintf("%.0f%%", st.WinRate()), Average: formatPoints(st.Average()), Total: formatPoints(st.Points)}
		for _, rs := range st.ByRole {
			row.Roles = append(row.Roles, fmt.Sprintf("%d/%d · %s", rs.Wins, rs.Games, formatPoints(rs.Points)))
		}
		v.Rows = append(v.Rows, row)
	}
	s.render(w, "rating", v)
}

// ratingCSV exports the standings: one line per player, points as decimals.
func (s *Server) ratingCSV(w http.ResponseWriter, r *http.Request) {
	list, _, _, err := s.standings(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="rating.csv"`)
	cw := csv.NewWriter(w)
	head := []string{"rank", "nickname", "games", "wins", "win_rate", "points", "average"}
	for _, role := range club.RatingRoles {
		head = append(head, role+"_games", role+"_wins", role+"_points")
	}
	cw.Write(head)
	for _, st := range list {
		line := []string{strconv.Itoa(st.Rank), csvSafe(st.Nick), strconv.Itoa(st.Games), strconv.Itoa(st.Wins),
			fmt.Sprintf("%.1f", st.WinRate()), formatPoints(st.Points), formatPoints(st.Average())}
		for _, rs := range st.ByRole {
			line = append(line, strconv.Itoa(rs.Games), strconv.Itoa(rs.Wins), formatPoints(rs.Points))
		}
		cw.Write(line)
	}
	cw.Flush()
}

// csvSafe keeps a spreadsheet from reading a nickname as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

type jsonStanding struct {
	Rank     int                       `json:"rank"`
	PlayerID int64                     `json:"player"`
	Nick     string                    `json:"nickname"`
	Games    int                       `json:"games"`
	Wins     int                       `json:"wins"`
	Points   json.Number               `json:"points"`
	Average  json.Number               `json:"average"`
	ByRole   map[string]map[string]any `json:"by_role"`
}

func (s *Server) apiStandings(w http.ResponseWriter, r *http.Request) {
	list, _, _, err := s.standings(r)
	if err != nil {
		writeJSONError(w, err)
		return
	}
	out := []jsonStanding{}
	for _, st := range list {
		js := jsonStanding{Rank: st.Rank, PlayerID: st.PlayerID, Nick: st.Nick, Games: st.Games, Wins: st.Wins,
			Points: json.Number(formatPoints(st.Points)), Average: json.Number(formatPoints(st.Average())), ByRole: map[string]map[string]any{}}
		for i, role := range club.RatingRoles {
			rs := st.ByRole[i]
			js.ByRole[role] = map[string]any{"games": rs.Games, "wins": rs.Wins, "points": json.Number(formatPoints(rs.Points))}
		}
		out = append(out, js)
	}
	writeJSON(w, out)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.Encode(v)
}

func writeJSONError(w http.ResponseWriter, err error) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status(club.ErrorCode(err)))
	msg := "internal error"
	var ce *club.Error
	if e, ok := err.(*club.Error); ok && e.Code != club.Internal {
		ce = e
		msg = ce.Message
	}
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

type playerGame struct {
	club.GameResult
	Date, Role, Points string
	Rated              bool
}

type playerView struct {
	Page
	Player  *club.Player
	Rated   club.Standing
	Roles   []ratingRow
	Games   []playerGame
	Chart   chart
	Average string
}

func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "player")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	pl, err := s.Store.Player(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.Store.PlayerResults(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	p.Title = pl.Nick
	v := playerView{Page: p, Player: &club.Player{ID: pl.ID, Nick: pl.Nick, HasPhoto: pl.HasPhoto}} // the public page shows no real name
	var total club.Standing
	var points []int
	var dates []time.Time
	for _, gr := range res {
		v.Games = append(v.Games, playerGame{GameResult: gr, Date: p.Time(gr.PlayedAt), Role: p.T("role." + gr.Role),
			Points: formatPoints(gr.Points), Rated: gr.Rated})
		if !gr.Rated {
			continue
		}
		total.Games++
		total.Points += gr.Points
		i := club.RoleIndex(gr.Role)
		if gr.Won {
			total.Wins++
		}
		if i >= 0 {
			total.ByRole[i].Games++
			total.ByRole[i].Points += gr.Points
			if gr.Won {
				total.ByRole[i].Wins++
			}
		}
		points = append(points, total.Points)
		dates = append(dates, gr.PlayedAt)
	}
	v.Rated = total
	v.Average = formatPoints(total.Average())
	for i, role := range club.RatingRoles {
		rs := total.ByRole[i]
		v.Roles = append(v.Roles, ratingRow{Standing: club.Standing{Nick: p.T("role." + role), Games: rs.Games, Wins: rs.Wins, Points: rs.Points},
			Total: formatPoints(rs.Points), WinRate: winRate(rs.Wins, rs.Games)})
	}
	// newest first in the list
	for i, j := 0, len(v.Games)-1; i < j; i, j = i+1, j-1 {
		v.Games[i], v.Games[j] = v.Games[j], v.Games[i]
	}
	v.Chart = pointsChart(points, dates, s.Zone)
	s.render(w, "player", v)
}

func winRate(wins, games int) string {
	if games == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(wins)/float64(games))
}

type historyView struct {
	Page
	Games             []club.Game
	Rules             []*mafia.Rules
	RulesID, From, To string
	Player            string
}

func (s *Server) historyPage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("history.title")
	q := r.URL.Query()
	f := club.GameFilter{Status: club.GameSaved, Rules: q.Get("rules"), Limit: 200}
	if d := q.Get("from"); d != "" {
		t, err := time.ParseInLocation("2006-01-02", d, s.Zone)
		if err != nil {
			s.fail(w, r, club.Errorf(club.Invalid, "from: a date like 2026-09-01"))
			return
		}
		f.From = t
	}
	if d := q.Get("to"); d != "" {
		t, err := time.ParseInLocation("2006-01-02", d, s.Zone)
		if err != nil {
			s.fail(w, r, club.Errorf(club.Invalid, "to: a date like 2027-05-31"))
			return
		}
		f.To = t.AddDate(0, 0, 1)
	}
	if pid, err := strconv.ParseInt(q.Get("player"), 10, 64); err == nil {
		f.PlayerID = pid
	}
	games, err := s.Store.Games(r.Context(), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, "history", historyView{Page: p, Games: games, Rules: mafia.RuleSets(), RulesID: f.Rules, From: q.Get("from"), To: q.Get("to"), Player: q.Get("player")})
}
