package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"mafiaclub/internal/club"
	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

type optionField struct {
	Key, Kind string
	Required  bool
	Bool      bool
	Text      string
	Choices   []string
}

type seatField struct {
	N           int
	Name, Role  string
	Guest       bool
	RoleChoices []string
}

type newGameView struct {
	Page
	Rules      []*mafia.Rules
	RulesID    string
	Players    []club.Player
	N          int
	Counts     []int
	Options    []optionField
	Seats      []seatField
	Deal       string // "random" or "hand"
	Shuffle    bool
	Rated      bool
	Mafia      int // home rule sets: how many mafia to deal
	Doctor     bool
	FixedTable bool
	HasDoctor  bool // the rule set has a doctor (the engine says), so the random deal may include one
	Error      string
	NightID    int64
	Pool       []string // the club night's main line-up, then its reserve: the seating pool
}

// clubExtrasOption is the option of the club's extras, whose default the club's identity sets (club.Club.ClubExtras).
const clubExtrasOption = "club_extras"

func (s *Server) newGameForm(w http.ResponseWriter, r *http.Request) {
	v := s.newGameFromForm(r)
	if v.NightID != 0 {
		// a game of a club night: its registered players are the seating pool, the main line-up first
		if _, err := s.svc.Nights.Night(r.Context(), v.NightID); err != nil {
			s.fail(w, r, err)
			return
		}
		pool, err := s.svc.Nights.Pool(r.Context(), currentUser(r), v.NightID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		v.Pool = pool
		if !r.Form.Has("form") {
			for i := range v.Seats {
				if i < len(v.Pool) {
					v.Seats[i].Name = v.Pool[i]
				}
			}
		}
	}
	s.renderNewGame(w, r, http.StatusOK, v, "")
}

// newGameFromForm reads the form (or the query on first display) into the view, with the rule set's defaults.
func (s *Server) newGameFromForm(r *http.Request) newGameView {
	r.ParseForm()
	first := !r.Form.Has("form") // the form's own fields are there once it has been shown
	p := s.page(r)
	p.Title = p.T("new.title")
	v := newGameView{Page: p, Rules: mafia.RuleSets(), RulesID: r.Form.Get("rules"), Deal: r.Form.Get("deal"),
		Rated: r.Form.Get("rated") == "on" || first, Shuffle: r.Form.Get("shuffle") == "on"}
	rs, ok := mafia.RuleSet(v.RulesID)
	if !ok { // the club's default rule set (its admin's choice, /admin/club)
		if rs, ok = mafia.RuleSet(p.Club.RulesID()); !ok {
			rs, _ = mafia.RuleSet(club.ClubRules)
		}
		v.RulesID = rs.ID
	}
	if v.Deal != "hand" {
		v.Deal = "random"
	}
	_, v.FixedTable = rs.Composition(rs.MaxPlayers)
	for n := rs.MinPlayers; n <= rs.MaxPlayers && n <= 16; n++ {
		v.Counts = append(v.Counts, n)
	}
	v.N, _ = strconv.Atoi(r.Form.Get("n"))
	if v.N < rs.MinPlayers || v.N > rs.MaxPlayers {
		v.N = 10
		if v.N < rs.MinPlayers || v.N > rs.MaxPlayers {
			v.N = rs.MinPlayers
		}
	}
	v.Mafia, _ = strconv.Atoi(r.Form.Get("mafia"))
	if v.Mafia < 1 {
		v.Mafia = max(1, v.N/4)
	}
	v.Doctor = r.Form.Get("doctor") == "on"
	v.NightID, _ = strconv.ParseInt(r.Form.Get("night"), 10, 64)
	for _, key := range rs.OptionKeys() {
		info, _ := rs.Option(key)
		f := optionField{Key: key, Required: info.Required, Choices: info.Choices}
		given := r.Form.Has("opt_" + key)
		switch info.Kind {
		case mafia.OptBool:
			f.Kind = "bool"
			f.Bool = info.Default.Bool
			if key == clubExtrasOption {
				f.Bool = p.Club.ClubExtras // whether the club's extras start on is the club's choice
			}
			if r.Form.Has("opt_" + key + "_shown") {
				f.Bool = r.Form.Get("opt_"+key) == "on"
			}
		case mafia.OptPoints:
			f.Kind = "text"
			// the two values as the page's language writes them: "0.4, 0.25" in English, "0,4; 0,25" in Ukrainian
			// and Russian, whose decimal comma would make a comma between them ambiguous (pointsPairJSON reads both)
			sep := ", "
			if i18n.DecimalSeparator(v.Lang) == "," {
				sep = "; "
			}
			f.Text = v.Decimal(record.FormatPoints(info.Default.Points[0])) + sep + v.Decimal(record.FormatPoints(info.Default.Points[1]))
		case mafia.OptList:
			f.Kind = "text"
			f.Text = strings.Join(info.Choices, ", ")
		case mafia.OptChoice:
			f.Kind = "choice"
			f.Text = info.Choices[0]
		}
		if given && f.Kind != "bool" {
			f.Text = r.Form.Get("opt_" + key)
		}
		v.Options = append(v.Options, f)
	}
	var roleChoices []string
	for _, role := range rs.Roles() {
		roleChoices = append(roleChoices, role.String())
		v.HasDoctor = v.HasDoctor || role == mafia.Doctor
	}
	for i := 1; i <= v.N; i++ {
		k := strconv.Itoa(i)
		v.Seats = append(v.Seats, seatField{N: i, Name: strings.TrimSpace(r.Form.Get("name" + k)), Role: r.Form.Get("role" + k),
			Guest: r.Form.Get("guest"+k) == "on", RoleChoices: roleChoices})
	}
	return v
}

func (s *Server) renderNewGame(w http.ResponseWriter, r *http.Request, code int, v newGameView, errText string) {
	players, err := s.svc.Accounts.SearchPlayers(r.Context(), currentUser(r), "", 200)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.Players, v.Error = players, errText
	w.WriteHeader(code)
	s.render(w, "newgame", v)
}

// createGame starts a game from the form: the seats (club players found by nickname, or guests), shuffled if
// asked, the roles dealt at random on the server or entered as dealt with cards (club.Games.Start checks them
// with the engine), and the options.
func (s *Server) createGame(w http.ResponseWriter, r *http.Request) {
	v := s.newGameFromForm(r)
	rs, _ := mafia.RuleSet(v.RulesID)
	ng := club.NewGame{Rules: rs.ID, Options: v.optionJSON(), Rated: v.Rated, NightID: v.NightID, Shuffle: v.Shuffle,
		Deal: v.Deal == "random", Mafia: v.Mafia, Doctor: v.Doctor}
	for _, f := range v.Seats {
		ng.Seats = append(ng.Seats, club.NewSeat{Name: f.Name, Role: f.Role, Guest: f.Guest})
	}
	g, err := s.svc.Games.Start(r.Context(), currentUser(r), ng)
	switch {
	case err == nil:
		s.Live.Publish(g.ID, g.Version) // the live pages list it
		s.redirect(w, r, "/games/"+strconv.FormatInt(g.ID, 10))
	case errors.Is(err, club.ErrRoles):
		key := "new.err.setup"
		if ng.Deal {
			key = "new.err.deal"
		}
		s.renderNewGame(w, r, http.StatusBadRequest, v, v.T(key, s.roleError(v.Page, rs, v.N, err)))
	case club.ErrorCode(err) == club.Invalid || club.ErrorCode(err) == club.NotFound:
		s.renderNewGame(w, r, status(club.ErrorCode(err)), v, v.T("new.err.setup", s.messageText(v.Lang, err)))
	default:
		s.fail(w, r, err)
	}
}

// optionJSON is the form's options as the record's JSON values.
func (v newGameView) optionJSON() map[string][]byte {
	opts := map[string][]byte{}
	for _, f := range v.Options {
		var raw []byte
		switch f.Kind {
		case "bool":
			raw, _ = json.Marshal(f.Bool)
		case "choice":
			raw, _ = json.Marshal(f.Text)
		default:
			if f.Key == "bm_points" {
				raw = pointsPairJSON(f.Text)
			} else {
				var items []string
				for _, it := range strings.Split(f.Text, ",") {
					if it = strings.TrimSpace(it); it != "" {
						items = append(items, it)
					}
				}
				raw, _ = json.Marshal(items)
			}
		}
		opts[f.Key] = raw
	}
	return opts
}

// pointsPairJSON reads the best move's two point values as the form shows them, "0.4, 0.25" or with decimal commas
// "0,4; 0,25", into the record's JSON pair.
func pointsPairJSON(text string) []byte {
	if strings.Contains(text, ";") {
		parts := strings.Split(text, ";")
		for i := range parts {
			parts[i] = i18n.ReadDecimal(parts[i])
		}
		text = strings.Join(parts, ", ")
	}
	return []byte("[" + text + "]")
}

// playerSearch answers the seating form's search: club players whose nickname contains q.
func (s *Server) playerSearch(w http.ResponseWriter, r *http.Request) {
	ps, err := s.svc.Accounts.SearchPlayers(r.Context(), currentUser(r), r.URL.Query().Get("q"), 20)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	type item struct {
		ID   int64  `json:"id"`
		Nick string `json:"nick"`
	}
	out := []item{}
	for _, p := range ps {
		out = append(out, item{p.ID, p.Nick})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// roleError says in the host's language what the rule set's role table needs for n players; for the home rule
// sets, which have no fixed table, it adds the engine's words.
func (s *Server) roleError(p Page, rs *mafia.Rules, n int, err error) string {
	comp, ok := rs.Composition(n)
	if !ok {
		var ce *club.Error
		if errors.As(err, &ce) && ce.Format != "" {
			return s.errorText(p.Lang, ce)
		}
		cause := err
		if ce != nil && ce.Cause != nil {
			cause = ce.Cause
		}
		msg := cause.Error()
		if j, isJoin := cause.(interface{ Unwrap() []error }); isJoin && len(j.Unwrap()) == 2 {
			msg = j.Unwrap()[1].Error() // the engine's own words, after ErrRoles
		}
		return p.T("new.err.roles_free", p.RulesTitle(rs), msg)
	}
	var parts []string
	for _, role := range []mafia.Role{mafia.Citizen, mafia.Sheriff, mafia.Mafia, mafia.Don} {
		if comp[role] > 0 {
			parts = append(parts, fmt.Sprintf("%d × %s", comp[role], p.T("role."+role.String())))
		}
	}
	return p.N("new.err.roles.n", n, p.RulesTitle(rs), strings.Join(parts, ", "))
}
