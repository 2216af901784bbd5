package web

import (
	"bytes"
	"container/list"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ratingQuery reads a rating's choice from the query: rules (a rule set; the club's by default), from and to
// (dates, YYYY-MM-DD, in the club's time zone; to is inclusive), min (the minimum number of games), sort (elo or
// points) and page (from 1).
func (s *Server) ratingQuery(r *http.Request) (club.RatingQuery, error) {
	var q club.RatingQuery
	v := r.URL.Query()
	q.Rules = v.Get("rules")
	if from := v.Get("from"); from != "" {
		t, err := time.ParseInLocation("2006-01-02", from, s.zone())
		if err != nil {
			return q, club.Errorf(club.Invalid, "from: a date like 2026-09-01")
		}
		q.From = t
	}
	if to := v.Get("to"); to != "" {
		t, err := time.ParseInLocation("2006-01-02", to, s.zone())
		if err != nil {
			return q, club.Errorf(club.Invalid, "to: a date like 2027-05-31")
		}
		q.To = t.AddDate(0, 0, 1)
	}
	if !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To) {
		return q, club.Errorf(club.Invalid, "the season's first day is after its last")
	}
	for _, f := range []struct {
		name  string
		field club.Field // the form's name for it
		to    *int
	}{{"min", "minimum number of games", &q.MinGames}, {"page", "page", &q.Page}} {
		if x := v.Get(f.name); x != "" {
			n, err := strconv.Atoi(x)
			if err != nil || n < 0 || n > 1_000_000 {
				return q, club.Errorf(club.Invalid, "%s: a whole number", f.field)
			}
			*f.to = n
		}
	}
	switch v.Get("sort") {
	case "", "points":
	case "elo":
		q.ByElo = true
	default:
		return q, club.Errorf(club.Invalid, "sort: points or elo")
	}
	return q, nil
}

func (s *Server) standings(r *http.Request) ([]club.Standing, error) {
	q, err := s.ratingQuery(r)
	if err != nil {
		return nil, err
	}
	list, err := s.svc.Records.Standings(r.Context(), q.RatingFilter)
	if err == nil && q.ByElo {
		club.SortStandingsBy(list, true)
	}
	return list, err
}

// notModified answers a request for a page built from the ratings: it sets the page's ETag (the ratings' version,
// the language, the viewer and the program's start, since each changes what the page shows) and reports true when
// the request already holds that page (If-None-Match), having answered 304.
func (s *Server) notModified(w http.ResponseWriter, r *http.Request, lang string) bool {
	done, _ := s.ratingFresh(w, r, lang)
	return done
}

// ratingFresh is notModified that also gives the rating's version the answer is drawn from (-1 when unknown).
func (s *Server) ratingFresh(w http.ResponseWriter, r *http.Request, lang string) (bool, int64) {
	v, err := s.svc.Records.RatingVersion(r.Context())
	if err != nil {
		return false, -1
	}
	var uid int64
	role := ""
	if u := currentUser(r); u != nil {
		uid, role = u.ID, string(u.Role)
	}
	etag := fmt.Sprintf(`W/"r%d-%s-%d%s-%s"`, v, lang, uid, role, s.started)
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Add("Vary", "Cookie, Accept-Language")
	for _, t := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if strings.TrimSpace(t) == etag {
			w.WriteHeader(http.StatusNotModified)
			return true, int64(v)
		}
	}
	return false, int64(v)
}

type ratingRow struct {
	club.Standing
	WinRate, Average, Total, Elo string
	Roles                        []string
}

type ratingView struct {
	Page
	Q                        club.RatingQuery
	From, To, Rules, Sort    string
	Min                      int
	Query, Prev, Next        string
	Last                     string // the last page's address, for a page past it (the rating has lines, this page none)
	RulesList                []ruleChoice
	Rows                     []ratingRow
	RoleNames                []string
	Total, PageNo, Pages     int
	EloStart, EloK, EloPrior string
	Error                    string // why the query was refused (the page then shows the form and this)
	// Table is everything below the title, drawn from the rest (and kept for the readers of the same version).
	Table template.HTML
}

