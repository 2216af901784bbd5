// Package club is the club's domain: accounts, players, live and saved games and their event logs. It holds the
// types, the storage contract every store implements, and the services that put the rules engine and the store
// together. It knows nothing of HTTP or SQL.
package club

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Code classifies an error for the layers above.
type Code string

// The error codes.
const (
	Invalid      Code = "invalid"      // the request is wrong; the message says why
	NotFound     Code = "not_found"    // no such thing
	Conflict     Code = "conflict"     // someone else changed it first; reload
	Unauthorized Code = "unauthorized" // not logged in
	Forbidden    Code = "forbidden"    // logged in, but not allowed
	Rejected     Code = "rejected"     // the rules do not allow it (Cause holds the engine's rule error)
	Closed       Code = "closed"       // the game is saved and closed to edits
	TooMany      Code = "too_many"     // too many attempts from this login or address; wait
	Busy         Code = "busy"         // the server is at its bound for this kind of work; try again soon
	NoSpace      Code = "no_space"     // the server's disk is full: nothing was recorded; the admin must free space
	Internal     Code = "internal"     // our fault
)

// Error is the one error type of the domain. Message is for people; Cause may hold the underlying error.
type Error struct {
	Code    Code
	Message string
	Cause   error
	// Format and Args are what Errorf was given: interfaces translate Format through their catalogues.
	Format string
	Args   []any
}

func (e *Error) Error() string {
	if e.Cause != nil && e.Message == "" {
		return string(e.Code) + ": " + e.Cause.Error()
	}
	if e.Cause != nil && (e.Code == Internal || e.Code == NoSpace) {
		return string(e.Code) + ": " + e.Message + ": " + e.Cause.Error() // logged: the cause is what we need
	}
	return string(e.Code) + ": " + e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code Code, format string, args ...any) error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// ErrorCode returns the code of err: Internal for an error that is not an *Error, "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// ErrRecorded answers an action whose idempotency key the game has recorded already: the request is a retry of one
// that was recorded (its answer was lost), and it is not recorded again.
var ErrRecorded = &Error{Code: Conflict, Message: "this action is recorded already"}

// ErrKeyReused refuses an action whose idempotency key the game has recorded with another action: nothing is
// recorded, and the request is not a retry of the first (a page that reuses its keys is wrong; it reloads).
var ErrKeyReused = Errorf(Rejected, "this action's key was used for another action; nothing was recorded: reload the page")

// ActionKey is a host action's idempotency key (not "", when the request has one) and the digest of the action it
// names, so that a retry is told from another action sent under the same key.
type ActionKey struct {
	Key, Digest string
}

// Role is what an account may do. Each role includes those before it.
type Role string

// The roles.
const (
	RoleMember Role = "member"
	RoleHost   Role = "host"
	RoleAdmin  Role = "admin"
)

// Rank orders the roles: member < host < admin.
func (r Role) Rank() int {
	switch r {
	case RoleMember:
		return 1
	case RoleHost:
		return 2
	case RoleAdmin:
		return 3
	}
	return 0
}

// Can reports whether an account with role r may do what role need may.
func (r Role) Can(need Role) bool { return r.Rank() >= need.Rank() && r.Rank() > 0 }

// User is an account that can log in.
type User struct {
	ID           int64
	Login        string
	Name         string
	Role         Role
	PasswordHash string
	PlayerID     int64 // the player profile of this account, 0 when none
	Lang         string
	Status       MemberStatus
	CreatedAt    time.Time
	Nick         string // the player profile's nickname, when listed with it
	Strikes      int    // the recorded strikes, when listed with them
}

// Player is a club player's profile: the person who sits at the table.
type Player struct {
	ID        int64
	Nick      string
	RealName  string
	HasPhoto  bool
	CreatedAt time.Time
}

// GameStatus is where a game is in its life.
type GameStatus string

// The game statuses.
const (
	GameLive  GameStatus = "live"  // being played or summed up
	GameSaved GameStatus = "saved" // saved to the history, closed to edits
)

// Seat is one seat of a game: the nickname shown, the role, and the player profile (0 for a guest).
type Seat struct {
	Seat     int
	Role     string
	Name     string
	PlayerID int64
}

// Game is a game's setup and state in the club.
type Game struct {
	ID        int64
	Rules     string
	Options   map[string]json.RawMessage // as given, canonical JSON per key
	Seats     []Seat
	Rated     bool
	Status    GameStatus
	HostID    int64
	HostName  string
	NightID   int64  // the club night it was played at, 0 when none
	Source    string // for an imported game, where it came from ("mafiaratings:4842"); unique
	StageID   int64  // the tournament stage it belongs to, 0 when none
	Round     int    // its round in the stage: the game's number at its table
	TableNo   int    // its table in the stage, from 1
	Dealt     bool   // its roles were dealt at random on the server (not entered as dealt with real cards)
	Version   int64  // raised by every change; an action carries the version it was made on
	Events    int    // how many events the log has
	Winner    string
	CreatedAt time.Time
	SavedAt   time.Time

	// Extra is an imported game's own record fields (the import's note, the platform as "source", "ended", the
	// platform's fields), a JSON object, as the import gave them; nil for the club's own games.
	Extra json.RawMessage
}

