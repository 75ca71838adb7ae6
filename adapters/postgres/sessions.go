package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// sessions implements ports.SessionRepository. A duplicate digest violates
// the primary key and a missing user the foreign key; storeError turns them
// into domain.ErrConflict and domain.ErrNotFound.
type sessions struct{ q *db.Queries }

var _ ports.SessionRepository = sessions{}

func (r sessions) Create(ctx context.Context, s domain.Session) error {
	err := r.q.CreateSession(ctx, db.CreateSessionParams{
		IDHash:       s.IDHash,
		Kind:         string(s.Kind),
		UserID:       sessionUser(s.UserID),
		CsrfToken:    s.CSRFToken,
		LastActivity: dbTime(s.LastActivity),
		CreatedAt:    dbTime(s.CreatedAt),
	})
	return storeError("create session", err)
}

func (r sessions) ByHash(ctx context.Context, idHash string) (domain.Session, error) {
	row, err := r.q.GetSession(ctx, idHash)
	if err != nil {
		return domain.Session{}, storeError("get session by hash", err)
	}
	return sessionOf(row), nil
}

func (r sessions) Update(ctx context.Context, s domain.Session) error {
	const op = "update session"
	n, err := r.q.UpdateSession(ctx, db.UpdateSessionParams{
		UserID:       sessionUser(s.UserID),
		CsrfToken:    s.CSRFToken,
		LastActivity: dbTime(s.LastActivity),
		IDHash:       s.IDHash,
	})
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

// Touch leaves the staleness test to the UPDATE's WHERE clause, so that a
// session used within domain.TouchInterval costs no write.
func (r sessions) Touch(ctx context.Context, idHash string, now time.Time) error {
	err := r.q.TouchSession(ctx, db.TouchSessionParams{
		IDHash:      idHash,
		Now:         dbTime(now),
		StaleBefore: dbTime(now.Add(-domain.TouchInterval)),
	})
	return storeError("touch session", err)
}

func (r sessions) Delete(ctx context.Context, idHash string) error {
	return storeError("delete session", r.q.DeleteSession(ctx, idHash))
}

func (r sessions) DeleteByUser(ctx context.Context, userID int64) (int64, error) {
	n, err := r.q.DeleteSessionsByUser(ctx, userID)
	return n, storeError(fmt.Sprintf("delete sessions of user %d", userID), err)
}

func (r sessions) DeleteIdle(ctx context.Context, cutoff time.Time) (int64, error) {
	n, err := r.q.DeleteIdleSessions(ctx, dbTime(cutoff))
	return n, storeError("delete idle sessions", err)
}

// sessionUser stores a session that no login has bound yet (UserID 0) with a
// NULL user_id, which the foreign key lets through.
func sessionUser(id int64) pgtype.Int8 {
	return pgtype.Int8{Int64: id, Valid: id != 0}
}

func sessionOf(row db.Session) domain.Session {
	return domain.Session{
		IDHash:       row.IDHash,
		Kind:         domain.SessionKind(row.Kind),
		UserID:       row.UserID.Int64, // 0 when NULL, as the port wants
		CSRFToken:    row.CsrfToken,
		LastActivity: timeOf(row.LastActivity),
		CreatedAt:    timeOf(row.CreatedAt),
	}
}