type ruleChoice struct {
	ID, Title string
	Selected  bool
}

func (s *Server) ratingPage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	done, version := s.ratingFresh(w, r, p.Lang)
	if done {
		return
	}
	q, err := s.ratingQuery(r)
	if err != nil {
		s.ratingRefused(w, r, p, q, err)
		return
	}
	// The table is the same for every reader of one version of the rating in one language: drawn once, kept. Its
	// key is the query as the rating read it (vals), not as it came: parameters the rating does not know would
	// make a new table each, and be copied into its links.
	vals := ratingValues(q)
	key := p.Lang + "?" + vals.Encode()
	if table, ok := s.tables.get(version, key); ok {
		p.Title = ratingTitle(p, q)
		s.render(w, "rating", ratingView{Page: p, Table: table})
		return
	}
	res, err := s.svc.Records.Rating(r.Context(), q)
	if err != nil {
		s.ratingRefused(w, r, p, q, err)
		return
	}
	v := ratingView{Page: p, Q: q, From: vals.Get("from"), To: vals.Get("to"), Rules: q.Scope(), Min: q.MinGames, Sort: "points",
		Total: res.Total, PageNo: res.Page, Pages: res.Pages,
		EloStart: formatElo(club.EloStart), EloK: p.Decimal(fmt.Sprintf("%g", club.EloK)), EloPrior: strconv.Itoa(club.EloPrior)}
	if q.ByElo {
		v.Sort = "elo"
	}
	v.Title = ratingTitle(p, q)
	for _, id := range club.RatingScopes() {
		v.RulesList = append(v.RulesList, ruleChoice{ID: id, Title: ruleTitle(p, id), Selected: id == q.Scope()})
	}
	vals.Del("page")
	v.Query = vals.Encode()
	if res.Page > 1 {
		vals.Set("page", strconv.Itoa(res.Page-1))
		v.Prev = s.path("/rating?" + vals.Encode())
	}
	if res.Page < res.Pages {
		vals.Set("page", strconv.Itoa(res.Page+1))
		v.Next = s.path("/rating?" + vals.Encode())
	}
	if res.Page > res.Pages && res.Total > 0 { // past the end: say so, and lead to the last page, not "no games"
		vals.Set("page", strconv.Itoa(res.Pages))
		v.Last, v.Prev = s.path("/rating?"+vals.Encode()), ""
	}
	for _, role := range club.RatingRoles {
		v.RoleNames = append(v.RoleNames, p.T("role."+role))
	}
	for _, st := range res.Lines {
		row := ratingRow{Standing: st, WinRate: fmt.Sprintf("%.0f%%", st.WinRate()), Average: p.PointsText(st.Average()),
			Total: p.PointsText(st.Points), Elo: formatElo(st.Elo)}
		for _, rs := range st.ByRole {
			row.Roles = append(row.Roles, fmt.Sprintf("%d/%d · %s", rs.Wins, rs.Games, p.PointsText(rs.Points)))
		}
		v.Rows = append(v.Rows, row)
	}
	var buf bytes.Buffer
	if err := s.pages["rating"].ExecuteTemplate(&buf, "rating_table", v); err != nil {
		s.fail(w, r, err)
		return
	}
	v.Table = template.HTML(buf.String())
	if version >= 0 && res.Page == max(q.Page, 1) { // a page past the last one is drawn as the last: not kept twice
		s.tables.put(version, key, v.Table)
	}
	s.render(w, "rating", v)
}

