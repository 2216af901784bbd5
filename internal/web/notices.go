package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mafiaclub/internal/club"
)

// noticeText says a notice in lang, times in the club's zone: a title and its text (lines).
func (s *Server) noticeText(lang string, n club.Notice) (title string, lines []string) {
	T := func(key string, args ...any) string { return s.Catalog.T(lang, key, args...) }
	z := s.zone()
	night := n.NightThen() // a change says the night as it left it, not as it is now
	when := night.StartsAt.In(z).Format("2006-01-02 15:04")
	title = T("notice." + string(n.Kind) + ".title")
	switch n.Kind {
	case club.NoticeNightChanged:
		lines = append(lines, T("notice.night_changed", when, night.Place, night.Tables, night.PerTable))
		if was := n.WasAt(); !was.IsZero() {
			lines = append(lines, T("notice.was", was.In(z).Format("2006-01-02 15:04")))
		}
	case club.NoticeReminder:
		lastDay := club.CancelDeadline(night, z).AddDate(0, 0, -1).Format("2006-01-02")
		lines = append(lines, T("notice.reminder", when, night.Place, lastDay))
	case club.NoticeStrike:
		lines = append(lines, T("notice.strike", when, night.Place, T("strike."+n.Detail)))
	case club.NoticeStatus:
		lines = append(lines, T("notice.status."+n.Detail))
		return title, lines
	case club.NoticeDemoted:
		if n.Detail == string(club.StatusLowPriority) {
			lines = append(lines, T("notice.demoted_low", when, night.Place))
			break
		}
		lines = append(lines, T("notice.demoted", when, night.Place))
	default:
		lines = append(lines, T("notice."+string(n.Kind), when, night.Place))
	}
	if night.Note != "" && n.Kind != club.NoticeStrike && n.Kind != club.NoticeNightCancelled && n.Kind != club.NoticeRemoved {
		lines = append(lines, T("notice.note", night.Note))
	}
	return title, lines
}

// MailText writes a notice's e-mail in its member's language: the subject and the plain-text body. The e-mail
// sender (internal/notify) is given it.
func (s *Server) MailText(m club.Mail) (subject, body string) {
	lang := m.Lang
	if _, ok := s.Catalog[lang]; !ok {
		lang = Languages[0]
	}
	title, lines := s.noticeText(lang, m.Notice)
	body = s.Catalog.T(lang, "notice.greeting", m.Name) + "\n\n" + strings.Join(lines, "\n") + "\n\n-- \n" + s.Catalog.T(lang, "notice.footer") + "\n"
	return s.clubName(context.Background(), lang) + ": " + title, body
}

type noticeRow struct {
	club.Notice
	Title   string
	Lines   []string
	When    string
	NightID int64
}

type noticesView struct {
	Page
	Notices   []noticeRow
	Email     club.EmailForm
	Error     string
	Confirmed bool // the member just confirmed his address
}

func (s *Server) noticesPage(w http.ResponseWriter, r *http.Request) {
	s.renderNotices(w, r, http.StatusOK, "")
}

func (s *Server) renderNotices(w http.ResponseWriter, r *http.Request, code int, errText string) {
	p := s.page(r)
	p.Title = p.T("notices.title")
	list, err := s.svc.Notices.Inbox(r.Context(), p.User)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := noticesView{Page: p, Error: errText, Confirmed: r.URL.Query().Get("confirmed") == "1"}
	if v.Email, err = s.svc.Notices.Email(r.Context(), p.User); err != nil {
		s.fail(w, r, err)
		return
	}
	for _, n := range list {
		title, lines := s.noticeText(p.Lang, n)
		v.Notices = append(v.Notices, noticeRow{Notice: n, Title: title, Lines: lines, When: p.Time(n.At), NightID: n.NightID})
	}
	w.WriteHeader(code)
	s.render(w, "notices", v)
}

func (s *Server) noticesRead(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Notices.MarkRead(r.Context(), currentUser(r)); err != nil {
		s.fail(w, r, err)
		return
	}
	s.redirect(w, r, "/me/notices")
}

func (s *Server) setEmail(w http.ResponseWriter, r *http.Request) {
	f := club.EmailForm{Address: r.PostFormValue("email"), Off: r.PostFormValue("email_off") == "yes"}
	err := s.svc.Notices.SetEmail(r.Context(), currentUser(r), f)
	switch club.ErrorCode(err) {
	case "":
		s.redirect(w, r, "/me/notices")
	case club.Invalid:
		s.renderNotices(w, r, http.StatusBadRequest, s.errorText(s.page(r).Lang, err))
	default:
		s.fail(w, r, err)
	}
}

