package domain

import "time"

// Session is a browser session, Sanctum's "stateful" mode: a cookie names
// it, and it holds the CSRF token the browser must echo on unsafe requests.
// Only the SHA-256 of the cookie's value is stored, as with tokens, so a
// leaked table does not hand out live sessions.
type Session struct {
	IDHash       string      // hex SHA-256 of the session cookie's value
	Kind         SessionKind // the transport that started it, for good
	UserID       int64       // 0 until a login binds the session to a user
	CSRFToken    string
	LastActivity time.Time
	CreatedAt    time.Time
}

// SessionKind is the transport a session belongs to. Each transport
// accepts only sessions of its own kind: a cookie value is a credential of
// the side that issued it, whatever name a client sends it under. The zero
// value is neither kind, so a session whose kind was never set is accepted
// nowhere.
type SessionKind string

const (
	// SessionAPI is a session of the API's stateful mode: the SPA's
	// inkwell_session cookie, opened by /sanctum/csrf-cookie or a
	// remember-me cookie.
	SessionAPI SessionKind = "api"
	// SessionConsole is a session of the admin console: its inkwell_admin
	// cookie, opened by the console's sign-in form.
	SessionConsole SessionKind = "console"
)

// Expired reports whether the session has been idle for lifetime or longer
// at now.
func (s Session) Expired(now time.Time, lifetime time.Duration) bool {
	return !now.Before(s.LastActivity.Add(lifetime))
}

// NeedsTouch reports whether last_activity is stale enough to be written at
// now; as with tokens, writing it on every request would make every read a
// write.
func (s Session) NeedsTouch(now time.Time) bool {
	return now.Sub(s.LastActivity) >= TouchInterval
}

// ErrCSRFMismatch refuses an unsafe request of a session whose X-XSRF-TOKEN
// header is missing or wrong.
var ErrCSRFMismatch = &Error{Kind: Forbidden, Code: "csrf_mismatch"}