// ratingRefused answers a rating query the rating cannot read (a date that is none, a season that ends before it
// begins, a minimum that is not a number): the page with its form as the reader filled it in and what is wrong, so
// that he corrects it there. Anything else is the error page.
func (s *Server) ratingRefused(w http.ResponseWriter, r *http.Request, p Page, q club.RatingQuery, err error) {
	if club.ErrorCode(err) != club.Invalid {
		s.fail(w, r, err)
		return
	}
	vals := r.URL.Query()
	v := ratingView{Page: p, Q: q, From: vals.Get("from"), To: vals.Get("to"), Rules: q.Scope(), Min: q.MinGames, Sort: "points",
		Error:    s.errorText(p.Lang, err),
		EloStart: formatElo(club.EloStart), EloK: p.Decimal(fmt.Sprintf("%g", club.EloK)), EloPrior: strconv.Itoa(club.EloPrior)}
	if vals.Get("sort") == "elo" {
		v.Sort = "elo"
	}
	v.Title = ratingTitle(p, q)
	for _, id := range club.RatingScopes() {
		v.RulesList = append(v.RulesList, ruleChoice{ID: id, Title: ruleTitle(p, id), Selected: id == q.Scope()})
	}
	var buf bytes.Buffer
	if err := s.pages["rating"].ExecuteTemplate(&buf, "rating_table", v); err != nil {
		s.fail(w, r, err)
		return
	}
	v.Table = template.HTML(buf.String())
	w.WriteHeader(http.StatusBadRequest)
	s.render(w, "rating", v)
}

// ratingValues writes a rating query back as the page's address gives it, each parameter one way and only those
// the rating knows (ratingQuery reads them).
func ratingValues(q club.RatingQuery) url.Values {
	v := url.Values{}
	if q.Rules != "" {
		v.Set("rules", q.Rules)
	}
	if !q.From.IsZero() {
		v.Set("from", q.From.Format("2006-01-02"))
	}
	if !q.To.IsZero() {
		v.Set("to", q.To.AddDate(0, 0, -1).Format("2006-01-02")) // the query's end is the day after
	}
	if q.MinGames > 0 {
		v.Set("min", strconv.Itoa(q.MinGames))
	}
	if q.ByElo {
		v.Set("sort", "elo")
	}
	if q.Page > 1 {
		v.Set("page", strconv.Itoa(q.Page))
	}
	return v
}

func ratingTitle(p Page, q club.RatingQuery) string {
	if q.Scope() != club.ClubRules {
		return p.T("rating.rules_title", ruleTitle(p, q.Scope()))
	}
	return p.T("rating.title")
}

// tableCache keeps drawn rating tables of one version of the rating, by language and query, and the drawn
// bodies of players' pages (a player's page is built from the ratings too: one version of them gives one page);
// a newer version empties it. At most 256 parts (a table of 100 lines is about 40 KB, a player's page about the
// same: 10 MB at most); when full, the part asked for least recently makes room for the next, so that a flood of new queries does not push out the tables readers
// keep asking for.
type tableCache struct {
	mu      sync.Mutex
	version int64
	m       map[string]*list.Element // their Values are *cachedTable
	order   list.List                // the most recently asked for first
}

type cachedTable struct {
	key   string
	t     template.HTML
	title string // the page's title, for a part drawn with it (a player's page)
}

const maxTables = 256

func (c *tableCache) get(version int64, key string) (template.HTML, bool) {
	_, t, ok := c.getTitled(version, key)
	return t, ok
}

func (c *tableCache) put(version int64, key string, t template.HTML) {
	c.putTitled(version, key, "", t)
}

// getTitled is get for a part kept with its page's title.
func (c *tableCache) getTitled(version int64, key string) (string, template.HTML, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if c.version != version || !ok {
		return "", "", false
	}
	c.order.MoveToFront(e)
	ct := e.Value.(*cachedTable)
	return ct.title, ct.t, true
}

