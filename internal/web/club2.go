package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/tourney"
	"mafiaclub/mafia"
)

// loadSaved loads a saved game for the public: a game still being played is not shown.
func (s *Server) loadSaved(r *http.Request) (*club.State, error) {
	id, err := gameID(r)
	if err != nil {
		return nil, err
	}
	admin := &club.User{Role: club.RoleAdmin}
	st, err := s.Games.Load(r.Context(), admin, id)
	if err != nil {
		return nil, err
	}
	if st.Game.Status != club.GameSaved {
		return nil, club.Errorf(club.NotFound, "no such game")
	}
	return st, nil
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
	Game        *club.Game
	Night       *club.ClubNight
	RulesName   string
	Winner      string
	Seats       []protoSeat
	Days        []protoDay
	BestMove    string
	Chrono      []chronoLine
}

// recordPage is the public page of a saved game, and with ?view=protocol its one-page protocol (seed 002 §P7).
func (s *Server) recordPage(w http.ResponseWriter, r *http.Request) {
	st, err := s.loadSaved(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	p.Title = p.T("game.title", st.Game.ID)
	g := st.Play
	res := g.Result()
	v := recordView{Page: p, Game: st.Game, RulesName: g.Rules().Title, Winner: p.T("winner." + g.Winner().String())}
	if st.Game.NightID != 0 {
		v.Night, _ = s.Store.Night(r.Context(), st.Game.NightID)
	}
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
		ps := protoSeat{N: sr.Seat, Nick: st.Game.Seats[sr.Seat-1].Name, Letter: sr.Role.Letter(), Role: p.T("role." + sr.Role.String()),
			Fouls: sr.Fouls, Nominated: strings.TrimSpace(nomBy[sr.Seat]), Total: formatPoints(sr.Points)}
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
			ps.Items = append(ps.Items, p.T("item."+it.Item.String())+" "+signed(it.Points))
		}
		ps.Base, ps.Extra = formatPoints(base), formatPoints(extra)
		v.Seats = append(v.Seats, ps)
	}
	v.Chrono = s.chronology(p, st)
	for _, e := range st.Record.Events {
		if e.Type == mafia.EvAdjust || e.Type == mafia.EvDisqualify || e.Type == mafia.EvTeamLoss {
			line := fmt.Sprintf("#%d %s", e.Seat, s.describe(p, e, ""))
			if e.Reason != "" {
				line += " — " + e.Reason
			}
			v.Reasons = append(v.Reasons, line)
		}
	}
	if st.Game.StageID != 0 {
		if err := s.tournamentRecord(r, &v, st); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if r.URL.Query().Get("view") == "protocol" {
		s.render(w, "protocol", v)
		return
	}
	s.render(w, "record", v)
}

