package club

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"mafiaclub/mafia"
)

// SummaryStore keeps the games of a club's old protocols: saved games without events (source SummarySourcePrefix),
// their facts, and the log of imports and deletions.
type SummaryStore interface {
	// ImportSummaries files summary games in one transaction: each game saved with its seats, facts and results, the
	// ratings in step (each rule set's Elo once, from its earliest game), and the import logged (entry, its Games
	// and Skipped set here). A game whose source the history has already is skipped and counted in Skipped. It
	// returns the new games' ids.
	ImportSummaries(ctx context.Context, entry SummaryLogEntry, games []StoredSummary) ([]int64, error)
	// KnownSummaries returns which of the sources the history has, each with its game and its facts' digest.
	KnownSummaries(ctx context.Context, sources []string) (map[string]KnownSummary, error)
	// GameSummary returns a summary game's facts (NotFound for a game that is none).
	GameSummary(ctx context.Context, gameID int64) ([]byte, error)
	// DeleteSummary removes a summary game with its seats, results and facts, the ratings in step, and logs it.
	DeleteSummary(ctx context.Context, gameID int64, entry SummaryLogEntry) error
	// SummaryLog lists the imports and deletions, newest first.
	SummaryLog(ctx context.Context, limit int) ([]SummaryLogEntry, error)
}

// StoredSummary is a summary game as it is filed: the game (saved, its seats), its results, its facts.
type StoredSummary struct {
	Game    *Game
	Winner  string
	Results []GameResult
	Facts   []byte
	Digest  string
}

// KnownSummary is a summary game the history has: its id and the digest of its facts.
type KnownSummary struct {
	GameID int64
	Digest string
}

// SummaryLogEntry is one import of a file of summaries, or one deletion of a summary game.
type SummaryLogEntry struct {
	ID             int64
	At             time.Time
	By             int64
	ByName         string
	Action         string // "import" or "delete"
	File, Digest   string // the file's name and its SHA-256 (an import)
	Games, Skipped int    // the games filed, and those the history had already (an import)
	Detail         string // a deletion: the game's number and its identity
}

// Summaries imports a club's old protocols into its history and rating (issue 26, item 7). Only an admin may;
// every page of it and its JSON is an admin's, the games it files are public as every saved game.
type Summaries struct {
	store Store
	clock *Clock
	clubs *Clubs // the club's default rule set: a game whose row names none is of it
}

// SummaryPreview is what an import of a file would do, for the admin to confirm.
type SummaryPreview struct {
	File, Digest string // the file's name and SHA-256
	Games        []SummaryGame
	New          int      // games the import would file
	Known        int      // games the history has already with the same facts: skipped
	Unrated      int      // of the new games, those not rated
	Players      int      // distinct players of the new games
	Members      int      // of them, those matched by nickname to a club player
	Guests       []string // the others: seated as guests (an admin may link them to members later)
	From, To     time.Time
	Problems     []SummaryProblem // why it cannot be imported; nothing is then filed
	KnownIDs     map[string]int64 // by source, the games the history has
}

