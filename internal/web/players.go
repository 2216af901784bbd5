package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"mafiaclub/internal/club"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

type playerGame struct {
	club.GameResult
	Date, Role, Points string
	Rated              bool
}

type playerView struct {
	Page
	Player    *club.Player
	Stats     *club.PlayerStats
	Rules     string
	RulesList []ruleChoice
	Figures   []figure
	Roles     []ratingRow
	Games     []playerGame
	Chart     chart
	EloChart  chart
	Average   string
	Elo       string
	// his games, newest first, a page of playerGamesPage at a time (?page=N)
	GamesPage, GamesPages int
	GamesTotal            int
	GamesPrev, GamesNext  string
	// Body is everything below the menu, drawn from the rest (and kept for the readers of the same version).
	Body template.HTML
}

// playerGamesPage is how many of a player's games his page lists at a time: drawing all of a player's 1,000 games
// was half of his page's time (docs/rating-speed.md).
const playerGamesPage = 100

// figure is one of a player's figures: a label, the value, and what it is made of.
type figure struct {
	ID, Label, Value, Detail string
}

func percent(part, whole int) string {
	if whole == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*club.Share(part, whole))
}

func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "player")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	done, version := s.ratingFresh(w, r, p.Lang)
	if done {
		return
	}
	// Everything below the menu is the same for every reader of one version of the ratings in one language:
	// drawn once, kept with the rating's tables (a saved, reopened or corrected game, a changed nickname or photo
	// raises the version). The key is the query as the page reads it: the rule set as given (an unknown one is
	// refused before anything is kept) and the games' page as a number.
	rules := r.URL.Query().Get("rules")
	asked := 1
	if n, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && n > 1 {
		asked = n
	}
	key := fmt.Sprintf("player/%d/%s?%s/%d", id, p.Lang, url.QueryEscape(rules), asked)
	if title, body, ok := s.tables.getTitled(version, key); ok {
		p.Title = title
		s.render(w, "player", playerView{Page: p, Body: body})
		return
	}
	pl, res, ps, err := s.svc.Records.PlayerPage(r.Context(), id, rules)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p.Title = pl.Nick
	v := playerView{Page: p, Player: pl, Stats: ps, Rules: ps.Rules, Average: p.PointsText(ps.Average()), Elo: formatElo(ps.Elo)} // the public profile: no real name
	for _, rid := range club.RatingScopes() {
		v.RulesList = append(v.RulesList, ruleChoice{ID: rid, Title: ruleTitle(p, rid), Selected: rid == ps.Rules})
	}
	for _, gr := range res {
		v.Games = append(v.Games, playerGame{GameResult: gr, Date: p.Time(gr.PlayedAt), Role: p.T("role." + gr.Role),
			Points: p.PointsText(gr.Points), Rated: gr.Rated})
	}
	for _, rf := range ps.Roles {
		v.Roles = append(v.Roles, ratingRow{Standing: club.Standing{Nick: p.T("role." + rf.Role), Games: rf.Games, Wins: rf.Wins, Points: rf.Points},
			Total: p.PointsText(rf.Points), WinRate: winRate(rf.Wins, rf.Games)})
	}
	v.Figures = []figure{
		{"avg", p.T("stats.average"), p.PointsText(ps.Average()), p.N("stats.games.n", ps.Games)},
		{"first-killed", p.T("stats.first_killed"), strconv.Itoa(ps.FirstKilled), percent(ps.FirstKilled, ps.Games)},
		{"best-move", p.T("stats.best_move"), percent(ps.BestBlacks, ps.BestNamed), p.T("stats.best_move_detail", ps.BestBlacks, ps.BestNamed, ps.BestMoves)},
		{"checks", p.T("stats.checks"), percent(ps.ChecksBlack, ps.Checks), p.T("stats.of", ps.ChecksBlack, ps.Checks)},
		{"don", p.T("stats.don"), percent(ps.DonFound, ps.DonChecks), p.T("stats.of", ps.DonFound, ps.DonChecks)},
		{"votes", p.T("stats.votes"), percent(ps.VotesBlack, ps.Votes), p.T("stats.of", ps.VotesBlack, ps.Votes)},
		{"noms", p.T("stats.noms"), percent(ps.NomsBlack, ps.Noms), p.T("stats.of", ps.NomsBlack, ps.Noms)},
		{"fouls", p.T("stats.fouls"), p.perGameText(ps.Fouls, ps.Games), p.N("stats.fouls.n", ps.Fouls)},
		{"disq", p.T("stats.disq"), p.perGameText(ps.Disqualified, ps.Games), p.N("stats.disq.n", ps.Disqualified)},
	}
	// newest first in the list, one page of it
	for i, j := 0, len(v.Games)-1; i < j; i, j = i+1, j-1 {
		v.Games[i], v.Games[j] = v.Games[j], v.Games[i]
	}
	v.GamesTotal = len(v.Games)
	v.GamesPages = max(1, (len(v.Games)+playerGamesPage-1)/playerGamesPage)
	v.GamesPage = min(asked, v.GamesPages)
	lo := (v.GamesPage - 1) * playerGamesPage
	v.Games = v.Games[lo:min(lo+playerGamesPage, len(v.Games))]
	pageURL := func(n int) string {
		q := url.Values{}
		if rules != "" {
			q.Set("rules", rules)
		}
		if n > 1 {
			q.Set("page", strconv.Itoa(n))
		}
		if len(q) == 0 {
			return s.path(fmt.Sprintf("/players/%d#player-games", id))
		}
		return s.path(fmt.Sprintf("/players/%d?%s#player-games", id, q.Encode()))
	}
	if v.GamesPage > 1 {
		v.GamesPrev = pageURL(v.GamesPage - 1)
	}
	if v.GamesPage < v.GamesPages {
		v.GamesNext = pageURL(v.GamesPage + 1)
	}
	var points, elo []int
	var dates, eloDates []time.Time
	for i, h := range ps.History {
		if i == 0 {
			elo, eloDates = append(elo, club.EloStart), append(eloDates, h.PlayedAt)
		}
		points, dates = append(points, h.Points), append(dates, h.PlayedAt)
		elo, eloDates = append(elo, h.Elo), append(eloDates, h.PlayedAt)
	}
	v.Chart = pointsChart(points, dates, s.zone(), p.PointsText)
	v.EloChart = lineChart(elo, eloDates, s.zone(), false, formatElo)
	var buf bytes.Buffer
	if err := s.pages["player"].ExecuteTemplate(&buf, "player_body", v); err != nil {
		s.fail(w, r, err)
		return
	}
	v.Body = template.HTML(buf.String())
	if version >= 0 && v.GamesPage == asked { // a page past the last one is drawn as the last: not kept twice
		s.tables.putTitled(version, key, p.Title, v.Body)
	}
	s.render(w, "player", v)
}

