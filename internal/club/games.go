package club

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// Games runs live games: it checks every action with the rules engine and appends it to the game's log, so that
// the log is always a record the engine accepts. Permissions are checked here, for every interface: a host runs a
// club game; a tournament game is run only by its table's judge or the chief judge, and its roles are shown to
// nobody else while it is played.
type Games struct {
	store Store
	clock *Clock
	tours *Tournaments
	cache stateCache
}

// State is a game as loaded: its setup, its log, the record built from them and the engine's state. A State is
// shared (the last state of every game is kept for the next request): nobody changes one.
type State struct {
	Game   *Game
	Log    []StoredEvent
	Record *record.Record
	Play   *mafia.Game
}

// NewGame is what a host chooses to start a game.
type NewGame struct {
	Rules   string
	Options map[string][]byte
	Seats   []NewSeat
	Rated   bool
	NightID int64
	// Shuffle seats the players in a random order (crypto/rand).
	Shuffle bool
	// Deal deals the roles at random on the server: the rule set's table, or for the home rule sets Mafia mafia,
	// a commissar and a doctor if Doctor. Otherwise each seat's Role is the card it was dealt.
	Deal   bool
	Mafia  int
	Doctor bool
}

// NewSeat is one seat of a new game: a club player found by his nickname, or a guest (never in the rating).
type NewSeat struct {
	Name     string
	Role     string
	Guest    bool
	PlayerID int64 // already known (a tournament's participant); 0 to look the nickname up
}

func (s *Games) now() time.Time { return s.clock.Now() }

func need(u *User, role Role) error {
	if u == nil {
		return Errorf(Unauthorized, "log in first")
	}
	if !u.Role.Can(role) {
		return Errorf(Forbidden, "this needs the %s role", role)
	}
	return nil
}

// ErrRoles wraps a role table the rule set refuses (a deal or cards entered by hand): Cause is the engine's error.
var ErrRoles = errors.New("the roles do not fit the rule set")

// Start creates a live game after checking the setup against the rule set: the seats (a name each, no name twice,
// club players found by nickname), the player count, the role table and the options.
func (s *Games) Start(ctx context.Context, u *User, ng NewGame) (*Game, error) {
	if err := need(u, RoleHost); err != nil {
		return nil, err
	}
	rs, ok := mafia.RuleSet(ng.Rules)
	if !ok {
		return nil, Errorf(Invalid, "unknown rule set %q", ng.Rules)
	}
	if ng.NightID != 0 {
		if _, err := s.store.Night(ctx, ng.NightID); err != nil {
			return nil, err
		}
	}
	seats := make([]Seat, len(ng.Seats))
	seen := map[string]bool{}
	for i, ns := range ng.Seats {
		name, err := cleanName(ns.Name, MaxNick, "name", true)
		if err != nil {
			return nil, err
		}
		if name == "" {
			return nil, Errorf(Invalid, "seat %d has no name", i+1)
		}
		if seen[NickKey(name)] {
			return nil, Errorf(Invalid, "%s sits twice", name)
		}
		seen[NickKey(name)] = true
		seats[i] = Seat{Seat: i + 1, Name: name, Role: ns.Role, PlayerID: ns.PlayerID}
		if !ns.Guest && ns.PlayerID == 0 {
			p, err := s.store.PlayerByNick(ctx, name)
			switch {
			case err == nil:
				seats[i].PlayerID, seats[i].Name = p.ID, p.Nick
			case ErrorCode(err) != NotFound:
				return nil, err
			}
		}
	}
	if ng.Shuffle {
		Shuffle(len(seats), func(i, j int) {
			seats[i].Name, seats[j].Name = seats[j].Name, seats[i].Name
			seats[i].PlayerID, seats[j].PlayerID = seats[j].PlayerID, seats[i].PlayerID
		})
	}
	if ng.Deal {
		roles, err := DealRoles(rs, len(seats), ng.Mafia, ng.Doctor)
		if err != nil {
			return nil, &Error{Code: Invalid, Message: err.Error(), Cause: errors.Join(ErrRoles, err)}
		}
		for i := range seats {
			seats[i].Role = roles[i].String()
		}
	} else {
		roles := make([]mafia.Role, len(seats))
		for i, st := range seats {
			roles[i], _ = mafia.ParseRole(st.Role)
		}
		if err := rs.ValidateRoles(roles); err != nil {
			return nil, &Error{Code: Invalid, Message: err.Error(), Cause: errors.Join(ErrRoles, err)}
		}
	}
	return s.start(ctx, u, rs.ID, ng.Options, seats, ng.Rated, ng.NightID, func(g *Game) { g.Dealt = ng.Deal })
}

