// Package telegram is the club's Telegram bot: a small client of the Bot API (net/http and encoding/json: the
// few methods the bot needs), the bot that answers the members' chats and buttons through the club's services,
// its long-polling loop and its webhook. No rule of the club is here: linking, registering and cancelling are
// club.Telegram's and club.Nights'.
package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// DefaultAPI is Telegram's Bot API.
const DefaultAPI = "https://api.telegram.org"

// maxBody bounds an answer read from the Bot API: a getUpdates of 100 updates is well under it.
const maxBody = 4 << 20

// callTimeout bounds every call but getUpdates, which waits PollTimeout more.
const callTimeout = 15 * time.Second

// PollTimeout is getUpdates' long-polling wait.
const PollTimeout = 30 * time.Second

// Client calls the Bot API with one bot's token.
type Client struct {
	API   string // the Bot API's address, DefaultAPI when ""
	Token string
	HTTP  *http.Client // nil: one without a timeout of its own (each call has its context's)
}

// Error is the Bot API's refusal: its error_code, description and, for 429, the seconds to wait.
type Error struct {
	Code        int
	Description string
	RetryAfter  time.Duration
}

func (e *Error) Error() string {
	if e.RetryAfter > 0 {
		return fmt.Sprintf("telegram: %d %s (retry after %s)", e.Code, e.Description, e.RetryAfter)
	}
	return fmt.Sprintf("telegram: %d %s", e.Code, e.Description)
}

// Gone reports whether err says the chat will take nothing more from the bot: the member blocked it or left
// (403), or the chat is no more (400 "chat not found", a deactivated user).
func Gone(err error) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	d := strings.ToLower(e.Description)
	return e.Code == http.StatusForbidden ||
		(e.Code == http.StatusBadRequest && (strings.Contains(d, "chat not found") || strings.Contains(d, "user is deactivated")))
}

// Permanent reports whether err is a refusal that no retry changes (a 4xx other than 429).
func Permanent(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code >= 400 && e.Code < 500 && e.Code != http.StatusTooManyRequests
}

