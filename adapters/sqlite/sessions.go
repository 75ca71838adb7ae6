package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// sessions is ports.SessionRepository. A duplicate digest violates the
// primary key and a missing user the foreign key; storeError turns them into
// domain.ErrConflict and domain.ErrNotFound.
type sessions struct{ c conns }

func (r sessions) Create(ctx context.Context, s domain.Session) error {
	err := r.c.write.CreateSession(ctx, db.CreateSessionParams{
		IDHash:       s.IDHash,
		Kind:         string(s.Kind),
		UserID:       sessionUser(s.UserID),
		CsrfToken:    s.CSRFToken,
		LastActivity: dbTime(s.LastActivity),
		CreatedAt:    dbTime(s.CreatedAt),
	})
	if err != nil {
		return storeError("create session", err)
	}
	return nil
}

func (r sessions) ByHash(ctx context.Context, idHash string) (domain.Session, error) {
	row, err := r.c.read.GetSession(ctx, idHash)
	if err != nil {
		return domain.Session{}, storeError("get session by hash", err)
	}
	return sessionOf(row), nil
}

func (r sessions) Update(ctx context.Context, s domain.Session) error {
	n, err := r.c.write.UpdateSession(ctx, db.UpdateSessionParams{
		UserID:       sessionUser(s.UserID),
		CsrfToken:    s.CSRFToken,
		LastActivity: dbTime(s.LastActivity),
		IDHash:       s.IDHash,
	})
	if err != nil {
		return storeError("update session", err)
	}
	if n == 0 {
		return notFound("update session")
	}
	return nil
}

// Touch leaves the staleness test to the UPDATE's WHERE clause, so that a
// session used within domain.TouchInterval costs a read of one row and no
// write.
func (r sessions) Touch(ctx context.Context, idHash string, now time.Time) error {
	err := r.c.write.TouchSession(ctx, db.TouchSessionParams{
		Now:         dbTime(now),
		IDHash:      idHash,
		StaleBefore: dbTime(now.Add(-domain.TouchInterval)),
	})
	if err != nil {
		return storeError("touch session", err)
	}
	return nil
}

func (r sessions) Delete(ctx context.Context, idHash string) error {
	if err := r.c.write.DeleteSession(ctx, idHash); err != nil {
		return storeError("delete session", err)
	}
	return nil
}

func (r sessions) DeleteByUser(ctx context.Context, userID int64) (int64, error) {
	n, err := r.c.write.DeleteSessionsByUser(ctx, userID)
	if err != nil {
		return 0, storeError(fmt.Sprintf("delete sessions of user %d", userID), err)
	}
	return n, nil
}

func (r sessions) DeleteIdle(ctx context.Context, cutoff time.Time) (int64, error) {
	n, err := r.c.write.DeleteIdleSessions(ctx, dbTime(cutoff))
	if err != nil {
		return 0, storeError("delete idle sessions", err)
	}
	return n, nil
}

// sessionUser stores a session that no login has bound yet (UserID 0) with a
// NULL user_id, which the foreign key lets through.
func sessionUser(id int64) sql.NullInt64 {
	return sql.NullInt64{Int64: id, Valid: id != 0}
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
