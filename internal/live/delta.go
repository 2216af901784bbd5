package live

import (
	"bytes"
	"encoding/json"
	"strings"
)

// A delta frame carries only what changed in a view since the previous frame, line by line: the same view drawn
// twice differs in a line or two (the step, a seat, a new line of the chronology), so a delta is a few hundred
// bytes where the whole view is a few kilobytes, and 5,000 spectators are sent that much less. Its data is JSON:
// {"base": ID of the view it applies to, "ops": [["k", n] keep n lines | ["d", n] drop n lines | ["i", [lines]]
// insert lines]}. A client that holds another view than base asks for the whole one again (see static/live.js).

// Lines splits a view into the lines deltas are made of.
func Lines(view []byte) []string { return strings.Split(string(view), "\n") }

type deltaData struct {
	Base string `json:"base"`
	Ops  []any  `json:"ops"`
}

// NewDelta makes the frame that turns the view old (the frame base) into new (the frame id). It returns nil when a
// delta would not be smaller than the whole view.
func NewDelta(id, base string, old, new []string) *Frame {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the view's markup as it is: "<" is one byte, not six
	ops := diffLines(old, new)
	if ops == nil {
		return nil
	}
	enc.Encode(deltaData{Base: base, Ops: ops})
	b := bytes.TrimSpace(buf.Bytes())
	size := 0
	for _, l := range new {
		size += len(l) + 1
	}
	if len(b) >= size {
		return nil
	}
	return NewFrame(id, "delta", b)
}

// maxDiffCells bounds the table of a line diff (its rows times its columns, after the lines the views share at
// their start and end are set aside): a view that changed more than that is sent whole, so that no view, however
// long (the list of live games grows with the club), costs a diff of unbounded memory and time.
const maxDiffCells = 1 << 16

// diffLines is a line diff by longest common subsequence of what lies between the lines a and b share at their
// start and at their end (a change is usually a line or two in a view of a few dozen); nil when that middle is
// larger than maxDiffCells.
func diffLines(a, b []string) []any {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	mid := diffMiddle(a[head:len(a)-tail], b[head:len(b)-tail])
	if mid == nil {
		return nil
	}
	ops := make([]any, 0, len(mid)+2)
	if head > 0 {
		ops = append(ops, []any{"k", head})
	}
	ops = append(ops, mid...)
	if tail > 0 {
		ops = append(ops, []any{"k", tail})
	}
	return ops
}

func diffMiddle(a, b []string) []any {
	n, m := len(a), len(b)
	if (n+1)*(m+1) > maxDiffCells {
		return nil
	}
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind  string
		n     int
		lines []string
	}
	var list []op
	push := func(kind, line string) {
		if k := len(list) - 1; k >= 0 && list[k].kind == kind {
			list[k].n++
			if kind == "i" {
				list[k].lines = append(list[k].lines, line)
			}
			return
		}
		o := op{kind: kind, n: 1}
		if kind == "i" {
			o.lines = []string{line}
		}
		list = append(list, o)
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			push("k", "")
			i++
			j++
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			push("i", b[j])
			j++
		default:
			push("d", "")
			i++
		}
	}
	ops := make([]any, len(list), len(list)+2)
	for k, o := range list {
		if o.kind == "i" {
			ops[k] = []any{"i", o.lines}
		} else {
			ops[k] = []any{o.kind, o.n}
		}
	}
	return ops
}

// ApplyDelta applies a delta's ops to a view's lines (the inverse of NewDelta, for clients written in Go: the
// tests' stream client).
func ApplyDelta(lines []string, data []byte) (base string, out []string, ok bool) {
	var d struct {
		Base string            `json:"base"`
		Ops  []json.RawMessage `json:"ops"`
	}
	if json.Unmarshal(data, &d) != nil {
		return "", nil, false
	}
	at := 0
	for _, raw := range d.Ops {
		var op []json.RawMessage
		if json.Unmarshal(raw, &op) != nil || len(op) != 2 {
			return d.Base, nil, false
		}
		var kind string
		json.Unmarshal(op[0], &kind)
		switch kind {
		case "k", "d":
			var k int
			if json.Unmarshal(op[1], &k) != nil || k < 0 || at+k > len(lines) {
				return d.Base, nil, false
			}
			if kind == "k" {
				out = append(out, lines[at:at+k]...)
			}
			at += k
		case "i":
			var add []string
			if json.Unmarshal(op[1], &add) != nil {
				return d.Base, nil, false
			}
			out = append(out, add...)
		default:
			return d.Base, nil, false
		}
	}
	if at != len(lines) {
		return d.Base, nil, false
	}
	return d.Base, out, true
}