// Wait is how long Telegram asked to wait (429's retry_after), 0 when it did not.
func Wait(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// call posts a method's parameters as JSON and decodes its result into out.
func (c *Client) call(ctx context.Context, method string, params any, out any, wait time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout+wait)
	defer cancel()
	body, err := json.Marshal(params)
	if err != nil {
		return err
	}
	api := c.API
	if api == "" {
		api = DefaultAPI
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(api, "/")+"/bot"+c.Token+"/"+method, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("telegram: %s: %w", method, redact(err, c.Token))
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return fmt.Errorf("telegram: %s: %w", method, redact(err, c.Token))
	}
	if len(b) > maxBody {
		return fmt.Errorf("telegram: %s: the answer is over %d bytes", method, maxBody)
	}
	var r struct {
		OK          bool            `json:"ok"`
		Result      json.RawMessage `json:"result"`
		ErrorCode   int             `json:"error_code"`
		Description string          `json:"description"`
		Parameters  struct {
			RetryAfter int `json:"retry_after"`
		} `json:"parameters"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return &Error{Code: resp.StatusCode, Description: "not the Bot API's answer: " + http.StatusText(resp.StatusCode)}
	}
	if !r.OK {
		code := r.ErrorCode
		if code == 0 {
			code = resp.StatusCode
		}
		return &Error{Code: code, Description: r.Description, RetryAfter: time.Duration(r.Parameters.RetryAfter) * time.Second}
	}
	if out != nil {
		return json.Unmarshal(r.Result, out)
	}
	return nil
}

// redact takes the token out of a transport error (its URL names it).
func redact(err error, token string) error {
	if token == "" {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), token, "TOKEN"))
}

// User is a Telegram user (or bot).
type User struct {
	ID        int64  `json:"id"`
	IsBot     bool   `json:"is_bot"`
	FirstName string `json:"first_name"`
	Username  string `json:"username"`
	Language  string `json:"language_code"`
}

// Chat is a chat: private ones have the user's id.
type Chat struct {
	ID   int64  `json:"id"`
	Type string `json:"type"` // private, group, supergroup, channel
}

// Message is a message the bot receives or sent.
type Message struct {
	MessageID int64  `json:"message_id"`
	From      *User  `json:"from"`
	Chat      Chat   `json:"chat"`
	Date      int64  `json:"date"`
	Text      string `json:"text"`
}

// CallbackQuery is a press of an inline button.
type CallbackQuery struct {
	ID      string   `json:"id"`
	From    User     `json:"from"`
	Message *Message `json:"message"`
	Data    string   `json:"data"`
}

// Update is one of getUpdates' (or the webhook's) updates.
type Update struct {
	UpdateID      int64          `json:"update_id"`
	Message       *Message       `json:"message"`
	CallbackQuery *CallbackQuery `json:"callback_query"`
}

// Button is an inline keyboard's button: a callback's data, or an address to open.
type Button struct {
	Text string `json:"text"`
	Data string `json:"callback_data,omitempty"`
	URL  string `json:"url,omitempty"`
}

// Keyboard is an inline keyboard: rows of buttons.
type Keyboard [][]Button

type markup struct {
	InlineKeyboard Keyboard `json:"inline_keyboard"`
}

// GetMe returns the bot itself.
func (c *Client) GetMe(ctx context.Context) (User, error) {
	var u User
	err := c.call(ctx, "getMe", struct{}{}, &u, 0)
	return u, err
}

// GetUpdates long-polls for the updates after offset, waiting up to wait.
func (c *Client) GetUpdates(ctx context.Context, offset int64, wait time.Duration) ([]Update, error) {
	var out []Update
	err := c.call(ctx, "getUpdates", map[string]any{"offset": offset, "timeout": int(wait / time.Second), "limit": 100,
		"allowed_updates": []string{"message", "callback_query"}}, &out, wait)
	return out, err
}

// SetWebhook has Telegram post the updates to url with the secret in X-Telegram-Bot-Api-Secret-Token.
func (c *Client) SetWebhook(ctx context.Context, url, secret string) error {
	return c.call(ctx, "setWebhook", map[string]any{"url": url, "secret_token": secret,
		"allowed_updates": []string{"message", "callback_query"}}, nil, 0)
}

// DeleteWebhook goes back to getUpdates.
func (c *Client) DeleteWebhook(ctx context.Context) error {
	return c.call(ctx, "deleteWebhook", struct{}{}, nil, 0)
}

// SendMessage sends an HTML text (Telegram's subset, escaped by the caller) to a chat (an id or a channel's
// @name), with an inline keyboard when k is not nil.
func (c *Client) SendMessage(ctx context.Context, chat string, html string, k Keyboard) (Message, error) {
	var m Message
	p := map[string]any{"chat_id": chat, "text": html, "parse_mode": "HTML", "link_preview_options": map[string]bool{"is_disabled": true}}
	if k != nil {
		p["reply_markup"] = markup{InlineKeyboard: k}
	}
	err := c.call(ctx, "sendMessage", p, &m, 0)
	return m, err
}

// EditMessageText replaces a message's text and keyboard (a button's answer redraws its message).
func (c *Client) EditMessageText(ctx context.Context, chat int64, messageID int64, html string, k Keyboard) error {
	p := map[string]any{"chat_id": chat, "message_id": messageID, "text": html, "parse_mode": "HTML",
		"link_preview_options": map[string]bool{"is_disabled": true}}
	if k != nil {
		p["reply_markup"] = markup{InlineKeyboard: k}
	}
	return c.call(ctx, "editMessageText", p, nil, 0)
}

// AnswerCallbackQuery answers a press: a short notice over the chat (an alert when alert).
func (c *Client) AnswerCallbackQuery(ctx context.Context, id, text string, alert bool) error {
	return c.call(ctx, "answerCallbackQuery", map[string]any{"callback_query_id": id, "text": text, "show_alert": alert}, nil, 0)
}
