// Package telegramtest is a local Bot API server for the tests (net/http/httptest): it speaks getMe, getUpdates
// (long polling with its offset), setWebhook and deleteWebhook, sendMessage, editMessageText and
// answerCallbackQuery, records what it was sent, and fails when told to (5xx, 403, 400 "chat not found", 429 with
// retry_after). No test reaches Telegram.
package telegramtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/telegram"
)

// BotName is the fake bot's username.
const BotName = "club_test_bot"

// Call is one call the bot made: its method and what it said.
type Call struct {
	Method    string
	Chat      string // sendMessage's and editMessageText's chat
	MessageID int64  // the message sent, or edited
	Text      string
	Keyboard  telegram.Keyboard
	Callback  string // answerCallbackQuery's id
	Alert     bool
	URL       string // setWebhook's
	Secret    string // setWebhook's secret_token
}

// Fault is how a send fails: an HTTP status with Telegram's description, and for 429 the seconds to wait.
type Fault struct {
	Status      int
	Description string
	RetryAfter  int
}

// The faults Telegram answers with.
var (
	Down     = Fault{Status: http.StatusBadGateway}
	Blocked  = Fault{Status: http.StatusForbidden, Description: "Forbidden: bot was blocked by the user"}
	ChatGone = Fault{Status: http.StatusBadRequest, Description: "Bad Request: chat not found"}
	TooMany  = func(seconds int) Fault {
		return Fault{Status: http.StatusTooManyRequests, Description: "Too Many Requests: retry after " + strconv.Itoa(seconds), RetryAfter: seconds}
	}
	BadMarkup = Fault{Status: http.StatusBadRequest, Description: "Bad Request: can't parse entities"}
)

// Server is the fake Bot API.
type Server struct {
	*httptest.Server
	Token string

	mu      sync.Mutex
	calls   []Call
	updates []telegram.Update
	faults  map[string][]Fault // by chat, used in order
	nextMsg int64
	nextUpd int64
	wake    chan struct{}
}