// StoredEvent is one event of a game's log as stored: the record event's JSON and who recorded it when.
type StoredEvent struct {
	Seq  int
	JSON []byte // the record event (spec §2), with "at"
	At   time.Time
	By   int64
}

// AuditEntry is an action on a game that is not an event of its record: an undo, a save, a reopen.
type AuditEntry struct {
	At     time.Time
	By     int64
	ByName string
	Action string // "undo", "save_rated", "save_normal", "reopen", "take_over", "correct_seats"
	Detail string
}

// GameFilter selects games for a list.
type GameFilter struct {
	Status   GameStatus // "" for all
	HostID   int64      // 0 for all
	NightID  int64      // 0 for all
	StageID  int64      // 0 for all
	PlayerID int64      // 0 for all: games with this player at the table
	Rules    string     // "" for all
	From, To time.Time  // zero for open
	Limit    int
}

// Store is the storage contract. Every implementation passes the suite in internal/storetest.
type Store interface {
	CreateUser(ctx context.Context, u *User) error
	UserByLogin(ctx context.Context, login string) (*User, error)
	User(ctx context.Context, id int64) (*User, error)
	Users(ctx context.Context) ([]User, error)
	SetUserLang(ctx context.Context, id int64, lang string) error
	// SetPassword replaces an account's password hash and ends its other sessions (all but keepSession).
	SetPassword(ctx context.Context, id int64, hash string, keepSession []byte) error

	CreateSession(ctx context.Context, tokenHash []byte, userID int64, expires time.Time) error
	SessionUser(ctx context.Context, tokenHash []byte, now time.Time) (*User, error)
	DeleteSession(ctx context.Context, tokenHash []byte) error

	CreatePlayer(ctx context.Context, p *Player) error
	Player(ctx context.Context, id int64) (*Player, error)
	SearchPlayers(ctx context.Context, query string, limit int) ([]Player, error)
	// PlayerByNick finds the player with this nickname, ignoring case (Unicode); NotFound when there is none.
	PlayerByNick(ctx context.Context, nick string) (*Player, error)
	// UpdatePlayer changes a profile's nickname and real name.
	UpdatePlayer(ctx context.Context, p *Player) error
	// SetPlayerPhoto stores a profile's photo (nil removes it); PlayerPhoto reads it with its content type.
	SetPlayerPhoto(ctx context.Context, playerID int64, photo []byte, contentType string) error
	PlayerPhoto(ctx context.Context, playerID int64) ([]byte, string, error)

	CreateGame(ctx context.Context, g *Game) error
	Game(ctx context.Context, id int64) (*Game, error)
	Games(ctx context.Context, f GameFilter) ([]Game, error)
	// GameIDs lists every game's id, in order.
	GameIDs(ctx context.Context) ([]int64, error)
	// CountGames counts the games a filter selects, its limit aside.
	CountGames(ctx context.Context, f GameFilter) (int, error)
	// Events returns a game's log in order.
	Events(ctx context.Context, gameID int64) ([]StoredEvent, error)
	// Append adds events at the end of a live game's log if its version is still version, raising it by one,
	// all in one transaction. A changed version is a Conflict; a saved game is Closed. key, when not "", is the
	// action's idempotency key and the digest of the action it names: a key the game has recorded already is
	// ErrRecorded when it was recorded with the same digest (or with none) and ErrKeyReused with another, and
	// nothing is written.
	Append(ctx context.Context, gameID, version int64, key ActionKey, events []StoredEvent) error
	// ActionRecorded reports whether a game has recorded the action of an idempotency key, and the digest of the
	// action it was recorded with ("" for one recorded before digests were kept).
	ActionRecorded(ctx context.Context, gameID int64, key string) (digest string, ok bool, err error)
	// TakeOver makes to the host of a game whose host is from, and logs it; it reports false, logging nothing,
	// when the game's host is no longer from (another took it over first).
	TakeOver(ctx context.Context, gameID, from, to int64, audit AuditEntry) (bool, error)
	// Undo removes the last event of a live game's log if its version is still version, and logs it.
	Undo(ctx context.Context, gameID, version int64, audit AuditEntry) (StoredEvent, error)
	// SetStatus saves or reopens a game at version, with its winner, and logs it. Saving stores the seats'
	// results (rated or not, as the game is); reopening removes them.
	SetStatus(ctx context.Context, gameID, version int64, status GameStatus, rated bool, winner string, results []GameResult, audit AuditEntry) error
	// SetSeats replaces the seats of a live game (each given seat's card, name and player profile, by its number)
	// if its version is still version, raising it by one, and logs it, all in one transaction. A changed version
	// is a Conflict; a saved game is Closed; a seat the game does not have is NotFound, and nothing is written.
	// log, when not nil, replaces the game's whole log in the same transaction (a corrected deal moves the
	// blacks' unanimous shots to the corrected blacks: record.Event.Unanimous).
	SetSeats(ctx context.Context, gameID, version int64, seats []Seat, log []StoredEvent, audit AuditEntry) error
	// ImportGame files a game recorded elsewhere with its log, in one transaction: a finished one (g.Status
	// GameSaved) saved with its winner and results; an unfinished one (GameLive) live, for a host to continue, with
	// no results. A source already imported is a Conflict, and nothing is written.
	ImportGame(ctx context.Context, g *Game, events []StoredEvent, winner string, results []GameResult, audit AuditEntry) error
	// Standings returns a rule set's rating (f.Scope()), unordered: each club player's counted results summed
	// (guests never count) over the season, with his current Elo; players with fewer than f.MinGames games left out.
	Standings(ctx context.Context, f RatingFilter) ([]Standing, error)
	// StandingsPage returns one page (offset, limit) of a rule set's all-time rating in its order (SortStandings;
	// by Elo first when byElo), players with fewer than minGames left out, and the number of lines in all. It
	// reads stored standings, kept in step by every change to the results.
	StandingsPage(ctx context.Context, rules string, minGames int, byElo bool, offset, limit int) ([]Standing, int, error)
	// RatingVersion is raised by every change to the ratings (a save, reopen, correction, link).
	RatingVersion(ctx context.Context) (int64, error)
	// PlayerResults lists a player's results in saved games, oldest first (rated and normal), with their figures
	// and Elo.
	PlayerResults(ctx context.Context, playerID int64) ([]GameResult, error)
	// RatedGames lists a rule set's counted games in the ratings' order.
	RatedGames(ctx context.Context, rules string) ([]RatedGame, error)
	// CoPlayers counts the club players a player sat with in his counted games of a rule set, as partners (his
	// team) and as opponents.
	CoPlayers(ctx context.Context, playerID int64, rules string) ([]CoPlayer, error)
	// GamesWithoutStats lists saved games whose results have no figures yet; SetResultStats stores them (seat by
	// seat, from seat 1) without changing any points.
	GamesWithoutStats(ctx context.Context, limit int) ([]int64, error)
	SetResultStats(ctx context.Context, gameID int64, stats []SeatStats) error
	// LinkGuest gives a player profile to the seats played under a guest's name (in every game, or in one game
	// when gameID is not 0), results included, and logs it on the member's account.
	LinkGuest(ctx context.Context, guestName string, gameID, playerID int64, ch MemberChange) (int, error)
	Audit(ctx context.Context, gameID int64) ([]AuditEntry, error)

	// CreateMember signs a person up: a player profile and a pending account, together.
	CreateMember(ctx context.Context, u *User, p *Player) error
	// Members lists every account with its nickname and number of strikes.
	Members(ctx context.Context) ([]User, error)
	// ChangeMember sets a member's status or role (ch.Field is "status" or "role"; ch.To the new value) and logs it.
	ChangeMember(ctx context.Context, ch MemberChange) error
	MemberLog(ctx context.Context, userID int64) ([]MemberChange, error)

	CreateNight(ctx context.Context, n *ClubNight) error
	Night(ctx context.Context, id int64) (*ClubNight, error)
	// Nights lists the club nights starting in [from, to), soonest first.
	Nights(ctx context.Context, from, to time.Time) ([]ClubNight, error)
	// Register puts a member on a night's main line-up while places remain (and he may take one), else on the
	// reserve. An excluded or pending member is Forbidden; a second registration is a Conflict.
	Register(ctx context.Context, nightID, userID int64, now time.Time) (*Registration, error)
	// Cancel cancels a member's registration; a late one records a strike. A place freed on the main line-up
	// goes to the first member of the reserve who may take it.
	Cancel(ctx context.Context, nightID, userID int64, now time.Time, late bool) (*Registration, error)
	// SetNoShow marks (or unmarks) a member of the main line-up who did not come; marking records a strike.
	SetNoShow(ctx context.Context, nightID, userID int64, noShow bool, now time.Time) error
	Registrations(ctx context.Context, nightID int64) ([]Registration, error)
	UserRegistrations(ctx context.Context, userID int64) ([]Registration, error)
	Strikes(ctx context.Context, userID int64) ([]Strike, error)

	TournamentStore
	NoticeStore
	LiveStore
	ClubStore
	TelegramStore
	SummaryStore
	LinkStore
}

// LiveStore keeps what the live pages need: each game's broadcast delay and the club's settings (its default).
type LiveStore interface {
	// GameBroadcast returns a game's own broadcast delay in minutes (0: none for it); set is false when the game
	// follows the club's default.
	GameBroadcast(ctx context.Context, gameID int64) (minutes int, set bool, err error)
	// SetGameBroadcast sets a game's own delay, or with set false makes it follow the club's default again.
	SetGameBroadcast(ctx context.Context, gameID int64, minutes int, set bool) error
	// Setting returns a club setting by name; ok is false when it was never set. SetSetting sets one.
	Setting(ctx context.Context, name string) (value string, ok bool, err error)
	SetSetting(ctx context.Context, name, value string) error
}