// putTitled is put for a part kept with its page's title.
func (c *tableCache) putTitled(version int64, key, title string, t template.HTML) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case version < c.version: // drawn from an older version by a slow request: not kept
		return
	case version > c.version || c.m == nil:
		c.version, c.m = version, map[string]*list.Element{}
		c.order.Init()
	}
	if e, ok := c.m[key]; ok {
		ct := e.Value.(*cachedTable)
		ct.t, ct.title = t, title
		c.order.MoveToFront(e)
		return
	}
	if len(c.m) >= maxTables {
		delete(c.m, c.order.Remove(c.order.Back()).(*cachedTable).key)
	}
	c.m[key] = c.order.PushFront(&cachedTable{key, t, title})
}

// formatElo writes an Elo kept in hundredths as a whole number.
func formatElo(h int) string { return strconv.Itoa(int(math.Round(float64(h) / 100))) }

// ruleTitle is a rule set's title in the page's language.
func ruleTitle(p Page, id string) string {
	if rs, ok := mafia.RuleSet(id); ok {
		return p.RulesTitle(rs)
	}
	return id
}

// ratingCSV exports the standings: one line per player, points as decimals.
func (s *Server) ratingCSV(w http.ResponseWriter, r *http.Request) {
	if s.notModified(w, r, "csv") {
		return
	}
	list, err := s.standings(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="rating.csv"`)
	cw := newCSV(w)
	head := []string{"rank", "nickname", "games", "wins", "win_rate", "points", "average", "elo"}
	for _, role := range club.RatingRoles {
		head = append(head, role+"_games", role+"_wins", role+"_points")
	}
	writeCSVLine(cw, head)
	for _, st := range list {
		line := []string{strconv.Itoa(st.Rank), st.Nick, strconv.Itoa(st.Games), strconv.Itoa(st.Wins),
			fmt.Sprintf("%.1f", st.WinRate()), formatPoints(st.Points), formatPoints(st.Average()), formatPoints(st.Elo)}
		for _, rs := range st.ByRole {
			line = append(line, strconv.Itoa(rs.Games), strconv.Itoa(rs.Wins), formatPoints(rs.Points))
		}
		writeCSVLine(cw, line)
	}
	cw.Flush()
}

// csvNumber is a cell that is a number as our CSV files write them: digits, a point and its decimals, a minus sign.
var csvNumber = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// csvSafe keeps a spreadsheet from reading a cell as a formula: a cell that would start with =, +, -, @, a tab or a
// carriage return starts with an apostrophe instead (OWASP's advice for CSV injection). Every cell of our CSV
// files goes through it; a number is no formula and stays a number (-0.30), so that a spreadsheet sums it.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) && !csvNumber.MatchString(s) {
		return "'" + s
	}
	return s
}

// newCSV starts a CSV file on w: the UTF-8 byte-order mark first, without which a spreadsheet reads the file in
// the computer's own code page and garbles every Cyrillic name.
func newCSV(w io.Writer) *csv.Writer {
	io.WriteString(w, "\ufeff")
	return csv.NewWriter(w)
}

type jsonStanding struct {
	Rank     int                       `json:"rank"`
	PlayerID int64                     `json:"player"`
	Nick     string                    `json:"nickname"`
	Games    int                       `json:"games"`
	Wins     int                       `json:"wins"`
	Points   json.Number               `json:"points"`
	Average  json.Number               `json:"average"`
	Elo      json.Number               `json:"elo"`
	ByRole   map[string]map[string]any `json:"by_role"`
}

func (s *Server) apiStandings(w http.ResponseWriter, r *http.Request) {
	if s.notModified(w, r, "json") {
		return
	}
	list, err := s.standings(r)
	if err != nil {
		writeJSONError(w, err)
		return
	}
	out := []jsonStanding{}
	for _, st := range list {
		js := jsonStanding{Rank: st.Rank, PlayerID: st.PlayerID, Nick: st.Nick, Games: st.Games, Wins: st.Wins,
			Points: json.Number(formatPoints(st.Points)), Average: json.Number(formatPoints(st.Average())), Elo: json.Number(formatPoints(st.Elo)), ByRole: map[string]map[string]any{}}
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
