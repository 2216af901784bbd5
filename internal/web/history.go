package web

import (
	"bytes"
	"fmt"
	"html/template"
	"mafiaclub/internal/club"
	"mafiaclub/internal/hostview"
	"mafiaclub/mafia"
	"net/http"
	"strconv"
	"strings"
	"time"
)

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
	f := club.GameFilter{Rules: q.Get("rules"), Limit: 200}
	if d := q.Get("from"); d != "" {
		t, err := time.ParseInLocation("2006-01-02", d, s.zone())
		if err != nil {
			s.fail(w, r, club.Errorf(club.Invalid, "from: a date like 2026-09-01"))
			return
		}
		f.From = t
	}
	if d := q.Get("to"); d != "" {
		t, err := time.ParseInLocation("2006-01-02", d, s.zone())
		if err != nil {
			s.fail(w, r, club.Errorf(club.Invalid, "to: a date like 2027-05-31"))
			return
		}
		f.To = t.AddDate(0, 0, 1)
	}
	if pid, err := strconv.ParseInt(q.Get("player"), 10, 64); err == nil {
		f.PlayerID = pid
	}
	games, err := s.svc.Records.History(r.Context(), f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, "history", historyView{Page: p, Games: games, Rules: mafia.RuleSets(), RulesID: f.Rules, From: q.Get("from"), To: q.Get("to"), Player: q.Get("player")})
}

// loadPublic loads a game for the public: from the moment it ends (club.Records.Public); a game still being
// played is not found.
func (s *Server) loadPublic(r *http.Request) (*club.State, error) {
	id, err := gameID(r)
	if err != nil {
		return nil, err
	}
	return s.svc.Records.Public(r.Context(), id)
}

type protoSeat struct {
	N                  int
	Nick, Letter       string
	Role               string
	Fouls              int
	Nominated          string
	Out                string
	Base, Extra, Total string
	Items              []string
}

type protoDay struct {
	Day       int
	Nominated string
	Rounds    []string
	Voting    string
}

type recordView struct {
	Page
	Tournament  *club.Tournament
	Stage       *club.Stage
	Protests    []club.StoredProtest
	CanProtest  bool
	ProtestLeft string
	IsChief     bool
	Reasons     []string // the reasons of extra points and penalties (§P7.9)
	Number      string   // the game's number on its protocol: in its tournament (§P7.2.1), or the club's #id
	Judge       string   // the judge's name on its protocol (§P7.2.3, 7.10)
	Game        *club.Game
	Night       *club.ClubNight
	RulesName   string
	Winner      string
	Seats       []protoSeat
	Days        []protoDay
	BestMove    string
	Chrono      []hostview.ChronoLine
	// Body is the page below the menu as drawn before for the same game as it stands (a public reader's page).
	Body template.HTML
}

