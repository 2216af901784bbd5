package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/convert"
)

// maxUpload bounds an import request: many game files of a few kilobytes each.
const maxUpload = 16 << 20

// importMemory is how much of an upload is held in memory while it is read; the rest waits in temporary files.
const importMemory = 2 << 20

type importLine struct {
	File   string
	GameID int64
	Error  string
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

// importGames converts each uploaded file and files it in the history; the report says, file by file, what was
// imported and what was refused and why. A refused file changes nothing.
//
// An import is heavy work (club.Heavy): beyond the bound it is refused at once, 503 with Retry-After, before its
// upload is read.
func (s *Server) importGames(w http.ResponseWriter, r *http.Request) {
	if err := club.Heavy(r.Context(), func() error { s.importUpload(w, r); return nil }); err != nil {
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
		if err != nil {
			line.Error = err.Error()
			v.Report = append(v.Report, line)
			continue
		}
		im, err := importer(data)
		if err != nil {
			var ie *convert.InputError
			if errors.As(err, &ie) {
				line.Error = inputErrorText(p, v.From, ie)
			} else {
				line.Error = p.T("import.cannot", err.Error())
			}
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
			line.GameID = g.ID
		}
		v.Report = append(v.Report, line)
	}
	s.render(w, "import", v)
}

// platformNames are the platforms as their own sites spell them.
var platformNames = map[string]string{"mafiaratings": "mafiaratings", "polemica": "Polemica"}

// seatInPath is a seat in an importer's field path: "players[0] (seat 1).role".
var seatInPath = regexp.MustCompile(`\(seat (\d+)\)`)

// inputErrorText says why a file is not a game of the platform's format, in the reader's language: the frame, the
// field's path in the file as the file spells it (its seat in words), and what is wrong with it. The importers'
// common complaints (a field missing, a value of the wrong type, a seat that does not exist, the file not JSON)
// are in the catalogue as "convert:" + the importer's format; a rarer one, about one platform's field, keeps the
// importer's English words inside the translated frame.
func inputErrorText(p Page, platform string, ie *convert.InputError) string {
	what := ie.What
	if ie.Format != "" && p.cat.Has("convert:"+ie.Format) {
		what = p.T("convert:"+ie.Format, ie.Args...)
	}
	where := seatInPath.ReplaceAllStringFunc(ie.Where, func(m string) string {
		n, _ := strconv.Atoi(seatInPath.FindStringSubmatch(m)[1])
		return "(" + p.T("import.seat", n) + ")"
	})
	if where != "" {
		what = where + ": " + what
	}
	return p.T("import.malformed", platformNames[platform], what)
}