// Preview reads and checks a file and says what its import would do; it writes nothing.
func (s *Summaries) Preview(ctx context.Context, u *User, file string, data []byte) (*SummaryPreview, error) {
	if err := need(u, RoleAdmin); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	pv := &SummaryPreview{File: file, Digest: hex.EncodeToString(sum[:]), KnownIDs: map[string]int64{}}
	rules := ClubRules
	if s.clubs != nil {
		c, err := s.clubs.Get(ctx)
		if err != nil {
			return nil, err
		}
		rules = c.RulesID()
	}
	games, problems := ParseSummaries(data, s.clock.Zone, rules, s.clock.Now())
	if len(problems) > 0 {
		pv.Problems = problems
		return pv, nil
	}
	var sources []string
	for _, g := range games {
		sources = append(sources, g.source)
	}
	known, err := s.store.KnownSummaries(ctx, sources)
	if err != nil {
		return nil, err
	}
	players := map[string]int64{}
	for i := range games {
		g := &games[i]
		if k, ok := known[g.source]; ok {
			pv.KnownIDs[g.source] = k.GameID
			if k.Digest != g.Digest {
				p := SummaryProblem{Line: g.Line, Game: g.Game, Field: "game", Format: "the game %s is in the history already (#%d) with other facts: delete it there first to import this one",
					Args: []any{strings.TrimPrefix(g.source, SummarySourcePrefix), k.GameID}}
				if p.Line > 0 {
					p.Game = 0
				}
				pv.Problems = append(pv.Problems, p)
				continue
			}
			pv.Known++
			continue
		}
		pv.New++
		if !g.Rated {
			pv.Unrated++
		}
		if pv.From.IsZero() || g.PlayedAt.Before(pv.From) {
			pv.From = g.PlayedAt
		}
		if g.PlayedAt.After(pv.To) {
			pv.To = g.PlayedAt
		}
		for j := range g.Seats {
			st := &g.Seats[j]
			key := strings.ToLower(st.Player)
			id, seen := players[key]
			if !seen {
				p, err := s.store.PlayerByNick(ctx, st.Player)
				switch {
				case err == nil:
					id = p.ID
					pv.Members++
				case ErrorCode(err) == NotFound:
					pv.Guests = append(pv.Guests, st.Player)
				default:
					return nil, err
				}
				players[key] = id
			}
			st.PlayerID = id
		}
	}
	pv.Players = len(players)
	sort.Slice(pv.Guests, func(i, j int) bool { return strings.ToLower(pv.Guests[i]) < strings.ToLower(pv.Guests[j]) })
	pv.Games = games
	return pv, nil
}

// SummaryReport is what an import filed.
type SummaryReport struct {
	*SummaryPreview
	IDs []int64 // the new games
}

// Import files a file's games in the club's history, in one transaction: the games the history has already (the
// same date, table and number with the same facts) are skipped, so the same file imported twice, or a retried
// request, files each game once. A file with any problem, or a game the history has with other facts, files
// nothing (Invalid, with the preview's problems).
func (s *Summaries) Import(ctx context.Context, u *User, file string, data []byte) (*SummaryReport, error) {
	pv, err := s.Preview(ctx, u, file, data)
	if err != nil {
		return nil, err
	}
	if len(pv.Problems) > 0 {
		return &SummaryReport{SummaryPreview: pv}, &Error{Code: Invalid, Message: "the file has problems; nothing was imported", Cause: pv.Problems[0],
			Format: "the file has problems; nothing was imported"}
	}
	var list []StoredSummary
	for i := range pv.Games {
		g := &pv.Games[i]
		if _, ok := pv.KnownIDs[g.source]; ok {
			continue
		}
		list = append(list, summaryToStore(g, u.ID))
	}
	entry := SummaryLogEntry{At: s.clock.Now(), By: u.ID, Action: "import", File: file, Digest: pv.Digest, Skipped: pv.Known}
	ids, err := s.store.ImportSummaries(ctx, entry, list)
	if err != nil {
		return nil, err
	}
	return &SummaryReport{SummaryPreview: pv, IDs: ids}, nil
}