// recordPage is the public page of a saved game, and with ?view=protocol its one-page protocol (seed 002 §P7).
func (s *Server) recordPage(w http.ResponseWriter, r *http.Request) {
	if s.summaryRecord(w, r, false) { // a game from an old protocol: its summary, no chronology
		return
	}
	st, err := s.loadPublic(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	p.Title = p.T("game.title", st.Game.ID)
	var night *club.ClubNight
	if st.Game.NightID != 0 {
		night, _ = s.svc.Nights.Night(r.Context(), st.Game.NightID)
	}
	judge, err := s.svc.Games.JudgeName(r.Context(), p.User, st.Game)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	view := "record"
	if r.URL.Query().Get("view") == "protocol" {
		view = "protocol"
	}
	// A club game's page for a public reader is drawn from the game as it stands (its version), its club night,
	// its judge's name, the language and the club's name, and nothing else: drawn once, kept (a tournament game's
	// page says how long its players may still protest, and is drawn each time).
	key := ""
	if p.User == nil && st.Game.StageID == 0 {
		nv := club.ClubNight{}
		if night != nil {
			nv = *night
		}
		key = fmt.Sprintf("game\x00%d\x00%d\x00%s\x00%s\x00%s\x00%q\x00%q\x00%d,%d,%q,%q,%d", st.Game.ID, st.Game.Version, st.Game.Status,
			p.Lang, view, p.SiteName, judge, nv.ID, nv.StartsAt.UnixMilli(), nv.Place, nv.Note, nv.Cancelled.UnixMilli())
		if _, body, ok := s.bodies.get(key); ok {
			s.render(w, view, recordView{Page: p, Body: body})
			return
		}
	}
	g := st.Play
	res := g.Result()
	v := recordView{Page: p, Game: st.Game, RulesName: p.RulesTitle(g.Rules()), Winner: p.T("winner." + g.Winner().String()), Night: night, Judge: judge}
	nomBy := map[int]string{}
	for _, d := range res.Days {
		pd := protoDay{Day: d.Day, Voting: p.T("voting." + d.Voting.String())}
		var noms []string
		for _, n := range d.Nominated {
			noms = append(noms, "#"+strconv.Itoa(n))
		}
		pd.Nominated = strings.Join(noms, ", ")
		for _, rd := range d.Rounds {
			if rd.Lift {
				pd.Rounds = append(pd.Rounds, p.T("protocol.lift", rd.Yes))
				continue
			}
			var parts []string
			for _, c := range rd.Counts {
				parts = append(parts, fmt.Sprintf("#%d: %d", c.Seat, c.Votes))
			}
			pd.Rounds = append(pd.Rounds, strings.Join(parts, ", "))
		}
		v.Days = append(v.Days, pd)
	}
	for _, e := range st.Record.Events {
		switch e.Type {
		case mafia.EvNominate:
			nomBy[int(e.Seat)] += fmt.Sprintf(" #%d", e.Target)
		case mafia.EvBestMove:
			var named []string
			for _, t := range e.Targets[:e.NTargets] {
				named = append(named, "#"+strconv.Itoa(int(t)))
			}
			v.BestMove = fmt.Sprintf("#%d %s: %s", e.Seat, st.Game.Seats[e.Seat-1].Name, strings.Join(named, " "))
		}
	}
	for _, sr := range res.Seats {
		ps := protoSeat{N: sr.Seat, Nick: st.Game.Seats[sr.Seat-1].Name, Letter: p.RoleLetter(sr.Role), Role: p.T("role." + sr.Role.String()),
			Fouls: sr.Fouls, Nominated: strings.TrimSpace(nomBy[sr.Seat]), Total: p.PointsText(sr.Points)}
		if sr.Out.How != mafia.NotOut {
			ps.Out = p.T("out."+sr.Out.How.String(), p.T("phase."+sr.Out.Phase.String(), sr.Out.Number))
		}
		base, extra := 0, 0
		for _, it := range sr.Score {
			if it.Item == mafia.ItemWin || it.Item == mafia.ItemLoss {
				base += it.Points
			} else {
				extra += it.Points
			}
			ps.Items = append(ps.Items, p.T("item."+it.Item.String())+" "+p.SignedText(it.Points))
		}
		ps.Base, ps.Extra = p.PointsText(base), p.PointsText(extra)
		v.Seats = append(v.Seats, ps)
	}
	v.Chrono = s.chronology(p, st)
	for _, e := range st.Record.Events {
		if e.Type == mafia.EvAdjust || e.Type == mafia.EvDisqualify || e.Type == mafia.EvTeamLoss {
			line := s.describe(p, e, "") // it names the seat
			if e.Reason != "" {
				line += " — " + e.Reason
			}
			v.Reasons = append(v.Reasons, line)
		}
	}
	info, err := s.svc.Tournaments.Info(r.Context(), p.User, st)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.Number = "#" + strconv.FormatInt(st.Game.ID, 10)
	if info != nil {
		v.Tournament, v.Stage, v.Protests, v.IsChief = info.Tournament, info.Stage, info.Protests, info.IsChief
		v.Number = strconv.Itoa(info.Number)
		if left := info.ProtestLeft; left > 0 {
			v.CanProtest = true
			v.ProtestLeft = fmt.Sprintf("%d:%02d", int(left.Minutes()), int(left.Seconds())%60)
		}
	}
	if key != "" {
		var buf bytes.Buffer
		if err := s.pages[view].ExecuteTemplate(&buf, view+"_body", v); err != nil {
			s.fail(w, r, err)
			return
		}
		v.Body = template.HTML(buf.String())
		s.bodies.put(key, p.Title, v.Body)
	}
	s.render(w, view, v)
}

func (s *Server) recordDownload(w http.ResponseWriter, r *http.Request) {
	st, err := s.loadPublic(r)
	if err == nil && st.Game.IsSummary() {
		err = club.Errorf(club.NotFound, "a game from an old protocol has no record")
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.writeRecord(w, st)
}

func (s *Server) apiGame(w http.ResponseWriter, r *http.Request) {
	st, err := s.loadPublic(r)
	if err == nil && st.Game.IsSummary() {
		err = club.Errorf(club.NotFound, "a game from an old protocol has no record")
	}
	if err != nil {
		writeJSONError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	fmt.Fprintf(w, "{\"id\": %d, \"rated\": %v, \"record\": ", st.Game.ID, st.Game.Rated)
	w.Write(s.recordJSON(st))
	w.Write([]byte(", \"result\": "))
	w.Write(resultJSON(st))
	w.Write([]byte("}\n"))
}
