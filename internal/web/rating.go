package web

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"mafiaclub/internal/club"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ratingFilter reads the season from the query: from and to are dates (YYYY-MM-DD) in the club's time zone; to is
// inclusive.
func (s *Server) ratingFilter(r *http.Request) (club.RatingFilter, string, string, error) {
	var f club.RatingFilter
	from, to := r.URL.Query().Get("from"), r.URL.Query().Get("to")
	if from != "" {
		t, err := time.ParseInLocation("2006-01-02", from, s.zone())
		if err != nil {
			return f, from, to, club.Errorf(club.Invalid, "from: a date like 2026-09-01")
		}
		f.From = t
	}
	if to != "" {
		t, err := time.ParseInLocation("2006-01-02", to, s.zone())
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
	list, err := s.svc.Records.Standings(r.Context(), f)
	return list, from, to, err
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
	writeCSVLine(cw, head)
	for _, st := range list {
		line := []string{strconv.Itoa(st.Rank), st.Nick, strconv.Itoa(st.Games), strconv.Itoa(st.Wins),
			fmt.Sprintf("%.1f", st.WinRate()), formatPoints(st.Points), formatPoints(st.Average())}
		for _, rs := range st.ByRole {
			line = append(line, strconv.Itoa(rs.Games), strconv.Itoa(rs.Wins), formatPoints(rs.Points))
		}
		writeCSVLine(cw, line)
	}
	cw.Flush()
}

// csvSafe keeps a spreadsheet from reading a cell as a formula: a cell that would start with =, +, -, @, a tab or a
// carriage return starts with an apostrophe instead (OWASP's advice for CSV injection). Every cell of our CSV
// files goes through it, numbers too: a negative number reads '-0.30.
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

// writeCSVLine writes one line of a CSV file, every cell made safe for spreadsheets.
func writeCSVLine(cw *csv.Writer, cells []string) {
	safe := make([]string, len(cells))
	for i, c := range cells {
		safe[i] = csvSafe(c)
	}
	cw.Write(safe)
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
