package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// sessionQueries are sqlrepo.SessionQueries.
type sessionQueries struct{ q *db.Queries }

var _ sqlrepo.SessionQueries = sessionQueries{}

func (r sessionQueries) CreateSession(ctx context.Context, s domain.Session) error {
	return r.q.CreateSession(ctx, db.CreateSessionParams(sqlrepo.NewSessionOf(values, s, sessionUser)))
}

func (r sessionQueries) GetSession(ctx context.Context, idHash string) (domain.Session, error) {
	row, err := r.q.GetSession(ctx, idHash)
	return sessionOf(row), err
}

func (r sessionQueries) UpdateSession(ctx context.Context, s domain.Session) (int64, error) {
	return r.q.UpdateSession(ctx, db.UpdateSessionParams{
		UserID:       sessionUser(s.UserID),
		CsrfToken:    s.CSRFToken,
		LastActivity: dbTime(s.LastActivity),
		IDHash:       s.IDHash,
	})
}

func (r sessionQueries) TouchSession(ctx context.Context, idHash string, now, staleBefore time.Time) error {
	return r.q.TouchSession(ctx, db.TouchSessionParams{Now: dbTime(now), IDHash: idHash, StaleBefore: dbTime(staleBefore)})
}

func (r sessionQueries) DeleteSession(ctx context.Context, idHash string) error {
	return r.q.DeleteSession(ctx, idHash)
}

func (r sessionQueries) DeleteSessionsByUser(ctx context.Context, userID int64) (int64, error) {
	return r.q.DeleteSessionsByUser(ctx, userID)
}

func (r sessionQueries) DeleteIdleSessions(ctx context.Context, cutoff time.Time) (int64, error) {
	return r.q.DeleteIdleSessions(ctx, dbTime(cutoff))
}

// sessionUser stores a session that no login has bound yet (UserID 0) with a
// NULL user_id, which the foreign key lets through.
func sessionUser(id int64) pgtype.Int8 {
	return pgtype.Int8{Int64: id, Valid: id != 0}
}

func sessionOf(row db.Session) domain.Session {
	return sqlrepo.SessionOf(values, row)
}
