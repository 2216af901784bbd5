package club

import (
	"context"
	"slices"
	"strings"
)

// MaxBulkLines is the most lines a pasted list of participants may have.
const MaxBulkLines = 300

// LineOutcome is what became of one line of a pasted list of participants.
type LineOutcome string

// The outcomes of a pasted line.
const (
	LineMember    LineOutcome = "member"    // added: a club player, by his nickname
	LineGuest     LineOutcome = "guest"     // added: a guest, by the name given
	LineDuplicate LineOutcome = "duplicate" // not added: already in the tournament (or twice in the list)
	LineInvalid   LineOutcome = "invalid"   // not added: the name is not a name (Err says why)
)

// LineReport is one line of a pasted list: its number (from 1), the name as read, and what became of it.
type LineReport struct {
	Line    int
	Name    string
	Outcome LineOutcome
	Err     error
}

// Added reports whether the line added a participant.
func (l LineReport) Added() bool { return l.Outcome == LineMember || l.Outcome == LineGuest }

// AddParticipants adds a pasted list of players, one per line: a club player by his nickname (any case), anyone
// else as a guest by the name given; blank lines are skipped. Every line gets its report; a bad line never stops
// the others. An admin's registrations are approved at once.
func (s *Tournaments) AddParticipants(ctx context.Context, admin *User, tournamentID int64, list string) ([]LineReport, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	if _, err := s.store.Tournament(ctx, tournamentID); err != nil {
		return nil, err
	}
	lines := strings.Split(strings.ReplaceAll(list, "\r\n", "\n"), "\n")
	if len(lines) > MaxBulkLines {
		return nil, Errorf(Invalid, "at most %d lines at once", MaxBulkLines)
	}
	existing, err := s.store.Participants(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	taken := map[string]bool{}
	for _, p := range existing {
		taken[NickKey(p.Name)] = true
	}
	var out []LineReport
	for i, line := range lines {
		if strings.TrimSpace(line) == "" {
			continue
		}
		rep := LineReport{Line: i + 1, Name: strings.TrimSpace(line)}
		name, err := cleanName(line, MaxNick, "player's nickname or guest's name", false)
		if err != nil {
			rep.Outcome, rep.Err = LineInvalid, err
			out = append(out, rep)
			continue
		}
		p := &Participant{TournamentID: tournamentID, Name: name, Approved: true}
		if pl, err := s.store.PlayerByNick(ctx, name); err == nil {
			p.PlayerID, p.Name = pl.ID, pl.Nick
		} else if ErrorCode(err) != NotFound {
			return out, err
		}
		rep.Name = p.Name
		if taken[NickKey(p.Name)] {
			rep.Outcome = LineDuplicate
			out = append(out, rep)
			continue
		}
		switch err := s.store.AddParticipant(ctx, p); {
		case ErrorCode(err) == Conflict:
			rep.Outcome = LineDuplicate
		case err != nil:
			return out, err
		case p.PlayerID != 0:
			rep.Outcome = LineMember
		default:
			rep.Outcome = LineGuest
		}
		taken[NickKey(p.Name)] = true
		out = append(out, rep)
	}
	return out, nil
}

// participantOf returns a participant of the tournament: one of another tournament is not found here.
func (s *Tournaments) participantOf(ctx context.Context, tournamentID, participantID int64) (*Participant, []Participant, error) {
	parts, err := s.store.Participants(ctx, tournamentID)
	if err != nil {
		return nil, nil, err
	}
	for i := range parts {
		if parts[i].ID == participantID {
			return &parts[i], parts, nil
		}
	}
	return nil, nil, Errorf(NotFound, "no such participant in this tournament")
}

// RemoveParticipant takes a player off the tournament before he is seated: once a stage seats him, he can only be
// replaced (Replace).
func (s *Tournaments) RemoveParticipant(ctx context.Context, admin *User, tournamentID, participantID int64) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	p, _, err := s.participantOf(ctx, tournamentID, participantID)
	if err != nil {
		return err
	}
	stages, err := s.store.Stages(ctx, tournamentID)
	if err != nil {
		return err
	}
	for _, st := range stages {
		if slices.Contains(st.Players, p.ID) {
			return Errorf(Invalid, "%s is seated in stage %s; replace him by a substitute instead", p.Name, st.Name)
		}
	}
	return s.store.RemoveParticipant(ctx, p.ID)
}

// Replace puts a substitute (a club player by his nickname, or a guest) in the place of a participant who leaves
// mid-tournament: in every game of his that has not begun, and every round he was to sit out that has not begun.
// The games he played stay his (their results count for him, not for the substitute); the standings name both.
func (s *Tournaments) Replace(ctx context.Context, admin *User, tournamentID, participantID int64, substitute string) (*Participant, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	leaving, parts, err := s.participantOf(ctx, tournamentID, participantID)
	if err != nil {
		return nil, err
	}
	if leaving.Left {
		return nil, Errorf(Invalid, "%s has left already", leaving.Name)
	}
	name, err := cleanName(substitute, MaxNick, "substitute's nickname or name", false)
	if err != nil {
		return nil, err
	}
	sub := &Participant{TournamentID: tournamentID, Name: name, Approved: true}
	if pl, err := s.store.PlayerByNick(ctx, name); err == nil {
		sub.PlayerID, sub.Name = pl.ID, pl.Nick
	} else if ErrorCode(err) != NotFound {
		return nil, err
	}
	for _, p := range parts {
		if NickKey(p.Name) == NickKey(sub.Name) {
			return nil, Errorf(Invalid, "%s is in the tournament already", p.Name)
		}
	}
	stages, err := s.store.Stages(ctx, tournamentID)
	if err != nil {
		return nil, err
	}
	var changed []Stage
	for _, st := range stages {
		games, err := s.store.Games(ctx, GameFilter{StageID: st.ID, Limit: 500})
		if err != nil {
			return nil, err
		}
		begun := map[[2]int]bool{}
		lastRound := 0 // the last round in which a game of his has begun
		for _, g := range games {
			begun[[2]int{g.Round, g.TableNo}] = true
			if g.Round <= len(st.Schedule) && g.TableNo <= st.Tables() && slices.Contains(st.Schedule[g.Round-1][g.TableNo-1], leaving.ID) {
				lastRound = max(lastRound, g.Round)
			}
		}
		touched := false
		for r, round := range st.Schedule {
			for t, table := range round {
				if i := slices.Index(table, leaving.ID); i >= 0 && !begun[[2]int{r + 1, t + 1}] {
					table[i], touched = 0, true // the store puts the substitute's id here
				}
			}
			if r+1 > lastRound {
				if out := st.SitsOut(r + 1); out != nil {
					if i := slices.Index(out, leaving.ID); i >= 0 {
						out[i], touched = 0, true
					}
				}
			}
		}
		if touched {
			changed = append(changed, st)
		}
	}
	if err := s.store.ReplaceParticipant(ctx, leaving.ID, sub, changed); err != nil {
		if ErrorCode(err) == Conflict {
			return nil, Errorf(Invalid, "%s is in the tournament already", sub.Name)
		}
		return nil, err
	}
	return sub, nil
}
