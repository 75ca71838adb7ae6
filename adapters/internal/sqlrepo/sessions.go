package sqlrepo

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// SessionQueries are a store's statements on browser sessions. A session
// that no login has bound yet (UserID 0) is stored with a NULL user, which
// the foreign key lets through, and read back with UserID 0.
type SessionQueries interface {
	CreateSession(ctx context.Context, s domain.Session) error
	GetSession(ctx context.Context, idHash string) (domain.Session, error)
	UpdateSession(ctx context.Context, s domain.Session) (int64, error)
	// TouchSession sets the session's last activity to now where it is
	// at or before staleBefore.
	TouchSession(ctx context.Context, idHash string, now, staleBefore time.Time) error
	DeleteSession(ctx context.Context, idHash string) error
	DeleteSessionsByUser(ctx context.Context, userID int64) (int64, error)
	DeleteIdleSessions(ctx context.Context, cutoff time.Time) (int64, error)
}

// Sessions is ports.SessionRepository. A duplicate digest violates the
// primary key and a missing user the foreign key; the store's Border turns
// them into domain.ErrConflict and domain.ErrNotFound.
type Sessions struct {
	Q SessionQueries
	B Border
}

var _ ports.SessionRepository = Sessions{}

func (r Sessions) Create(ctx context.Context, s domain.Session) error {
	return r.B.Err("create session", r.Q.CreateSession(ctx, s))
}

func (r Sessions) ByHash(ctx context.Context, idHash string) (domain.Session, error) {
	s, err := r.Q.GetSession(ctx, idHash)
	if err != nil {
		return domain.Session{}, r.B.Err("get session by hash", err)
	}
	return s, nil
}

func (r Sessions) Update(ctx context.Context, s domain.Session) error {
	n, err := r.Q.UpdateSession(ctx, s)
	return r.B.Affected("update session", n, err)
}

// Touch leaves the staleness test to the UPDATE's WHERE clause, so that a
// session used within domain.TouchInterval costs no write.
func (r Sessions) Touch(ctx context.Context, idHash string, now time.Time) error {
	return r.B.Err("touch session", r.Q.TouchSession(ctx, idHash, now, now.Add(-domain.TouchInterval)))
}

func (r Sessions) Delete(ctx context.Context, idHash string) error {
	return r.B.Err("delete session", r.Q.DeleteSession(ctx, idHash))
}

func (r Sessions) DeleteByUser(ctx context.Context, userID int64) (int64, error) {
	n, err := r.Q.DeleteSessionsByUser(ctx, userID)
	if err != nil {
		return 0, r.B.Err(fmt.Sprintf("delete sessions of user %d", userID), err)
	}
	return n, nil
}

func (r Sessions) DeleteIdle(ctx context.Context, cutoff time.Time) (int64, error) {
	n, err := r.Q.DeleteIdleSessions(ctx, cutoff)
	if err != nil {
		return 0, r.B.Err("delete idle sessions", err)
	}
	return n, nil
}
