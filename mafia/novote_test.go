package mafia

import "testing"

// TestNoVote: the engine says why today's vote is cancelled or will not take place, as it decided it: the first
// removal that cancelled it (R68 before the result, C-11 the night before, R69 after yesterday's result), the
// C-36 cases of X-Craft's single candidate (the list proved open, closed, not known yet, or the candidate himself
// left), and the R29 days with nobody to vote on.
func TestNoVote(t *testing.T) {
	day2 := cat(Day(), speeches(1, 10), Night(), Shot(3, 1), Shot(7, 1), Shot(9, 1), Day()) // #1 killed on night 2
	single := cat(day2, Speech(2), Nominate(2, 9), speeches(3, 10))                         // #9 alone, #10 speaks last
	closed := cat(day2, speeches(2, 10), Nominate(10, 9))                                   // the last speaker used his nomination
	for _, c := range []struct {
		name, rules string
		events      []Event
		want        NoVote
	}{
		{"speeches still going", "fiim-2025-club", cat(Day(), speeches(1, 3)), NoVote{}},
		{"nobody nominated", "fiim-2025-club", cat(Day(), speeches(1, 10)), NoVote{Why: NoVoteNoCandidates}},
		{"a single candidate on day 1", "fiim-2025-club", cat(Day(), Speech(1), Nominate(1, 3), speeches(2, 10)),
			NoVote{Why: NoVoteSingleDay1}},
		{"a vote to hold", "fiim-2025-club", single, NoVote{}},
		{"R68: a disqualification before the vote", "fiim-2025-club", cat(day2, Speech(2), Nominate(2, 9), Disqualify(4)),
			NoVote{NoVoteBefore, 4}},
		{"R68: the first cause is kept", "fiim-2025-club", cat(day2, Speech(2), Nominate(2, 9), Disqualify(4), Disqualify(5)),
			NoVote{NoVoteBefore, 4}},
		{"C-11: during the voting", "fiim-2025-club", cat(day2, Speech(2), Nominate(2, 9), Speech(3), Nominate(3, 5),
			speeches(4, 10), Vote(9, 2, 3), Disqualify(4)), NoVote{NoVoteBefore, 4}},
		{"C-11: the night before", "fiim-2025-club", cat(single, Vote(9), Night(), Disqualify(4), Day()), NoVote{NoVoteNight, 4}},
		{"R69: after the result, the day itself votes", "fiim-2025-club", cat(single, Vote(9), Disqualify(4)), NoVote{}},
		{"R69: after yesterday's result", "fiim-2025-club", cat(single, Vote(9), Disqualify(4), Night(), Day()),
			NoVote{NoVoteAfterResult, 4}},
		{"C-36 not on day 1", "fiim-xcraft", cat(Day(), speeches(1, 10), Nominate(10, 3), Disqualify(5)), NoVote{NoVoteBefore, 5}},
		{"C-36: not known yet", "fiim-xcraft", cat(single, Disqualify(4)), NoVote{NoVoteUnsure, 4}},
		{"C-36: the last speaker nominates, the list was open", "fiim-xcraft", cat(single, Disqualify(4), Nominate(10, 5)),
			NoVote{NoVoteListOpen, 4}},
		{"C-36: the day ends, the list was open", "fiim-xcraft", cat(single, Disqualify(4), Night()), NoVote{NoVoteListOpen, 4}},
		{"C-36: the day ends, nothing carries over", "fiim-xcraft", cat(single, Disqualify(4), Night(), Day(), speeches(3, 10, 4), Speech(2)),
			NoVote{Why: NoVoteNoCandidates}},
		{"C-36: the vote says the list was closed", "fiim-xcraft", cat(single, Disqualify(4), Vote(9)), NoVote{}},
		{"C-36: closed, so the next day's is cancelled", "fiim-xcraft", cat(single, Disqualify(4), Vote(9), Night(), Day()),
			NoVote{NoVoteListClosed, 4}},
		{"C-36: closed by the last speaker's nomination", "fiim-xcraft", cat(closed, Disqualify(4)), NoVote{}},
		{"C-36: closed by the nomination, the next day", "fiim-xcraft", cat(closed, Disqualify(4), Vote(9), Night(), Day()),
			NoVote{NoVoteListClosed, 4}},
		{"C-36: the single candidate leaves", "fiim-xcraft", cat(closed, Disqualify(9)), NoVote{NoVoteCandidatesLeft, 9}},
		{"C-36: the single candidate leaves, the next day votes", "fiim-xcraft", cat(closed, Disqualify(9), Night(), Day(),
			speeches(3, 10, 9), Speech(2)), NoVote{Why: NoVoteNoCandidates}},
		{"C-36: the single candidate leaves while not known", "fiim-xcraft", cat(single, Disqualify(9)),
			NoVote{NoVoteCandidatesLeft, 9}},
		{"C-36: ... and the list proves open", "fiim-xcraft", cat(single, Disqualify(9), Nominate(10, 5)), NoVote{NoVoteListOpen, 9}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := play(t, c.rules, ten, nil, c.events...)
			if got := g.NoVote(); got != c.want {
				t.Errorf("NoVote() = {%q, %d}, want {%q, %d}", got.Why, got.Seat, c.want.Why, c.want.Seat)
			}
			if cancelled := g.Voting() == VotingCancelled; cancelled != (c.want.Why >= NoVoteBefore && c.want.Why <= NoVoteListClosed) {
				t.Errorf("voting %v with reason %q", g.Voting(), c.want.Why)
			}
		})
	}
}

// R26: a round says how many of the last candidate's votes the default rule gave him beyond the hands raised.
func TestRoundDefault(t *testing.T) {
	day1 := cat(Day(), Speech(1), Nominate(1, 3), Speech(2), Nominate(2, 7), speeches(3, 10),
		Vote(3, 1, 2, 4, 5, 6), Vote(7, 8), // 5:5, #7's five: #8's hand and the default votes of 3, 7, 9, 10
		Vote(3, 1, 2, 4, 5, 6, 8), VoteRest(7)) // 6:4, all four by default
	single := cat(Day(), speeches(1, 10), Night(), Shot(3, 1), Shot(7, 1), Shot(9, 1), Day(), Speech(2), Nominate(2, 9),
		speeches(3, 10), Vote(9, 4)) // the single candidate: #4's hand and the other eight by default
	for _, c := range []struct {
		name   string
		events []Event
		want   []int
	}{{"a tie and the re-vote", day1, []int{4, 4}}, {"a single candidate", single, []int{8}}} {
		r := play(t, "fiim-2025-club", ten, nil, c.events...).Result()
		var got []int
		for _, rd := range r.Days[len(r.Days)-1].Rounds {
			got = append(got, rd.Default)
		}
		if !equalInts(got, c.want) {
			t.Errorf("%s: default votes %v, want %v", c.name, got, c.want)
		}
	}
}
