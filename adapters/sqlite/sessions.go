package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// sessionQueries are sqlrepo.SessionQueries. A session read for a request
// costs a read of one row; TouchSession writes only when the session's last
// activity is stale.
type sessionQueries struct{ c conns }

var _ sqlrepo.SessionQueries = sessionQueries{}

func (q sessionQueries) CreateSession(ctx context.Context, s domain.Session) error {
	return q.c.write.CreateSession(ctx, db.CreateSessionParams(sqlrepo.NewSessionOf(values, s, sessionUser)))
}

func (q sessionQueries) GetSession(ctx context.Context, idHash string) (domain.Session, error) {
	row, err := q.c.read.GetSession(ctx, idHash)
	return sessionOf(row), err
}

func (q sessionQueries) UpdateSession(ctx context.Context, s domain.Session) (int64, error) {
	return q.c.write.UpdateSession(ctx, db.UpdateSessionParams{
		UserID:       sessionUser(s.UserID),
		CsrfToken:    s.CSRFToken,
		LastActivity: dbTime(s.LastActivity),
		IDHash:       s.IDHash,
	})
}

func (q sessionQueries) TouchSession(ctx context.Context, idHash string, now, staleBefore time.Time) error {
	return q.c.write.TouchSession(ctx, db.TouchSessionParams{Now: dbTime(now), IDHash: idHash, StaleBefore: dbTime(staleBefore)})
}

func (q sessionQueries) DeleteSession(ctx context.Context, idHash string) error {
	return q.c.write.DeleteSession(ctx, idHash)
}

func (q sessionQueries) DeleteSessionsByUser(ctx context.Context, userID int64) (int64, error) {
	return q.c.write.DeleteSessionsByUser(ctx, userID)
}

func (q sessionQueries) DeleteIdleSessions(ctx context.Context, cutoff time.Time) (int64, error) {
	return q.c.write.DeleteIdleSessions(ctx, dbTime(cutoff))
}

// sessionUser stores a session that no login has bound yet (UserID 0) with a
// NULL user_id, which the foreign key lets through.
func sessionUser(id int64) sql.NullInt64 {
	return sql.NullInt64{Int64: id, Valid: id != 0}
}

func sessionOf(row db.Session) domain.Session {
	return sqlrepo.SessionOf(values, row)
}
