package hostview

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"
)

//go:embed host.html
var templateFS embed.FS

var (
	page         = template.Must(template.New("host.html").ParseFS(templateFS, "host.html"))
	seatTemplate = page.Lookup("_seat")
)

// Render writes the host page's content (the element the browser's engine redraws after each action).
func Render(w io.Writer, v *View) error {
	v.cardPage()
	return page.ExecuteTemplate(w, "host", v)
}

// RenderCached is Render with parts of the page taken from c where the same part was drawn before: the seats'
// cards, the discipline's forms, the points' rows and the chronology but its last line. The browser's engine draws
// the page once for every action the page offers (drawn ahead), and those pages are mostly the same: a nomination,
// a foul or a check changes one or two cards of ten and adds a line to the chronology. A part is drawn by the same
// template either way, so the page is the same byte for byte (TestPartCacheDrawsTheSamePage). The parts were
// nearly half of a drawing's time in WebAssembly (docs/host-app.md).
func RenderCached(w io.Writer, v *View, c *PartCache) error {
	v.cards = c
	defer func() { v.cards = nil }()
	return Render(w, v)
}

// CardPage is what of the page a seat's card shows. The card's template ("_seat") reads nothing but its seat and
// this, so that the two are the whole key of its drawing (cardKey).
type CardPage struct {
	Live                     bool
	Act                      string // the address of the page's actions
	FormVersion              string
	Speaker, Checker, Healer int
	L                        Labels
}

// cardPage gives every seat of v its card's page.
func (v *View) cardPage() {
	p := &CardPage{Live: v.Live, Act: v.act(), FormVersion: v.FormVersion,
		Speaker: v.Speaker, Checker: v.Checker, Healer: v.Healer, L: v.L}
	for i := range v.Seats {
		v.Seats[i].P = p
	}
}

type cardKey struct {
	S SeatView // P nil
	P CardPage
}

// Cached says whether parts of the page come from a PartCache (RenderCached).
func (v *View) Cached() bool { return v.cards != nil }

// Card draws seat i's card, from v's PartCache if it has the same card.
func (v *View) Card(i int) (template.HTML, error) {
	s := &v.Seats[i]
	k := cardKey{S: *s, P: *s.P}
	k.S.P = nil
	if html, ok := v.cards.cards.get(k); ok {
		return html, nil
	}
	var b strings.Builder
	if err := seatTemplate.Execute(&b, s); err != nil {
		return "", err
	}
	html := template.HTML(b.String()) // drawn by html/template, which escaped it
	v.cards.cards.put(k, html)
	return html, nil
}

// cardCacheSize bounds a PartCache: it keeps the cards of its last two generations of this many (a page has up to
// ten cards, and drawing every action of a page ahead makes 10-40 more: some 3 MB at most, at 1.5 KB a card), and
// the other parts of the last two generations of a sixteenth of it (a long game's chronology is some 20 KB, and
// its key as long again: some 5 MB at most).
const cardCacheSize = 1024

// A PartCache keeps parts of pages drawn, for RenderCached. Its zero value is ready; nil keeps nothing. It is not
// safe for concurrent use (the browser's engine draws one page at a time). It serves one catalogue: a part's key
// holds its words, not the catalogue they came from.
type PartCache struct {
	cards gens[cardKey] // by the seat and what of the page it shows
	// the other parts of the page drawn (Section), by their template's name and data, a sixteenth as many
	sections gens[string]
}

// gens keeps drawings by their key in two generations of up to size (0: cardCacheSize): when the newer is full it
// becomes the older, and the older is dropped; a drawing found in the older is kept into the newer.
type gens[K comparable] struct {
	now, old     map[K]template.HTML
	size         int
	hits, misses int // the drawings found, and not
}

func (g *gens[K]) get(k K) (template.HTML, bool) {
	if html, ok := g.now[k]; ok {
		g.hits++
		return html, true
	}
	html, ok := g.old[k]
	if ok {
		g.hits++
		g.put(k, html) // still in use
	} else {
		g.misses++
	}
	return html, ok
}

func (g *gens[K]) put(k K, html template.HTML) {
	size := g.size
	if size == 0 {
		size = cardCacheSize
	}
	if len(g.now) >= size {
		g.old, g.now = g.now, nil
	}
	if g.now == nil {
		g.now = make(map[K]template.HTML, size)
	}
	g.now[k] = html
}

func (g *gens[K]) len() int { return len(g.now) + len(g.old) }

// DisciplineView is the discipline's forms (a disqualification, a warning, a team's loss, a correction of points,
// a draw), all that their template ("_discipline") reads. Its words and keys are in it too, so that it is the whole
// key of its drawing in a PartCache: between one action and the next it seldom changes, and its four lists of
// seats were two fifths of a page's drawing once the cards were cached.
type DisciplineView struct {
	Act, FormVersion                        string
	DQ, Warning, TeamLoss, ShowAdjust, Draw bool
	KeyDQ, KeyWarning, KeyTeamLoss, KeyDraw string
	Seats                                   []DisciplineSeat
	Adjust                                  AdjustView
	W                                       DisciplineWords
}