// start stores a live game after checking its record, with a hook that fills in more of it (a tournament's slot).
func (s *Games) start(ctx context.Context, u *User, rules string, options map[string][]byte, seats []Seat, rated bool, nightID int64, more func(*Game)) (*Game, error) {
	opts := map[string][]byte{}
	for k, v := range options {
		opts[k] = v
	}
	rec, err := buildRecord(rules, opts, seats, nil)
	if err != nil {
		return nil, &Error{Code: Invalid, Message: err.Error(), Cause: err}
	}
	g := &Game{Rules: rec.Rules.ID, Options: rec.OptionJSON, Seats: seats, Rated: rated, Status: GameLive,
		HostID: u.ID, CreatedAt: s.now(), NightID: nightID}
	if more != nil {
		more(g)
	}
	if Seated(u, g) {
		return nil, ErrHostSeated
	}
	if err := s.store.CreateGame(ctx, g); err != nil {
		return nil, err
	}
	return g, nil
}

func buildRecord(rules string, opts map[string][]byte, seats []Seat, events []record.Event) (*record.Record, error) {
	rs := make([]record.Seat, len(seats))
	for i, st := range seats {
		role, ok := mafia.ParseRole(st.Role)
		if !ok {
			return nil, Errorf(Invalid, "seat %d has no role", st.Seat)
		}
		rs[i] = record.Seat{Seat: st.Seat, Role: role, Name: st.Name}
		if st.PlayerID != 0 {
			rs[i].Player = "p-" + strconv.FormatInt(st.PlayerID, 10)
		}
	}
	raw := map[string]json.RawMessage{}
	for k, v := range opts {
		raw[k] = v
	}
	return record.Build(rules, raw, rs, events)
}

// Load returns a game with its record and the engine's state, for a host. Nobody seated at a live game's table
// is shown it until its result is known, whatever his role (a host or an admin who plays that night): its
// roles, shots and checks are hidden from its players (ErrSeated). A tournament game that is still being played is
// shown only to its table's judge and the chief judge: its roles are hidden from everyone else.
func (s *Games) Load(ctx context.Context, u *User, id int64) (*State, error) {
	if err := need(u, RoleHost); err != nil {
		return nil, err
	}
	st, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.MayView(ctx, u, st); err != nil {
		return nil, err
	}
	return st, nil
}

// MayView checks that u may see st as a host sees it (its roles, shots and checks): Load's rule. Every service
// that refuses a change to a game returns the game's state with its refusal only once u has passed this check, so
// that an answer to a refused request never carries a card u may not see; the site checks it again before it
// draws a refused change's game.
func (s *Games) MayView(ctx context.Context, u *User, st *State) error {
	if err := need(u, RoleHost); err != nil {
		return err
	}
	if st.Game.Status == GameLive && !st.Play.Finished() {
		if Seated(u, st.Game) {
			return ErrSeated
		}
		if st.Game.StageID != 0 {
			if err := s.tours.mayHost(ctx, u, st.Game); err != nil {
				return err
			}
		}
	}
	return nil
}

// ErrSeated refuses a game's host pages and actions to one of its players: the account's player profile sits at
// the table of this live game. Another host runs it.
var ErrSeated = Errorf(Forbidden, "you sit at this table: its host's pages are closed to you while the game is played; another host runs it")

