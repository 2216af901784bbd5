package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/convert"
	"mafiaclub/internal/hostview"
	"mafiaclub/mafia"
)

// maxUpload bounds an import request: many game files of a few kilobytes each.
const maxUpload = 16 << 20

// importMemory is how much of an upload is held in memory while it is read; the rest waits in temporary files.
const importMemory = 2 << 20

type importLine struct {
	File   string
	GameID int64
	// Unfinished: the game has no result and was filed as a live game, for a host to continue.
	Unfinished bool
	Error      string
}

type importView struct {
	Page
	From   string
	Rated  bool
	Report []importLine
	Error  string
}

func (s *Server) importForm(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("import.title")
	s.render(w, "import", importView{Page: p, From: "mafiaratings", Rated: true})
}

// importGames converts each uploaded file and files it: a finished game in the history, an unfinished one as a
// live game for a host to continue (club.Games.Import); the report says, file by file, what was imported and how,
// and what was refused and why. A refused file changes nothing.
//
// An import is heavy work (club.HeavyWork): beyond the club's share it is refused at once, 503 with Retry-After,
// before its upload is read.
func (s *Server) importGames(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Heavy.Do(r.Context(), func() error { s.importUpload(w, r); return nil }); err != nil {
		s.fail(w, r, err)
	}
}

// importUpload reads the upload and imports it, within the heavy work's bound.
func (s *Server) importUpload(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("import.title")
	r.Body = http.MaxBytesReader(w, r.Body, maxUpload)
	err := r.ParseMultipartForm(importMemory)
	v := importView{Page: p, From: r.FormValue("from"), Rated: r.FormValue("rated") == "on"}
	if err != nil {
		v.Error = p.T("import.too_big")
		w.WriteHeader(http.StatusBadRequest)
		s.render(w, "import", v)
		return
	}
	var importer func([]byte) (*convert.Imported, error)
	switch v.From {
	case "mafiaratings":
		importer = convert.ImportMafiaratings
	case "polemica": // its times have no offset: the club's clock
		importer = func(data []byte) (*convert.Imported, error) { return convert.ImportPolemicaIn(data, s.zone()) }
	default:
		s.fail(w, r, club.Errorf(club.Invalid, "unknown platform %q", v.From))
		return
	}
	files := r.MultipartForm.File["files"]
	if len(files) == 0 {
		v.Error = p.T("import.none")
		w.WriteHeader(http.StatusBadRequest)
		s.render(w, "import", v)
		return
	}
	for _, fh := range files {
		line := importLine{File: fh.Filename}
		f, err := fh.Open()
		var data []byte
		if err == nil {
			data, err = io.ReadAll(f)
			f.Close()
		}
		if err != nil { // the upload's temporary file could not be read: the server's trouble, not the file's
			s.Log.Error("import: reading an upload", "file", fh.Filename, "err", err)
			line.Error = s.errorText(p.Lang, err)
			v.Report = append(v.Report, line)
			continue
		}
		im, err := importer(data)
		if err != nil {
			line.Error = importErrorText(p, v.From, err)
			v.Report = append(v.Report, line)
			continue
		}
		var source, startedText string
		_ = json.Unmarshal(im.Record.Extra["id"], &source)
		_ = json.Unmarshal(im.Record.Extra["started"], &startedText)
		started, _ := time.Parse(time.RFC3339, startedText)
		g, err := s.svc.Games.Import(r.Context(), currentUser(r), im.Record, source, started, v.Rated)
		if err != nil {
			if club.ErrorCode(err) == club.Internal {
				s.Log.Error("import", "file", fh.Filename, "err", err)
			}
			line.Error = s.errorText(p.Lang, err)
			if club.ErrorCode(err) == club.Conflict {
				line.Error = p.T("import.duplicate", source)
			}
		} else {
			line.GameID, line.Unfinished = g.ID, g.Status == club.GameLive
			if line.Unfinished {
				s.Live.Publish(g.ID, g.Version) // the live pages list it
			}
		}
		v.Report = append(v.Report, line)
	}
	s.render(w, "import", v)
}