func (s *Server) recordDownload(w http.ResponseWriter, r *http.Request) {
	st, err := s.loadSaved(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.writeRecord(w, st)
}

func (s *Server) apiGame(w http.ResponseWriter, r *http.Request) {
	st, err := s.loadSaved(r)
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

type nightRow struct {
	club.ClubNight
	When       string
	Mine       club.RegState
	Late       bool
	Registered bool
	Started    bool
}

type nightsView struct {
	Page
	Nights []nightRow
}

func (s *Server) upcoming(r *http.Request) ([]club.ClubNight, error) {
	now := s.Now()
	return s.Store.Nights(r.Context(), now.Add(-12*time.Hour), now.AddDate(0, 6, 0))
}

func (s *Server) nightsPage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("nights.title")
	list, err := s.upcoming(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	mine := map[int64]club.RegState{}
	if p.User != nil {
		regs, err := s.Store.UserRegistrations(r.Context(), p.User.ID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, reg := range regs {
			if reg.State != club.RegCancelled {
				mine[reg.NightID] = reg.State
			}
		}
	}
	v := nightsView{Page: p}
	for _, n := range list {
		st, ok := mine[n.ID]
		v.Nights = append(v.Nights, nightRow{ClubNight: n, When: p.Time(n.StartsAt), Mine: st, Registered: ok, Late: s.Club.CancelIsLate(n),
			Started: !s.Now().Before(n.StartsAt)})
	}
	s.render(w, "nights", v)
}

type nightView struct {
	Page
	Night      *club.ClubNight
	When       string
	Main       []club.Registration
	Reserve    []club.Registration
	Cancelled  []club.Registration
	Mine       club.RegState
	Registered bool
	Late       bool
	Started    bool
	Games      []club.Game
	Member     bool // an approved member (or a host) sees the line-up
}

func (s *Server) nightPage(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "club night")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	n, err := s.Store.Night(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	p.Title = p.T("nights.night", p.Time(n.StartsAt))
	v := nightView{Page: p, Night: n, When: p.Time(n.StartsAt), Late: s.Club.CancelIsLate(*n), Started: !s.Now().Before(n.StartsAt)}
	v.Member = p.User != nil && (p.User.Role.Can(club.RoleHost) || p.User.Status == club.StatusActive || p.User.Status == club.StatusLowPriority)
	if v.Member { // the line-up's nicknames are for approved members, not the public
		regs, err := s.Store.Registrations(r.Context(), id)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, reg := range regs {
			switch reg.State {
			case club.RegMain:
				v.Main = append(v.Main, reg)
			case club.RegReserve:
				v.Reserve = append(v.Reserve, reg)
			default:
				v.Cancelled = append(v.Cancelled, reg)
			}
			if reg.UserID == p.User.ID && reg.State != club.RegCancelled {
				v.Mine, v.Registered = reg.State, true
			}
		}
		if p.IsHost() {
			v.Games, _ = s.Store.Games(r.Context(), club.GameFilter{NightID: id})
		}
	}
	s.render(w, "night", v)
}

func nightID(r *http.Request) (int64, error) { return pathID(r, "id", "club night") }

func (s *Server) nightRegister(w http.ResponseWriter, r *http.Request) {
	id, err := nightID(r)
	if err == nil {
		_, err = s.Club.Register(r.Context(), currentUser(r), id)
	}
	s.backToNight(w, r, id, err)
}

func (s *Server) nightCancel(w http.ResponseWriter, r *http.Request) {
	id, err := nightID(r)
	if err == nil {
		_, err = s.Club.Cancel(r.Context(), currentUser(r), id)
	}
	s.backToNight(w, r, id, err)
}

func (s *Server) nightNoShow(w http.ResponseWriter, r *http.Request) {
	id, err := nightID(r)
	if err == nil {
		var uid int64
		uid, err = strconv.ParseInt(r.PostFormValue("user"), 10, 64)
		if err != nil {
			err = club.Errorf(club.Invalid, "choose a member")
		} else {
			err = s.Club.SetNoShow(r.Context(), currentUser(r), id, uid, r.PostFormValue("no_show") == "yes")
		}
	}
	s.backToNight(w, r, id, err)
}

func (s *Server) backToNight(w http.ResponseWriter, r *http.Request, id int64, err error) {
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/nights/%d", id), http.StatusSeeOther)
}

type newNightView struct {
	Page
	Date, Time, Place string
	Tables, PerTable  int
	Error             string
}

func (s *Server) newNightForm(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("nights.new")
	s.render(w, "night_new", newNightView{Page: p, Time: "19:00", Tables: 1, PerTable: 10})
}

// createNight reads the date and start time in the club's time zone.
func (s *Server) createNight(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("nights.new")
	v := newNightView{Page: p, Date: r.PostFormValue("date"), Time: r.PostFormValue("time"), Place: strings.TrimSpace(r.PostFormValue("place"))}
	v.Tables, _ = strconv.Atoi(r.PostFormValue("tables"))
	v.PerTable, _ = strconv.Atoi(r.PostFormValue("per_table"))
	starts, err := time.ParseInLocation("2006-01-02 15:04", v.Date+" "+v.Time, s.Zone)
	if err != nil {
		err = club.Errorf(club.Invalid, "the date and time: like 2026-12-05 and 19:00")
	} else {
		n := &club.ClubNight{StartsAt: starts, Place: v.Place, Tables: v.Tables, PerTable: v.PerTable}
		if err = s.Club.CreateNight(r.Context(), currentUser(r), n); err == nil {
			http.Redirect(w, r, fmt.Sprintf("/nights/%d", n.ID), http.StatusSeeOther)
			return
		}
	}
	if club.ErrorCode(err) != club.Invalid {
		s.fail(w, r, err)
		return
	}
	v.Error = s.errorText(p.Lang, err)
	w.WriteHeader(http.StatusBadRequest)
	s.render(w, "night_new", v)
}

// nightsICS is the iCalendar feed of the club nights (RFC 5545), times in UTC.
func (s *Server) nightsICS(w http.ResponseWriter, r *http.Request) {
	list, err := s.upcoming(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//mafiaclub//club nights//EN\r\nCALSCALE:GREGORIAN\r\n")
	stamp := s.Now().UTC().Format("20060102T150405Z")
	for _, n := range list {
		b.WriteString("BEGIN:VEVENT\r\n")
		fmt.Fprintf(&b, "UID:night-%d@mafiaclub\r\nDTSTAMP:%s\r\n", n.ID, stamp)
		fmt.Fprintf(&b, "DTSTART:%s\r\nDTEND:%s\r\n", n.StartsAt.UTC().Format("20060102T150405Z"), n.StartsAt.Add(4*time.Hour).UTC().Format("20060102T150405Z"))
		b.WriteString(icsLine("SUMMARY:" + icsEscape(p.T("nights.summary"))))
		b.WriteString(icsLine("LOCATION:" + icsEscape(n.Place)))
		b.WriteString("END:VEVENT\r\n")
	}
	b.WriteString("END:VCALENDAR\r\n")
	w.Write([]byte(b.String()))
}

func icsEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\n", `\n`, "\r", "").Replace(s)
}

// icsLine folds a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character.
func icsLine(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		l := len(string(r))
		if n+l > 75 {
			b.WriteString("\r\n ")
			n = 1
		}
		b.WriteRune(r)
		n += l
	}
	b.WriteString("\r\n")
	return b.String()
}

func (s *Server) apiNights(w http.ResponseWriter, r *http.Request) {
	list, err := s.upcoming(r)
	if err != nil {
		writeJSONError(w, err)
		return
	}
	type jn struct {
		ID       int64  `json:"id"`
		Starts   string `json:"starts"`
		Place    string `json:"place"`
		Tables   int    `json:"tables"`
		PerTable int    `json:"per_table"`
		Main     int    `json:"main"`
		MainSize int    `json:"main_size"`
		Reserve  int    `json:"reserve"`
	}
	out := []jn{}
	for _, n := range list {
		out = append(out, jn{n.ID, n.StartsAt.In(s.Zone).Format(time.RFC3339), n.Place, n.Tables, n.PerTable, n.Main, n.MainSize(), n.Reserve})
	}
	writeJSON(w, out)
}

// tournamentRecord adds a tournament game's fields: its tournament and stage, the protests with their decisions,
// and whether the viewer may still protest (a player of the game, within ten minutes of its end).
func (s *Server) tournamentRecord(r *http.Request, v *recordView, st *club.State) error {
	ctx := r.Context()
	stage, err := s.Store.Stage(ctx, st.Game.StageID)
	if err != nil {
		return err
	}
	t, err := s.Store.Tournament(ctx, stage.TournamentID)
	if err != nil {
		return err
	}
	v.Tournament, v.Stage = t, stage
	if v.Protests, err = s.Store.Protests(ctx, st.Game.ID); err != nil {
		return err
	}
	u := v.User
	v.IsChief = u != nil && u.ID == t.ChiefJudge
	if u == nil || u.PlayerID == 0 {
		return nil
	}
	left := s.Tours.GameEnd(st).Add(tourney.ProtestWindow).Sub(s.Now())
	if left <= 0 {
		return nil
	}
	player := false
	for _, seat := range st.Game.Seats {
		player = player || seat.PlayerID == u.PlayerID
	}
	if player {
		v.CanProtest = true
		v.ProtestLeft = fmt.Sprintf("%d:%02d", int(left.Minutes()), int(left.Seconds())%60)
	}
	return nil
}