// Seated reports whether u's player profile sits at g's table.
func Seated(u *User, g *Game) bool {
	if u == nil || u.PlayerID == 0 {
		return false
	}
	for _, st := range g.Seats {
		if st.PlayerID == u.PlayerID {
			return true
		}
	}
	return false
}

// mayChange checks that u may change live game g: a host not seated at its table (ErrSeated, even once the result
// is known: the points and the save are another host's), and for a tournament game its table's judge or the chief
// judge.
func (s *Games) mayChange(ctx context.Context, u *User, g *Game) error {
	if err := need(u, RoleHost); err != nil {
		return err
	}
	if g.Status == GameLive && Seated(u, g) {
		return ErrSeated
	}
	return s.tours.mayHost(ctx, u, g)
}

// takeOver records that u, a host other than the game's, takes the game over with the change he is making (a host
// who relieves another, or who runs the table from his own device): the game is his from now on, and the
// chronology says who took it over from whom and when. Two hosts taking it over at once are logged once each
// only when each really took it from the other.
func (s *Games) takeOver(ctx context.Context, u *User, g *Game) error {
	if g.HostID == u.ID {
		return nil
	}
	from := ""
	if prev, err := s.store.User(ctx, g.HostID); err == nil {
		from = prev.Name
	}
	_, err := s.store.TakeOver(ctx, g.ID, g.HostID, u.ID, AuditEntry{At: s.now(), By: u.ID, Action: "take_over", Detail: from})
	return err
}

// List lists games for a host: live or saved (status), of a club night (nightID, 0 for all), newest first.
func (s *Games) List(ctx context.Context, u *User, status GameStatus, nightID int64, limit int) ([]Game, error) {
	if err := need(u, RoleHost); err != nil {
		return nil, err
	}
	return s.store.Games(ctx, GameFilter{Status: status, NightID: nightID, Limit: limit})
}

// CountLive counts the games being played, for the server's metrics.
func (s *Games) CountLive(ctx context.Context) (int, error) {
	return s.store.CountGames(ctx, GameFilter{Status: GameLive})
}

// Audit lists a game's undo, save and reopen entries, for a host.
func (s *Games) Audit(ctx context.Context, u *User, st *State) ([]AuditEntry, error) {
	if err := need(u, RoleHost); err != nil {
		return nil, err
	}
	return s.store.Audit(ctx, st.Game.ID)
}

// load returns a game's state: the one kept from the last request when the game's version has not moved since,
// or else its log read and replayed.
func (s *Games) load(ctx context.Context, id int64) (*State, error) {
	g, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if st := s.cache.get(id); st != nil && st.Game.Version == g.Version && st.Game.Status == g.Status && slices.Equal(st.Game.Seats, g.Seats) {
		fresh := *st
		fresh.Game = g
		return &fresh, nil
	}
	log, err := s.store.Events(ctx, id)
	if err != nil {
		return nil, err
	}
	// the whole log decoded in one pass
	var list bytes.Buffer
	list.WriteByte('[')
	for i, se := range log {
		if i > 0 {
			list.WriteByte(',')
		}
		list.Write(se.JSON)
	}
	list.WriteByte(']')
	events, err := record.DecodeEvents(list.Bytes(), len(g.Seats))
	if err != nil {
		return nil, &Error{Code: Internal, Message: "a stored event is not valid", Cause: err}
	}
	opts := map[string][]byte{}
	for k, v := range g.Options {
		opts[k] = v
	}
	rec, err := buildRecord(g.Rules, opts, g.Seats, events)
	if err != nil {
		return nil, &Error{Code: Internal, Message: "stored game is not a valid record", Cause: err}
	}
	play, err := rec.Replay()
	if err != nil {
		return nil, &Error{Code: Internal, Message: "stored game does not replay", Cause: err}
	}
	st := &State{Game: g, Log: log, Record: rec, Play: play}
	s.cache.put(st)
	return st, nil
}