// platformNames are the platforms as their own sites spell them.
var platformNames = map[string]string{"mafiaratings": "mafiaratings", "polemica": "Polemica"}

// importErrorText says why an importer refused a file, in the reader's language: a file that is not a game of the
// platform's format (an *convert.InputError) or a game that cannot become our record (a *convert.GameError).
func importErrorText(p Page, platform string, err error) string {
	var ie *convert.InputError
	if errors.As(err, &ie) {
		return p.T("import.malformed", platformNames[platform], convertText(p, ie.Where, ie.Format, ie.Args, ie.What))
	}
	var ge *convert.GameError
	if errors.As(err, &ge) {
		return p.T("import.cannot", convertText(p, ge.Where, ge.Format, ge.Args, ge.What))
	}
	return p.T("import.cannot", err.Error()) // no importer refuses otherwise
}

// convertText says an importer's message in the reader's language: where in the file (its field path as the file
// spells it, the words beside it translated: convert.Place) and what is wrong, from the catalogue's "convert:" +
// the importer's format, each argument that is words said in the language too. A format the catalogue lacks keeps
// the importer's English (a test in internal/convert fails on one).
func convertText(p Page, where, format string, args []any, english string) string {
	what, ok := convertFormat(p, format, args)
	if !ok {
		what = english
	}
	var w strings.Builder
	for _, part := range convert.Place(where) {
		if ph, ok := part.(convert.Phrase); ok {
			w.WriteString(convertPhrase(p, ph))
		} else {
			fmt.Fprint(&w, part)
		}
	}
	if w.Len() == 0 {
		return what
	}
	return w.String() + ": " + what
}

// convertFormat says an importer's format through the catalogue: "convert:" + format, or its plural key
// "convert:" + format + ".n" for a message that counts (the count its first argument).
func convertFormat(p Page, format string, args []any) (string, bool) {
	if format == "" {
		return "", false
	}
	local := make([]any, len(args))
	for i, a := range args {
		local[i] = convertArg(p, a)
	}
	if key := "convert:" + format; p.cat.Has(key) {
		return p.T(key, local...), true
	}
	if key := "convert:" + format + ".n"; p.cat.Has(key) && len(args) > 0 {
		if n, ok := countArg(args[0]); ok {
			return p.N(key, n, local[1:]...), true
		}
	}
	return "", false
}

func convertPhrase(p Page, ph convert.Phrase) string {
	if text, ok := convertFormat(p, ph.Format, ph.Args); ok {
		return text
	}
	return ph.String()
}

// convertArg says an argument of an importer's message that is words in the reader's language: a phrase, a rule
// set, an option, a role, a voting's state, an error of the engine or of an importer. Numbers, seat lists and
// what the message quotes from the file are said as they are.
func convertArg(p Page, a any) any {
	switch v := a.(type) {
	case convert.Phrase:
		return convertPhrase(p, v)
	case convert.Phrases:
		s := make([]string, len(v))
		for i, ph := range v {
			s[i] = convertPhrase(p, ph)
		}
		return strings.Join(s, "; ")
	case convert.RuleSet:
		if rs, ok := mafia.RuleSet(string(v)); ok {
			return p.RulesTitle(rs)
		}
		return string(v)
	case convert.Option:
		return p.T("opt." + string(v))
	case mafia.Role:
		return p.T("role." + v.String())
	case mafia.VotingStatus:
		return p.T("voting." + v.String())
	case error:
		var ie *convert.InputError
		var ge *convert.GameError
		var re *mafia.RuleError
		switch {
		case errors.As(v, &ie):
			return convertText(p, ie.Where, ie.Format, ie.Args, ie.What)
		case errors.As(v, &ge):
			return convertText(p, ge.Where, ge.Format, ge.Args, ge.What)
		case errors.As(v, &re):
			return hostview.RuleText(p.cat, p.Lang, v, re)
		}
		return v.Error()
	}
	return a
}