type jsonCo struct {
	PlayerID int64  `json:"player"`
	Nick     string `json:"nickname"`
	Games    int    `json:"games"`
	Wins     int    `json:"wins"`
}

// apiPlayerStats is a player's figures in a rating as JSON: points as decimals, Elo in whole points with
// hundredths, shares as counts (what of what), so that a reader can compute any rate.
func (s *Server) apiPlayerStats(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "player")
	if err != nil {
		writeJSONError(w, err)
		return
	}
	if s.notModified(w, r, "json") {
		return
	}
	ps, err := s.svc.Records.PlayerStats(r.Context(), id, r.URL.Query().Get("rules"))
	if err != nil {
		writeJSONError(w, err)
		return
	}
	roles := map[string]any{}
	for _, rf := range ps.Roles {
		roles[rf.Role] = map[string]any{"games": rf.Games, "wins": rf.Wins, "points": json.Number(formatPoints(rf.Points))}
	}
	var history []map[string]any
	for _, h := range ps.History {
		history = append(history, map[string]any{"game": h.GameID, "played_at": s.apiTime(h.PlayedAt),
			"points": json.Number(formatPoints(h.Points)), "elo": json.Number(formatPoints(h.Elo))})
	}
	co := func(list []club.CoPlayer) []jsonCo {
		out := []jsonCo{}
		for _, c := range list {
			out = append(out, jsonCo{c.PlayerID, c.Nick, c.Games, c.Wins})
		}
		return out
	}
	writeJSON(w, map[string]any{
		"player": ps.PlayerID, "rules": ps.Rules, "games": ps.Games, "wins": ps.Wins,
		"points": json.Number(formatPoints(ps.Points)), "average": json.Number(formatPoints(ps.Average())),
		"elo": json.Number(formatPoints(ps.Elo)), "by_role": roles,
		"first_killed":   ps.FirstKilled,
		"best_move":      map[string]int{"moves": ps.BestMoves, "named": ps.BestNamed, "blacks": ps.BestBlacks},
		"sheriff_checks": map[string]int{"checks": ps.Checks, "black": ps.ChecksBlack},
		"don_checks":     map[string]int{"checks": ps.DonChecks, "sheriff": ps.DonFound},
		"votes":          map[string]int{"hands": ps.Votes, "against_black": ps.VotesBlack},
		"nominations":    map[string]int{"nominations": ps.Noms, "black": ps.NomsBlack},
		"fouls":          ps.Fouls, "disqualifications": ps.Disqualified,
		"history": history, "partners": co(ps.Partners), "opponents": co(ps.Opponents),
	})
}

type clubStatsView struct {
	Page
	Stats     *club.ClubStats
	RulesList []ruleChoice
	BySize    []balanceRow
	BySeason  []balanceRow
}

type balanceRow struct {
	club.Balance
	RedShare, BlackShare string
}

// clubStatsPage shows the club's red/black balance per table size and per season, for a rating.
func (s *Server) clubStatsPage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	if s.notModified(w, r, p.Lang) {
		return
	}
	cs, err := s.svc.Records.ClubStats(r.Context(), r.URL.Query().Get("rules"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p.Title = p.T("club.stats_title")
	v := clubStatsView{Page: p, Stats: cs}
	for _, rid := range club.RatingScopes() {
		v.RulesList = append(v.RulesList, ruleChoice{ID: rid, Title: ruleTitle(p, rid), Selected: rid == cs.Rules})
	}
	rows := func(list []club.Balance) []balanceRow {
		var out []balanceRow
		for _, b := range list {
			out = append(out, balanceRow{b, percent(b.Red, b.Games), percent(b.Black, b.Games)})
		}
		return out
	}
	v.BySize, v.BySeason = rows(cs.BySize), rows(cs.BySeason)
	s.render(w, "clubstats", v)
}

func winRate(wins, games int) string {
	if games == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(wins)/float64(games))
}

// playerPhoto serves a profile photo with the type found in its content.
func (s *Server) playerPhoto(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "player")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	photo, ct, err := s.svc.Accounts.Photo(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(photo)
}