// editNightForm shows a night's form filled with what it is now.
func (s *Server) editNightForm(w http.ResponseWriter, r *http.Request) {
	id, err := nightID(r)
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
	p.Title = p.T("nights.edit")
	local := n.StartsAt.In(s.zone())
	s.render(w, "night_new", newNightView{Page: p, Action: s.path(fmt.Sprintf("/nights/%d/edit", id)), Editing: true,
		Date: local.Format("2006-01-02"), Time: local.Format("15:04"), Place: n.Place, Note: n.Note,
		Tables: strconv.Itoa(n.Tables), PerTable: strconv.Itoa(n.PerTable)})
}

// editNight saves an admin's changes to a night.
func (s *Server) editNight(w http.ResponseWriter, r *http.Request) {
	id, err := nightID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r)
	p.Title = p.T("nights.edit")
	v := s.nightFormView(r, p)
	v.Action, v.Editing = s.path(fmt.Sprintf("/nights/%d/edit", id)), true
	f, err := s.nightForm(v)
	if err == nil {
		if _, err = s.svc.Nights.Edit(r.Context(), currentUser(r), id, f); err == nil {
			s.redirect(w, r, fmt.Sprintf("/nights/%d", id))
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

// cancelNightByAdmin cancels a night (the page asks for a confirmation first).
func (s *Server) cancelNightByAdmin(w http.ResponseWriter, r *http.Request) {
	id, err := nightID(r)
	if err == nil {
		err = s.svc.Nights.CancelNight(r.Context(), currentUser(r), id)
	}
	s.backToNight(w, r, id, err)
}

type strikeRow struct {
	club.StrikeCount
	Status string
}

type strikesView struct {
	Page
	From, To string
	Rule     club.StrikeRule
	Rows     []strikeRow
	Error    string
}

// strikesPage is the admin's report of strikes per member over a period (by default the last twelve weeks).
func (s *Server) strikesPage(w http.ResponseWriter, r *http.Request) {
	s.renderStrikes(w, r, http.StatusOK, "")
}

func (s *Server) renderStrikes(w http.ResponseWriter, r *http.Request, code int, errText string) {
	p := s.page(r)
	p.Title = p.T("strikes.title")
	now := s.now()
	v := strikesView{Page: p, Error: errText, To: now.Format("2006-01-02"), From: now.AddDate(0, 0, -84).Format("2006-01-02")}
	if q := r.URL.Query().Get("from"); q != "" {
		v.From = q
	}
	if q := r.URL.Query().Get("to"); q != "" {
		v.To = q
	}
	from, err1 := time.ParseInLocation("2006-01-02", v.From, s.zone())
	to, err2 := time.ParseInLocation("2006-01-02", v.To, s.zone())
	if err1 != nil || err2 != nil {
		s.fail(w, r, club.Errorf(club.Invalid, "the period: dates like 2026-09-01"))
		return
	}
	rep, err := s.svc.Nights.StrikeReport(r.Context(), p.User, from, to)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.Rule = rep.Rule
	for _, m := range rep.Members {
		v.Rows = append(v.Rows, strikeRow{StrikeCount: m, Status: p.T("status." + string(m.Status))})
	}
	w.WriteHeader(code)
	s.render(w, "strikes", v)
}

func (s *Server) setStrikeRule(w http.ResponseWriter, r *http.Request) {
	n, err1 := strconv.Atoi(strings.TrimSpace(r.PostFormValue("strikes")))
	weeks, err2 := strconv.Atoi(strings.TrimSpace(r.PostFormValue("weeks")))
	var err error
	if err1 != nil || err2 != nil {
		err = club.Errorf(club.Invalid, "1 to 100 strikes within 1 to 104 weeks")
	} else {
		err = s.svc.Nights.SetStrikeRule(r.Context(), currentUser(r), club.StrikeRule{Strikes: n, Weeks: weeks})
	}
	switch club.ErrorCode(err) {
	case "":
		s.redirect(w, r, "/admin/strikes")
	case club.Invalid:
		s.renderStrikes(w, r, http.StatusBadRequest, s.errorText(s.page(r).Lang, err))
	default:
		s.fail(w, r, err)
	}
}