// summaryToStore makes a checked summary game the club's saved game, its results and its facts.
func summaryToStore(g *SummaryGame, host int64) StoredSummary {
	game := &Game{Rules: g.Rules, Options: g.Options, Rated: g.Rated, Status: GameSaved, HostID: host, CreatedAt: g.PlayedAt,
		Source: g.source, Winner: g.Winner.String()}
	var results []GameResult
	for i, st := range g.Seats {
		game.Seats = append(game.Seats, Seat{Seat: st.Seat, Role: st.Role.String(), Name: st.Player, PlayerID: st.PlayerID})
		sr := g.Points[i]
		team := "red"
		if sr.Team == mafia.Black {
			team = "black"
		}
		stats := SeatStats{FirstKilled: st.FirstKilled, Fouls: st.Fouls, Disq: st.Disqualified}
		if g.BestMove == st.Seat {
			stats.BestNamed = len(g.BestNamed)
			for _, t := range g.BestNamed {
				if t >= 1 && t <= len(g.Seats) && g.Seats[t-1].Role.Team() == mafia.Black {
					stats.BestBlacks++
				}
			}
		}
		results = append(results, GameResult{Seat: st.Seat, PlayerID: st.PlayerID, Role: st.Role.String(), Won: sr.Won,
			Points: sr.Points, Rated: g.Rated, PlayedAt: g.PlayedAt, Rules: g.Rules, Counted: g.Rated, Team: team, Stats: stats,
			Summary: true})
	}
	return StoredSummary{Game: game, Winner: g.Winner.String(), Results: results, Facts: g.Facts, Digest: g.Digest}
}

// Delete removes a summary game from the history (an admin's, after a confirmation the page asks for): its
// results leave the rating, whose Elo is recomputed from its date on. A game that is no summary is refused: a
// replayed game is reopened, never deleted.
func (s *Summaries) Delete(ctx context.Context, u *User, gameID int64) error {
	if err := need(u, RoleAdmin); err != nil {
		return err
	}
	g, err := s.store.Game(ctx, gameID)
	if err != nil {
		return err
	}
	if !g.IsSummary() {
		return Errorf(Invalid, "only a game from an old protocol is deleted; this one is reopened")
	}
	return s.store.DeleteSummary(ctx, gameID, SummaryLogEntry{At: s.clock.Now(), By: u.ID, Action: "delete",
		Detail: fmt.Sprintf("#%d %s", gameID, strings.TrimPrefix(g.Source, SummarySourcePrefix))})
}

// Log lists the imports and deletions, newest first (an admin's).
func (s *Summaries) Log(ctx context.Context, u *User) ([]SummaryLogEntry, error) {
	if err := need(u, RoleAdmin); err != nil {
		return nil, err
	}
	return s.store.SummaryLog(ctx, 100)
}

// Game returns a saved summary game for its public page, with its facts scored again; the summary is nil for a
// game that is none (a replayed game: its page replays it).
func (s *Summaries) Game(ctx context.Context, gameID int64) (*Game, *SummaryGame, error) {
	g, err := s.store.Game(ctx, gameID)
	if err != nil {
		return nil, nil, err
	}
	if !g.IsSummary() {
		return g, nil, nil
	}
	facts, err := s.store.GameSummary(ctx, gameID)
	if err != nil {
		return nil, nil, err
	}
	sg, err := SummaryOf(facts, s.clock.Zone)
	if err != nil {
		return nil, nil, err
	}
	return g, sg, nil
}

// ErrSummaryNotReopened refuses to reopen a game of an old protocol: it has no events to go on from; an admin
// deletes it and imports it corrected.
var ErrSummaryNotReopened = Errorf(Invalid, "a game from an old protocol has no events to reopen; delete it and import it corrected")

// summaryDigest is a summary game's line of Digest, its points recomputed from its facts (a summary does not
// replay); ok is false for a game that is none.
func summaryDigest(ctx context.Context, store Store, id int64) (string, bool, error) {
	g, err := store.Game(ctx, id)
	if err != nil || !g.IsSummary() {
		return "", false, err
	}
	facts, err := store.GameSummary(ctx, id)
	if err != nil {
		return "", true, err
	}
	sg, err := SummaryOf(facts, time.UTC)
	if err != nil {
		return "", true, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s summary rated=%v", g.Status, sg.Winner, g.Rated)
	for i, sr := range sg.Points {
		fmt.Fprintf(&b, " %d:%s:%d:p%d", sr.Seat, sr.Role, sr.Points, g.Seats[i].PlayerID)
	}
	return b.String(), true, nil
}