// New starts a fake Bot API for a bot with token, closed when t ends.
func New(t testing.TB, token string) *Server {
	s := &Server{Token: token, faults: map[string][]Fault{}, nextMsg: 100, nextUpd: 1, wake: make(chan struct{}, 1)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Fail makes the next sends to chat fail with these faults, one each.
func (s *Server) Fail(chat string, f ...Fault) {
	s.mu.Lock()
	s.faults[chat] = append(s.faults[chat], f...)
	s.mu.Unlock()
}

// Push queues an update for getUpdates, numbering it.
func (s *Server) Push(u telegram.Update) telegram.Update {
	s.mu.Lock()
	u.UpdateID = s.nextUpd
	s.nextUpd++
	s.updates = append(s.updates, u)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return u
}

// Calls returns every call the bot made, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// To returns the calls that sent or edited a message in chat, in order.
func (s *Server) To(chat string) []Call {
	var out []Call
	for _, c := range s.Calls() {
		if c.Chat == chat && (c.Method == "sendMessage" || c.Method == "editMessageText") {
			out = append(out, c)
		}
	}
	return out
}

// Last is the last message sent or edited in chat (a zero Call for none).
func (s *Server) Last(chat string) Call {
	all := s.To(chat)
	if len(all) == 0 {
		return Call{}
	}
	return all[len(all)-1]
}

// Answers returns the answers to button presses, in order.
func (s *Server) Answers() []Call {
	var out []Call
	for _, c := range s.Calls() {
		if c.Method == "answerCallbackQuery" {
			out = append(out, c)
		}
	}
	return out
}

// Text is a private chat's message update from user chat (his app's language lang).
func Text(chat int64, lang, text string) telegram.Update {
	return telegram.Update{Message: &telegram.Message{MessageID: 1, From: &telegram.User{ID: chat, FirstName: "Member", Language: lang},
		Chat: telegram.Chat{ID: chat, Type: "private"}, Date: time.Now().Unix(), Text: text}}
}

// Press is a press by user from of a button with data on message id of chat.
func Press(from, chat, messageID int64, data string) telegram.Update {
	return telegram.Update{CallbackQuery: &telegram.CallbackQuery{ID: "cb" + strconv.FormatInt(time.Now().UnixNano(), 36), From: telegram.User{ID: from},
		Message: &telegram.Message{MessageID: messageID, Chat: telegram.Chat{ID: chat, Type: "private"}}, Data: data}}
}

func answer(w http.ResponseWriter, result any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

func refuse(w http.ResponseWriter, f Fault) {
	if f.Status >= 500 { // a proxy's page, not the Bot API's JSON
		http.Error(w, "<html><body>502 Bad Gateway</body></html>", f.Status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.Status)
	body := map[string]any{"ok": false, "error_code": f.Status, "description": f.Description}
	if f.RetryAfter > 0 {
		body["parameters"] = map[string]int{"retry_after": f.RetryAfter}
	}
	json.NewEncoder(w).Encode(body)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/bot"+s.Token+"/")
	if !ok || r.Method != http.MethodPost {
		refuse(w, Fault{Status: http.StatusUnauthorized, Description: "Unauthorized"})
		return
	}
	var p struct {
		ChatID      json.RawMessage `json:"chat_id"`
		MessageID   int64           `json:"message_id"`
		Text        string          `json:"text"`
		Offset      int64           `json:"offset"`
		Timeout     int             `json:"timeout"`
		URL         string          `json:"url"`
		Secret      string          `json:"secret_token"`
		CallbackID  string          `json:"callback_query_id"`
		ShowAlert   bool            `json:"show_alert"`
		ReplyMarkup *struct {
			InlineKeyboard telegram.Keyboard `json:"inline_keyboard"`
		} `json:"reply_markup"`
	}
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
		refuse(w, Fault{Status: http.StatusBadRequest, Description: "Bad Request: " + err.Error()})
		return
	}
	chat := strings.Trim(string(p.ChatID), `"`)
	call := Call{Method: rest, Chat: chat, MessageID: p.MessageID, Text: p.Text, Callback: p.CallbackID, Alert: p.ShowAlert, URL: p.URL, Secret: p.Secret}
	if p.ReplyMarkup != nil {
		call.Keyboard = p.ReplyMarkup.InlineKeyboard
	}
	switch rest {
	case "getMe":
		answer(w, telegram.User{ID: 4242, IsBot: true, FirstName: "Club", Username: BotName})
		return
	case "getUpdates":
		s.getUpdates(w, p.Offset, p.Timeout)
		return
	case "sendMessage", "editMessageText":
		s.mu.Lock()
		if f := s.faults[chat]; len(f) > 0 {
			s.faults[chat] = f[1:]
			s.mu.Unlock()
			refuse(w, f[0])
			return
		}
		if rest == "sendMessage" {
			s.nextMsg++
			call.MessageID = s.nextMsg
		}
		s.calls = append(s.calls, call)
		s.mu.Unlock()
		id, _ := strconv.ParseInt(chat, 10, 64)
		answer(w, telegram.Message{MessageID: call.MessageID, Chat: telegram.Chat{ID: id}, Text: p.Text})
		return
	case "answerCallbackQuery", "setWebhook", "deleteWebhook":
		s.mu.Lock()
		s.calls = append(s.calls, call)
		s.mu.Unlock()
		answer(w, true)
		return
	}
	refuse(w, Fault{Status: http.StatusNotFound, Description: fmt.Sprintf("Not Found: method %s", rest)})
}

// getUpdates answers the updates from offset on, waiting (at most a second, whatever the timeout asked) for one.
func (s *Server) getUpdates(w http.ResponseWriter, offset int64, timeout int) {
	deadline := time.After(min(time.Duration(timeout)*time.Second, time.Second))
	for {
		s.mu.Lock()
		var out []telegram.Update
		keep := s.updates[:0]
		for _, u := range s.updates {
			if u.UpdateID >= offset {
				out = append(out, u)
				keep = append(keep, u)
			}
		}
		s.updates = keep // confirmed updates are forgotten, as Telegram does
		s.mu.Unlock()
		if len(out) > 0 {
			answer(w, out)
			return
		}
		select {
		case <-s.wake:
		case <-deadline:
			answer(w, []telegram.Update{})
			return
		}
	}
}
