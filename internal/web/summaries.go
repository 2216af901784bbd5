package web

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"mafiaclub/internal/club"
	"mafiaclub/internal/hostview"
	"mafiaclub/mafia"
)

// maxSummaryUpload bounds a file of summaries: a season of a thousand games is about half a megabyte as CSV. The
// preview carries the file to its confirmation (base64 in the form, a third more), which stays within the bound
// Go puts on a form's body (10 MB).
const maxSummaryUpload = 4 << 20

type summariesView struct {
	Page
	Error    string
	Problems []string
	Preview  *club.SummaryPreview
	Data     string // the previewed file, base64, for its confirmation
	Done     *club.SummaryReport
	Log      []club.SummaryLogEntry
	Period   string
}

// summariesPage is the admin's page of the old protocols: the upload, and the log of imports and deletions.
func (s *Server) summariesPage(w http.ResponseWriter, r *http.Request) {
	s.renderSummaries(w, r, http.StatusOK, summariesView{})
}

func (s *Server) renderSummaries(w http.ResponseWriter, r *http.Request, code int, v summariesView) {
	p := s.page(r)
	p.Title = p.T("summaries.title")
	v.Page = p
	log, err := s.svc.Summaries.Log(r.Context(), currentUser(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.Log = log
	if v.Preview != nil && !v.Preview.From.IsZero() {
		v.Period = p.T("summaries.period", p.Time(v.Preview.From)[:10], p.Time(v.Preview.To)[:10])
	}
	for _, pr := range problemsOf(v.Preview, v.Done) {
		v.Problems = append(v.Problems, s.summaryProblemText(p, pr))
	}
	if code != http.StatusOK {
		w.WriteHeader(code)
	}
	s.render(w, "summaries", v)
}

func problemsOf(pv *club.SummaryPreview, done *club.SummaryReport) []club.SummaryProblem {
	if pv != nil {
		return pv.Problems
	}
	if done != nil && done.SummaryPreview != nil {
		return done.Problems
	}
	return nil
}

// previewSummaries reads the uploaded file and shows what its import would do, with the button that confirms it.
// Heavy work (club.HeavyWork), its upload bounded.
func (s *Server) previewSummaries(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Heavy.Do(r.Context(), func() error {
		p := s.page(r)
		r.Body = http.MaxBytesReader(w, r.Body, maxSummaryUpload+64<<10)
		if err := r.ParseMultipartForm(importMemory); err != nil {
			s.renderSummaries(w, r, http.StatusBadRequest, summariesView{Error: p.T("summaries.too_big", maxSummaryUpload>>20)})
			return nil
		}
		f, fh, err := r.FormFile("file")
		if err != nil {
			s.renderSummaries(w, r, http.StatusBadRequest, summariesView{Error: p.T("summaries.none")})
			return nil
		}
		data, err := io.ReadAll(io.LimitReader(f, maxSummaryUpload+1))
		f.Close()
		if err != nil || len(data) > maxSummaryUpload {
			s.renderSummaries(w, r, http.StatusBadRequest, summariesView{Error: p.T("summaries.too_big", maxSummaryUpload>>20)})
			return nil
		}
		pv, err := s.svc.Summaries.Preview(r.Context(), currentUser(r), fh.Filename, data)
		if err != nil {
			return err
		}
		code := http.StatusOK
		if len(pv.Problems) > 0 {
			code = http.StatusUnprocessableEntity
		}
		s.renderSummaries(w, r, code, summariesView{Preview: pv, Data: base64.StdEncoding.EncodeToString(data)})
		return nil
	}); err != nil {
		s.fail(w, r, err)
	}
}

// importSummaries files the confirmed file: it is read and checked again (the preview is never trusted), and the
// games the history has already are skipped, so a retried confirmation files nothing twice.
func (s *Server) importSummaries(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Heavy.Do(r.Context(), func() error {
		p := s.page(r)
		r.Body = http.MaxBytesReader(w, r.Body, maxSummaryUpload*4/3+64<<10)
		if err := r.ParseForm(); err != nil {
			s.renderSummaries(w, r, http.StatusBadRequest, summariesView{Error: p.T("summaries.too_big", maxSummaryUpload>>20)})
			return nil
		}
		data, err := base64.StdEncoding.DecodeString(r.PostFormValue("data"))
		if err != nil || len(data) == 0 || len(data) > maxSummaryUpload {
			s.renderSummaries(w, r, http.StatusBadRequest, summariesView{Error: p.T("summaries.none")})
			return nil
		}
		rep, err := s.svc.Summaries.Import(r.Context(), currentUser(r), r.PostFormValue("file"), data)
		if err != nil && rep != nil {
			s.renderSummaries(w, r, http.StatusUnprocessableEntity, summariesView{Preview: rep.SummaryPreview, Data: r.PostFormValue("data")})
			return nil
		}
		if err != nil {
			return err
		}
		s.renderSummaries(w, r, http.StatusOK, summariesView{Done: rep})
		return nil
	}); err != nil {
		s.fail(w, r, err)
	}
}

// summaryProblemText says where a file's problem is and what it is, in the reader's language.
func (s *Server) summaryProblemText(p Page, pr club.SummaryProblem) string {
	var where []string
	if pr.Line > 0 {
		where = append(where, p.T("summaries.line", pr.Line))
	} else if pr.Game > 0 {
		where = append(where, p.T("summaries.game", pr.Game))
	}
	if pr.Seat > 0 {
		where = append(where, p.T("summaries.seat", pr.Seat))
	}
	if pr.Field != "" {
		if key := "summaries.field." + pr.Field; s.Catalog.Has(key) {
			where = append(where, p.T(key))
		} else {
			where = append(where, strconv.Quote(pr.Field))
		}
	}
	var what string
	if re := club.RuleError(pr.Rule); re != nil {
		what = hostview.RuleText(s.Catalog, p.Lang, pr.Rule, re)
	} else if pr.Rule != nil {
		what = pr.Rule.Error()
	} else {
		args := make([]any, len(pr.Args))
		for i, a := range pr.Args {
			switch v := a.(type) {
			case club.Hundredths:
				a = p.PointsText(int(v))
			case club.RoleCounts:
				a = s.roleCountsText(p, v)
			}
			args[i] = a
		}
		m, ok := s.Catalog.Msg(p.Lang, pr.Format, args...)
		if !ok {
			m = fmt.Sprintf(pr.Format, args...)
		}
		what = m
	}
	return strings.Join(where, ", ") + ": " + what
}

func (s *Server) roleCountsText(p Page, c club.RoleCounts) string {
	var roles []mafia.Role
	for r := range c {
		roles = append(roles, r)
	}
	sort.Slice(roles, func(i, j int) bool { return roles[i] < roles[j] })
	var parts []string
	for _, r := range roles {
		parts = append(parts, fmt.Sprintf("%d × %s", c[r], p.T("role."+r.String())))
	}
	return strings.Join(parts, ", ")
}

type summarySeatView struct {
	club.SummarySeat
	Role, Letter   string
	Won            bool
	Total, Extras  string
	Judge, Items   string
	BestMove, Link bool
}

type summaryView struct {
	Page
	Game      *club.Game
	Summary   *club.SummaryGame
	RulesName string
	Winner    string
	Seats     []summarySeatView
	BestMove  string
	Confirm   bool // the admin asked to delete it: the page asks him to confirm
}

// summaryRecord is the public page of a game from an old protocol, in place of a replayed game's record page; it
// reports false for a game that is none.
func (s *Server) summaryRecord(w http.ResponseWriter, r *http.Request, confirm bool) bool {
	id, err := gameID(r)
	if err != nil {
		return false
	}
	g, sg, err := s.svc.Summaries.Game(r.Context(), id)
	if err != nil || sg == nil {
		return false
	}
	p := s.page(r)
	p.Title = p.T("game.title", g.ID)
	v := summaryView{Page: p, Game: g, Summary: sg, RulesName: p.RulesName(g.Rules), Winner: p.T("winner." + sg.Winner.String()),
		Confirm: confirm && p.IsAdmin()}
	for i, st := range sg.Seats {
		sr := sg.Points[i]
		sv := summarySeatView{SummarySeat: st, Role: p.T("role." + st.Role.String()), Letter: p.RoleLetter(st.Role), Won: sr.Won,
			Total: p.PointsText(sr.Points), BestMove: sg.BestMove == st.Seat}
		sv.PlayerID = g.Seats[i].PlayerID
		var items []string
		for _, it := range sr.Score {
			items = append(items, p.T("item."+it.Item.String())+" "+p.SignedText(it.Points))
		}
		sv.Items = strings.Join(items, ", ")
		v.Seats = append(v.Seats, sv)
	}
	if sg.BestMove != 0 {
		var named []string
		for _, t := range sg.BestNamed {
			named = append(named, "#"+strconv.Itoa(t))
		}
		v.BestMove = fmt.Sprintf("#%d %s: %s", sg.BestMove, sg.Seats[sg.BestMove-1].Player, strings.Join(named, " "))
	}
	s.render(w, "summary", v)
	return true
}

// deleteSummary deletes a game from an old protocol once the admin confirmed it (the summary's page asks first).
func (s *Server) deleteSummary(w http.ResponseWriter, r *http.Request) {
	id, err := gameID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if r.PostFormValue("confirm") != "yes" {
		if !s.summaryRecord(w, r, true) {
			s.fail(w, r, club.Errorf(club.NotFound, "no such game"))
		}
		return
	}
	if err := s.svc.Summaries.Delete(r.Context(), currentUser(r), id); err != nil {
		s.fail(w, r, err)
		return
	}
	s.redirect(w, r, "/admin/summaries")
}
