package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// Small readers of loosely typed platform JSON that say what is wrong and where.

func decodeObject(data []byte, where string) (map[string]json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var m map[string]json.RawMessage
	if err := d.Decode(&m); err != nil {
		return nil, inputErr(where, "not a JSON object: %v", jsonProblem(err))
	}
	if m == nil {
		return nil, inputErr(where, "not a JSON object")
	}
	if d.More() {
		return nil, inputErr(where, "trailing data after the JSON object")
	}
	var rest json.RawMessage
	if err := d.Decode(&rest); err == nil {
		return nil, inputErr(where, "trailing data after the JSON object")
	}
	return m, nil
}

func isNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}

func present(m map[string]json.RawMessage, key string) bool {
	raw, ok := m[key]
	return ok && !isNull(raw)
}

func objOf(raw json.RawMessage, where string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, inputErr(where, "must be an object, not %s", short(raw))
	}
	return m, nil
}

func listOf(raw json.RawMessage, where string) ([]json.RawMessage, error) {
	var l []json.RawMessage
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, inputErr(where, "must be a list, not %s", short(raw))
	}
	return l, nil
}

// intOf reads a whole JSON number.
func intOf(raw json.RawMessage, where string) (int, error) {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil || f != math.Trunc(f) || math.Abs(f) > 1e15 {
		return 0, inputErr(where, "must be a whole number, not %s", short(raw))
	}
	return int(f), nil
}

func strOf(raw json.RawMessage, where string) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", inputErr(where, "must be a string, not %s", short(raw))
	}
	return s, nil
}

func boolOf(raw json.RawMessage) (bool, bool) {
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, false
	}
	return b, true
}

// seatOf reads a seat number 1..n.
func seatOf(raw json.RawMessage, n int, where string) (int, error) {
	v, err := intOf(raw, where)
	if err != nil {
		return 0, inputErr(where, "must be a seat number from 1 to %d, not %s", n, short(raw))
	}
	if v < 1 || v > n {
		return 0, inputErr(where, "seat %d does not exist (seats 1 to %d)", v, n)
	}
	return v, nil
}

func short(raw json.RawMessage) string {
	var b bytes.Buffer
	s := string(raw)
	if err := json.Compact(&b, raw); err == nil {
		s = b.String()
	}
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	if s == "" {
		s = "nothing"
	}
	return s
}

// fieldf makes a Where: the file's field path, with words beside it only in the form of wherePhrases.
func fieldf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// jsonProblem says what the JSON decoder found wrong, in words a reader's language can say: where the syntax
// breaks, the file ending early, a value of the wrong kind.
func jsonProblem(err error) Phrase {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return phrase("the JSON syntax breaks at byte %d", syn.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return phrase("the file ends before the JSON does")
	case errors.As(err, &typ) && typ.Field != "":
		return phrase("%s has a value of the wrong kind (%s)", typ.Field, jsonKind(typ.Value))
	case errors.As(err, &typ):
		return phrase("it is %s", jsonKind(typ.Value))
	}
	return phrase("it cannot be read as JSON")
}

// jsonKind says a JSON value's kind as the decoder names it ("array", "string") in words.
func jsonKind(v string) Phrase {
	switch v {
	case "array":
		return phrase("a list")
	case "string":
		return phrase("a string")
	case "bool":
		return phrase("true or false")
	case "object":
		return phrase("an object")
	}
	return phrase("a number")
}