// DisciplineSeat is a seat as the discipline's lists show it.
type DisciplineSeat struct {
	N                      int
	Name                   string
	Disciplinable          bool
	DQConfirm, TeamConfirm string
}

// DisciplineWords are the discipline's words in the page's language.
type DisciplineWords struct {
	Discipline, ConfirmDQ, Seat, Reason, Disqualify, Warning, ConfirmTeam, TeamLoss, ConfirmDraw, Draw string
}

// AdjustView is the form of a correction of points ("_adjust"), in the discipline's forms and under a finished
// game's result.
type AdjustView struct {
	Act, FormVersion, Key string
	Seats                 []AdjustSeat
	Free                  bool // points typed (X-Craft), not chosen from Steps
	Hint                  string
	Steps                 []AdjustStep
	W                     AdjustWords
}

// AdjustSeat is a seat in the correction's list.
type AdjustSeat struct {
	N    int
	Name string
}

// AdjustWords are the correction's words.
type AdjustWords struct {
	Adjust, Seat, Points, Reason, Submit string
}

func (v *View) act() string { return v.Base + "/games/" + strconv.FormatInt(v.GameID, 10) + "/act" }

// key is a fresh idempotency key for a form shown (on, with a key maker), or none.
func (v *View) key(on bool) string {
	if on && v.NewKey != nil {
		return v.NewKey()
	}
	return ""
}

// Discipline is the discipline's forms as the page shows them now.
func (v *View) Discipline() DisciplineView {
	d := DisciplineView{Act: v.act(), FormVersion: v.FormVersion,
		DQ: v.Allowed["disqualify"], Warning: v.Allowed["warning"] && !v.WarningsMatter, TeamLoss: v.Allowed["team_loss"],
		ShowAdjust: v.Allowed["adjust"] && !v.Finished, Draw: v.Allowed["draw"],
		W: DisciplineWords{Discipline: v.T("game.discipline"), ConfirmDQ: v.T("game.confirm_dq"), Seat: v.T("game.seat"),
			Reason: v.T("game.reason"), Disqualify: v.T("game.disqualify"), Warning: v.T("game.warning"),
			ConfirmTeam: v.T("game.confirm_team"), TeamLoss: v.T("game.team_loss"), ConfirmDraw: v.T("game.confirm_draw"), Draw: v.T("game.draw")}}
	// the keys in the order the forms come
	d.KeyDQ, d.KeyWarning, d.KeyTeamLoss = v.key(d.DQ), v.key(d.Warning), v.key(d.TeamLoss)
	if d.ShowAdjust {
		d.Adjust = v.AdjustForm()
	}
	d.KeyDraw = v.key(d.Draw)
	d.Seats = make([]DisciplineSeat, len(v.Seats))
	for i, s := range v.Seats {
		d.Seats[i] = DisciplineSeat{N: s.N, Name: s.Name, Disciplinable: s.Disciplinable, DQConfirm: s.DQConfirm, TeamConfirm: s.TeamConfirm}
	}
	return d
}

// AdjustForm is the form of a correction of points.
func (v *View) AdjustForm() AdjustView {
	a := AdjustView{Act: v.act(), FormVersion: v.FormVersion, Key: v.key(true), Free: v.FreeAdjust, Hint: v.AdjustHint, Steps: v.Adjust,
		W: AdjustWords{Adjust: v.T("game.adjust"), Seat: v.T("game.seat"), Points: v.T("game.points"), Reason: v.T("game.reason"), Submit: v.T("game.adjust_submit")}}
	a.Seats = make([]AdjustSeat, len(v.Seats))
	for i, s := range v.Seats {
		a.Seats[i] = AdjustSeat{N: s.N, Name: s.Name}
	}
	return a
}

// ChronoHead is the chronology but its last line, and ChronoTail that line: the pages drawn ahead of a page share
// its chronology and add a line each.
func (v *View) ChronoHead() []ChronoLine { return v.Chrono[:max(0, len(v.Chrono)-1)] }

// ChronoTail is the chronology's last line (none when it has none).
func (v *View) ChronoTail() []ChronoLine { return v.Chrono[max(0, len(v.Chrono)-1):] }

// Section draws the template name with data (a struct of strings, numbers and lists of them, which is all the
// template reads: the key of its drawing), from v's PartCache if it has drawn the same before.
func (v *View) Section(name string, data any) (template.HTML, error) {
	k := name + "\x00" + fmt.Sprintf("%#v", data)
	g := &v.cards.sections
	if g.size == 0 {
		g.size = cardCacheSize / 16
	}
	if html, ok := g.get(k); ok {
		return html, nil
	}
	var b strings.Builder
	if err := page.ExecuteTemplate(&b, name, data); err != nil {
		return "", err
	}
	html := template.HTML(b.String()) // drawn by html/template, which escaped it
	g.put(k, html)
	return html, nil
}
