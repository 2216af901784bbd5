package web

import (
	"fmt"
	"mafiaclub/internal/club"
	"net/http"
	"strconv"
	"strings"
	"time"
)

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
	return s.svc.Nights.Upcoming(r.Context())
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
		regs, err := s.svc.Nights.Registrations(r.Context(), p.User)
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
		v.Nights = append(v.Nights, nightRow{ClubNight: n, When: p.Time(n.StartsAt), Mine: st, Registered: ok, Late: s.svc.Nights.CancelIsLate(n),
			Started: s.svc.Nights.Started(n)})
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
	n, err := s.svc.Nights.Night(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	p.Title = p.T("nights.night", p.Time(n.StartsAt))
	v := nightView{Page: p, Night: n, When: p.Time(n.StartsAt), Late: s.svc.Nights.CancelIsLate(*n), Started: s.svc.Nights.Started(*n)}
	v.Member = club.SeesLineUps(p.User)
	if v.Member { // the line-up's nicknames are for approved members, not the public
		regs, err := s.svc.Nights.LineUp(r.Context(), p.User, id)
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
			v.Games, _ = s.svc.Games.List(r.Context(), p.User, "", id, 100)
		}
	}
	s.render(w, "night", v)
}

func nightID(r *http.Request) (int64, error) { return pathID(r, "id", "club night") }

func (s *Server) nightRegister(w http.ResponseWriter, r *http.Request) {
	id, err := nightID(r)
	if err == nil {
		_, err = s.svc.Nights.Register(r.Context(), currentUser(r), id)
	}
	s.backToNight(w, r, id, err)
}

func (s *Server) nightCancel(w http.ResponseWriter, r *http.Request) {
	id, err := nightID(r)
	if err == nil {
		_, err = s.svc.Nights.Cancel(r.Context(), currentUser(r), id)
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
			err = s.svc.Nights.SetNoShow(r.Context(), currentUser(r), id, uid, r.PostFormValue("no_show") == "yes")
		}
	}
	s.backToNight(w, r, id, err)
}

func (s *Server) backToNight(w http.ResponseWriter, r *http.Request, id int64, err error) {
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.redirect(w, r, fmt.Sprintf("/nights/%d", id))
}

type newNightView struct {
	Page
	Action, Date, Time, Place string
	Tables, PerTable, Note    string
	Editing                   bool // an existing night's form
	Error                     string
}

// nightFormView reads a night's form as typed, to show it again.
func (s *Server) nightFormView(r *http.Request, p Page) newNightView {
	return newNightView{Page: p, Action: s.path("/nights"), Date: r.PostFormValue("date"), Time: r.PostFormValue("time"),
		Place: strings.TrimSpace(r.PostFormValue("place")), Tables: r.PostFormValue("tables"), PerTable: r.PostFormValue("per_table"),
		Note: r.PostFormValue("note")}
}

// nightForm reads the new night's form: the date and start time in the club's time zone, the numbers.
func (s *Server) nightForm(v newNightView) (club.NightForm, error) {
	var f club.NightForm
	starts, err := time.ParseInLocation("2006-01-02 15:04", v.Date+" "+v.Time, s.zone())
	if err != nil {
		return f, club.Errorf(club.Invalid, "the date and time: like 2026-12-05 and 19:00")
	}
	tables, err1 := strconv.Atoi(strings.TrimSpace(v.Tables))
	per, err2 := strconv.Atoi(strings.TrimSpace(v.PerTable))
	if err1 != nil || err2 != nil {
		return f, club.Errorf(club.Invalid, "the tables and the players per table are whole numbers")
	}
	return club.NightForm{StartsAt: starts, Place: v.Place, Tables: tables, PerTable: per, Note: v.Note}, nil
}

func (s *Server) newNightForm(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("nights.new")
	s.render(w, "night_new", newNightView{Page: p, Action: s.path("/nights"), Time: "19:00", Tables: "1", PerTable: "10"})
}

// createNight reads the date and start time in the club's time zone.
func (s *Server) createNight(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("nights.new")
	v := s.nightFormView(r, p)
	f, err := s.nightForm(v)
	if err == nil {
		var n *club.ClubNight
		if n, err = s.svc.Nights.Create(r.Context(), currentUser(r), f); err == nil {
			s.redirect(w, r, fmt.Sprintf("/nights/%d", n.ID))
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
	b.WriteString(icsLine("X-WR-CALNAME:" + icsEscape(p.SiteName))) // the calendar's name in calendar programs
	stamp := s.now().UTC().Format("20060102T150405Z")
	for _, n := range list {
		b.WriteString("BEGIN:VEVENT\r\n")
		fmt.Fprintf(&b, "UID:night-%d@%s\r\nDTSTAMP:%s\r\n", n.ID, s.icsDomain(), stamp)
		fmt.Fprintf(&b, "DTSTART:%s\r\nDTEND:%s\r\n", n.StartsAt.UTC().Format("20060102T150405Z"), n.StartsAt.Add(4*time.Hour).UTC().Format("20060102T150405Z"))
		summary := p.SiteName + ": " + p.T("nights.summary")
		if n.IsCancelled() {
			// RFC 5545: a cancelled event keeps its UID and says so, with a higher SEQUENCE, so that calendars
			// that have it take it down (or strike it through) instead of keeping it as it was
			b.WriteString("STATUS:CANCELLED\r\nSEQUENCE:1\r\n")
			summary = p.T("nights.summary_called_off", summary)
		} else {
			b.WriteString("STATUS:CONFIRMED\r\n")
		}
		b.WriteString(icsLine("SUMMARY:" + icsEscape(summary)))
		b.WriteString(icsLine("LOCATION:" + icsEscape(n.Place)))
		b.WriteString("END:VEVENT\r\n")
	}
	b.WriteString("END:VCALENDAR\r\n")
	w.Write([]byte(b.String()))
}

// icsDomain is the right-hand side of the club nights' UIDs: "mafiaclub" for the installation's own club, as it has
// always been, and SLUG.mafiaclub for another (under a prefix or at a host name of its own, whose Base is "" as the
// own club's), so that a calendar that follows two clubs of one installation keeps their nights apart (a UID is
// unique across calendars, RFC 5545 §3.8.4.7).
func (s *Server) icsDomain() string {
	slug := s.slug()
	if slug == "" {
		return "mafiaclub"
	}
	return safeName(slug) + ".mafiaclub"
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
		// Cancelled says the night is called off (CancelledAt: when, in the club's zone): it is still listed, so
		// that a program that showed it can take it down.
		Cancelled   bool   `json:"cancelled"`
		CancelledAt string `json:"cancelled_at,omitempty"`
	}
	out := []jn{}
	for _, n := range list {
		j := jn{n.ID, s.apiTime(n.StartsAt), n.Place, n.Tables, n.PerTable, n.Main, n.MainSize(), n.Reserve, n.IsCancelled(), ""}
		if n.IsCancelled() {
			j.CancelledAt = s.apiTime(n.Cancelled)
		}
		out = append(out, j)
	}
	writeJSON(w, out)
}