// Act records events on a live game made at version: all of them are checked by the engine first, then
// appended in one transaction. A rejected event is a Rejected error whose Cause is the engine's rule error; a
// game changed since version is a Conflict, and the fresh state is returned with it.
func (s *Games) Act(ctx context.Context, u *User, id, version int64, events []record.Event) (*State, error) {
	st, err := s.Load(ctx, u, id)
	if err != nil {
		return nil, err
	}
	return s.ActOn(ctx, u, st, version, events)
}

// ActOn is Act on a state the caller has just loaded (with Load), so that one action loads the game once. The
// state may be stale: the append still checks the version, so nothing is overwritten. The new state is built in
// memory from the committed events.
func (s *Games) ActOn(ctx context.Context, u *User, st *State, version int64, events []record.Event) (*State, error) {
	return s.ActOnce(ctx, u, st, version, "", events)
}

// ValidKey reports whether an idempotency key is well formed: 8 to 64 letters, digits, '-' and '_'.
func ValidKey(key string) bool {
	if len(key) < 8 || len(key) > 64 {
		return false
	}
	for _, c := range key {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// ActOnce is ActOn with the action's idempotency key (not ""): a request whose key the game has recorded already
// (a retry whose first answer was lost) is answered with the game as it is now, as a success, and recorded once.
func (s *Games) ActOnce(ctx context.Context, u *User, st *State, version int64, key string, events []record.Event) (*State, error) {
	if err := need(u, RoleHost); err != nil {
		return nil, err
	}
	if key != "" && !ValidKey(key) {
		return st, Errorf(Invalid, "the form's key is not valid; reload the page")
	}
	if len(events) == 0 {
		return nil, Errorf(Invalid, "no action")
	}
	digest := actionDigest(events)
	if key != "" {
		recorded, done, err := s.store.ActionRecorded(ctx, st.Game.ID, key)
		if err != nil {
			return st, err
		}
		if done {
			if err := s.mayChange(ctx, u, st.Game); err != nil {
				return nil, err
			}
			if recorded != "" && recorded != digest {
				return st, ErrKeyReused
			}
			return s.load(ctx, st.Game.ID)
		}
	}
	id := st.Game.ID
	if err := s.mayChange(ctx, u, st.Game); err != nil {
		return nil, err
	}
	if st.Game.Status != GameLive {
		return st, Errorf(Closed, "the game is saved; an admin may reopen it")
	}
	if st.Game.Version != version {
		return st, Errorf(Conflict, "someone else changed this game")
	}
	if err := s.tours.checkExtras(ctx, u, st, events); err != nil {
		return st, err
	}
	play := st.Play.Clone()
	at := s.now()
	stored := make([]StoredEvent, len(events))
	for i, e := range events {
		if utf8.RuneCountInString(e.Reason) > record.MaxEventText || utf8.RuneCountInString(e.Note) > record.MaxEventText {
			return st, Errorf(Invalid, "a reason or note is at most %d characters", record.MaxEventText)
		}
		switch e.Type {
		case mafia.EvFoul, mafia.EvWarning, mafia.EvDisqualify:
			if e.During.Kind == mafia.DuringUnknown {
				e.During = play.During() // where it fell, for the record (exports keep its moment)
			}
		}
		if err := play.Apply(e.Event); err != nil {
			return st, &Error{Code: Rejected, Message: err.Error(), Cause: err}
		}
		e.At = at.Format(time.RFC3339)
		stored[i] = StoredEvent{Seq: len(st.Log) + i + 1, JSON: record.EncodeEvent(e), At: at, By: u.ID}
	}
	if err := s.takeOver(ctx, u, st.Game); err != nil {
		return st, err
	}
	if err := s.store.Append(ctx, id, version, ActionKey{Key: key, Digest: digest}, stored); err != nil {
		if errors.Is(err, ErrRecorded) { // the same key, committed by a request that ran alongside
			return s.load(ctx, id)
		}
		if ErrorCode(err) == Conflict {
			fresh, lerr := s.load(ctx, id)
			if lerr == nil {
				return fresh, err
			}
		}
		return st, err
	}
	// committed: the new state is the old one with the events applied
	g := *st.Game
	g.Version++
	g.Events += len(stored)
	g.HostID = u.ID
	rec := *st.Record
	rec.Events = append(append(make([]record.Event, 0, len(rec.Events)+len(events)), rec.Events...), recorded(stored, len(g.Seats))...)
	next := &State{Game: &g, Log: append(append([]StoredEvent(nil), st.Log...), stored...), Record: &rec, Play: play}
	s.cache.put(next) // the page that follows is drawn from it, without reading and replaying the log again
	return next, nil
}

// actionDigest is the digest of an action as the request names it (its events before the server adds their time
// and moment): a retry of the same request has the same, another action under the same key another.
func actionDigest(events []record.Event) string {
	h := sha256.New()
	for _, e := range events {
		h.Write(record.EncodeEvent(e))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// ErrHostSeated refuses a game whose host would sit at its table: he would see the cards he plays against.
var ErrHostSeated = Errorf(Invalid, "you cannot host a game you play in: another host starts it")

// recorded decodes the events just stored (they were encoded from checked events, so they decode).
func recorded(stored []StoredEvent, n int) []record.Event {
	out := make([]record.Event, 0, len(stored))
	for _, se := range stored {
		if e, err := record.DecodeEvent(se.JSON, n); err == nil {
			out = append(out, e)
		}
	}
	return out
}

// prepare checks the role, loads the game and checks that it is in status at version: the prologue of every
// change to a game's life (undo, save, reopen).
func (s *Games) prepare(ctx context.Context, u *User, role Role, id, version int64, status GameStatus) (*State, error) {
	if err := need(u, role); err != nil {
		return nil, err
	}
	st, err := s.load(ctx, id)
	if err != nil {
		return nil, err
	}
	// whoever may not see the game is refused before anything of it is returned, whatever his role: an admin
	// reopening a game that is in fact live at a table he plays at, or judges not, learns nothing of its cards
	if err := s.MayView(ctx, u, st); err != nil {
		return nil, err
	}
	if role != RoleAdmin { // an admin's reopening is his own power; the table is its judge's
		if err := s.mayChange(ctx, u, st.Game); err != nil {
			return nil, err
		}
	}
	if st.Game.Status != status {
		if status == GameLive {
			return st, Errorf(Closed, "the game is saved; an admin may reopen it")
		}
		return st, Errorf(Invalid, "the game is not saved")
	}
	if st.Game.Version != version {
		return st, Errorf(Conflict, "someone else changed this game")
	}
	return st, nil
}

// Undo removes the last event of a live game made at version; the undo is logged.
func (s *Games) Undo(ctx context.Context, u *User, id, version int64) (*State, error) {
	st, err := s.prepare(ctx, u, RoleHost, id, version, GameLive)
	if err != nil {
		return st, err
	}
	if len(st.Log) == 0 {
		return st, Errorf(Invalid, "there is nothing to undo")
	}
	last := st.Log[len(st.Log)-1]
	if err := s.takeOver(ctx, u, st.Game); err != nil {
		return st, err
	}
	if _, err := s.store.Undo(ctx, id, version, AuditEntry{At: s.now(), By: u.ID, Action: "undo", Detail: string(last.JSON)}); err != nil {
		if ErrorCode(err) == Conflict {
			if fresh, lerr := s.load(ctx, id); lerr == nil {
				return fresh, err
			}
		}
		return st, err
	}
	return s.load(ctx, id)
}

// Save closes a finished game to edits and files it as rated or normal (000 L206, matrix R95).
func (s *Games) Save(ctx context.Context, u *User, id, version int64, rated bool) (*State, error) {
	st, err := s.prepare(ctx, u, RoleHost, id, version, GameLive)
	if err != nil {
		return st, err
	}
	if !st.Play.Finished() {
		return st, Errorf(Invalid, "the game has no result yet")
	}
	action := "save_normal"
	if rated {
		action = "save_rated"
	}
	g := *st.Game
	g.Rated = rated
	results, err := ResultsOf(&g, st.Record, st.Play)
	if err != nil {
		return st, err
	}
	if err := s.takeOver(ctx, u, st.Game); err != nil {
		return st, err
	}
	err = s.store.SetStatus(ctx, id, version, GameSaved, rated, st.Play.Winner().String(), results, AuditEntry{At: s.now(), By: u.ID, Action: action})
	if err != nil {
		return st, err
	}
	return s.load(ctx, id)
}

// Reopen opens a saved game to edits again. Only an admin may; it is logged.
func (s *Games) Reopen(ctx context.Context, u *User, id, version int64) (*State, error) {
	st, err := s.prepare(ctx, u, RoleAdmin, id, version, GameSaved)
	if err != nil {
		return st, err
	}
	if st.Game.IsSummary() {
		return st, ErrSummaryNotReopened
	}
	if err := s.store.SetStatus(ctx, id, version, GameLive, st.Game.Rated, "", nil, AuditEntry{At: s.now(), By: u.ID, Action: "reopen"}); err != nil {
		return st, err
	}
	return s.load(ctx, id)
}

// RuleError returns the engine's rule error behind a Rejected error, if any.
func RuleError(err error) *mafia.RuleError {
	var re *mafia.RuleError
	if errors.As(err, &re) {
		return re
	}
	return nil
}

// Import files a game recorded elsewhere (another platform, converted to our record). Only an admin may. The
// engine replays it first; seats whose name is a club player's nickname are linked to him, the others are guests.
// A game already imported from the same source is refused.
//
// A finished game is saved in the club's history as rated or normal. An unfinished one (the platform's record
// stops where the game did) is filed as a live game with u as its host, for a host to continue in host mode as any
// live game: another host may take it over, nobody seated at its table may run it (an admin who sits there is
// refused, ErrHostSeated), and its roles are as hidden as any live game's. It joins the rating only when a host
// saves it as rated; rated is what it starts as.
func (s *Games) Import(ctx context.Context, u *User, rec *record.Record, source string, started time.Time, rated bool) (*Game, error) {
	if err := need(u, RoleAdmin); err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, Errorf(Invalid, "no game to import")
	}
	play, err := rec.Replay()
	if err != nil {
		return nil, &Error{Code: Invalid, Message: "the game does not replay: " + err.Error(), Cause: err}
	}
	seats := make([]Seat, len(rec.Seats))
	for i, st := range rec.Seats {
		seats[i] = Seat{Seat: st.Seat, Role: st.Role.String(), Name: st.Name}
		p, err := s.store.PlayerByNick(ctx, st.Name)
		switch {
		case err == nil:
			seats[i].PlayerID = p.ID
		case ErrorCode(err) != NotFound:
			return nil, err
		}
	}
	if started.IsZero() {
		started = s.now()
	}
	g := &Game{Rules: rec.Rules.ID, Options: rec.OptionJSON, Seats: seats, Rated: rated, Status: GameLive, HostID: u.ID,
		CreatedAt: started, Source: source, Extra: importedExtra(rec)}
	at := s.now()
	stored := make([]StoredEvent, len(rec.Events))
	for i, e := range rec.Events {
		if e.At == "" {
			e.At = started.Format(time.RFC3339)
		}
		when, _ := time.Parse(time.RFC3339, e.At)
		if when.IsZero() {
			when = at
		}
		stored[i] = StoredEvent{Seq: i + 1, JSON: record.EncodeEvent(e), At: when, By: u.ID}
	}
	if !play.Finished() {
		if Seated(u, g) {
			return nil, ErrHostSeated
		}
		if err := s.store.ImportGame(ctx, g, stored, "", nil, AuditEntry{At: at, By: u.ID, Action: "import_unfinished"}); err != nil {
			return nil, err
		}
		return g, nil
	}
	g.Status = GameSaved
	action := "save_normal"
	if rated {
		action = "save_rated"
	}
	results, err := ResultsOf(g, rec, play)
	if err != nil {
		return nil, err
	}
	if err := s.store.ImportGame(ctx, g, stored, play.Winner().String(), results, AuditEntry{At: at, By: u.ID, Action: action}); err != nil {
		return nil, err
	}
	return g, nil
}

// JudgeName is the name a game's protocol gives its judge, its host (§P7.2.3, 7.10: the judge writes his surname,
// not a nickname), as viewer may read it: the real name of his player profile for the club's hosts and admins, the
// account's name for everyone else, since a real name is shown on no public page.
func (s *Games) JudgeName(ctx context.Context, viewer *User, g *Game) (string, error) {
	u, err := s.store.User(ctx, g.HostID)
	if ErrorCode(err) == NotFound {
		return "", nil // a host whose account is gone: the protocol is shown all the same
	}
	if err != nil {
		return "", err
	}
	// a real name is never public (sign-up says so): the club's hosts read it on the protocol, the public the
	// account's name
	if viewer != nil && viewer.Role.Can(RoleHost) && u.PlayerID != 0 {
		p, err := s.store.Player(ctx, u.PlayerID)
		if err != nil && ErrorCode(err) != NotFound {
			return "", err
		}
		if err == nil && strings.TrimSpace(p.RealName) != "" {
			return p.RealName, nil
		}
	}
	return u.Name, nil
}

// importedExtra is what an imported record says of itself that the club keeps with the game (the import's note,
// the platform as "source", "ended", the platform's fields): its extra fields but those the club's record of the
// game gives itself (its id, whether it is rated, when it started, its club night). nil when there are none.
func importedExtra(rec *record.Record) json.RawMessage {
	keep := map[string]json.RawMessage{}
	for k, v := range rec.Extra {
		switch k {
		case "id", "rated", "started", "event":
		default:
			keep[k] = v
		}
	}
	if len(keep) == 0 {
		return nil
	}
	out, _ := json.Marshal(keep)
	return out
}

// DealRoles deals roles at random with crypto/rand: the roles of TableRoles, shuffled.
func DealRoles(rs *mafia.Rules, n, mafiaN int, doctor bool) ([]mafia.Role, error) {
	roles, err := TableRoles(rs, n, mafiaN, doctor)
	if err != nil {
		return nil, err
	}
	Shuffle(len(roles), func(i, j int) { roles[i], roles[j] = roles[j], roles[i] })
	return roles, nil
}

// TableRoles is the roles of a table of n, in no particular order: the rule set's table for n players, or for the
// home rule sets (which fix none) the given number of mafia, one commissar, a doctor if asked, and citizens. They
// are checked against the rule set before they are returned.
func TableRoles(rs *mafia.Rules, n, mafiaN int, doctor bool) ([]mafia.Role, error) {
	var roles []mafia.Role
	if comp, ok := rs.Composition(n); ok {
		for _, role := range []mafia.Role{mafia.Citizen, mafia.Sheriff, mafia.Mafia, mafia.Don} {
			for k := 0; k < comp[role]; k++ {
				roles = append(roles, role)
			}
		}
	} else {
		if mafiaN < 1 || mafiaN >= n {
			return nil, Errorf(Invalid, "too many special roles for %d players", n)
		}
		roles = append(roles, mafia.Commissar)
		if doctor && slices.Contains(rs.Roles(), mafia.Doctor) {
			roles = append(roles, mafia.Doctor)
		}
		for k := 0; k < mafiaN; k++ {
			roles = append(roles, mafia.Mafia)
		}
		for len(roles) < n {
			roles = append(roles, mafia.Citizen)
		}
		if len(roles) > n {
			return nil, Errorf(Invalid, "too many special roles for %d players", n)
		}
	}
	if err := rs.ValidateRoles(roles); err != nil {
		return nil, err
	}
	return roles, nil
}

// Shuffle is a Fisher-Yates shuffle driven by crypto/rand: nobody can predict a deal or a seating.
func Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		var b [8]byte
		if _, err := crand.Read(b[:]); err != nil {
			panic(err) // crypto/rand does not fail on supported systems
		}
		// the modulo bias of a 64-bit draw over at most 20 seats is below 2^-59
		swap(i, int(binary.LittleEndian.Uint64(b[:])%uint64(i+1)))
	}
}
