package postgres

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// mailQueries are sqlrepo.MailQueries.
type mailQueries struct{ q *db.Queries }

var _ sqlrepo.MailQueries = mailQueries{}

func (r mailQueries) EnqueueMail(ctx context.Context, m domain.Mail) (int64, error) {
	return r.q.EnqueueMail(ctx, db.EnqueueMailParams{
		MessageID: m.MessageID, Recipient: m.To, Subject: m.Subject, TextBody: m.Text, HtmlBody: m.HTML,
		Status: string(m.Status), Attempts: int32(m.Attempts), NextAttemptAt: dbTime(m.NextAttemptAt),
		ClaimedUntil: nullTime(m.ClaimedUntil), LastError: m.LastError, SentAt: nullTime(m.SentAt),
		ExpiresAt: dbTime(m.ExpiresAt), CreatedAt: dbTime(m.CreatedAt), UpdatedAt: dbTime(m.UpdatedAt),
	})
}

func (r mailQueries) GetMail(ctx context.Context, id int64) (domain.Mail, error) {
	row, err := r.q.GetMail(ctx, id)
	return mailOf(row), err
}

func (r mailQueries) ClaimMails(ctx context.Context, now, until time.Time, limit int) ([]domain.Mail, error) {
	rows, err := r.q.ClaimMails(ctx, db.ClaimMailsParams{Until: dbTime(until), Now: dbTime(now), RowLimit: int64(limit)})
	return sqlrepo.Rows(rows, mailOf), err
}

func (r mailQueries) UpdateMail(ctx context.Context, m domain.Mail) (int64, error) {
	return r.q.UpdateMail(ctx, db.UpdateMailParams{
		ID: m.ID, Status: string(m.Status), Attempts: int32(m.Attempts), NextAttemptAt: dbTime(m.NextAttemptAt),
		ClaimedUntil: nullTime(m.ClaimedUntil), LastError: m.LastError, SentAt: nullTime(m.SentAt),
		TextBody: m.Text, HtmlBody: m.HTML, UpdatedAt: dbTime(m.UpdatedAt),
	})
}

func (r mailQueries) ExpireMails(ctx context.Context, now time.Time) (int64, error) {
	return r.q.ExpireMails(ctx, dbTime(now))
}

func (r mailQueries) PruneMails(ctx context.Context, before time.Time) (int64, error) {
	return r.q.PruneMails(ctx, dbTime(before))
}

func (r mailQueries) CountPendingMails(ctx context.Context) (int64, error) {
	return r.q.CountPendingMails(ctx)
}

func mailOf(row db.MailOutbox) domain.Mail {
	return sqlrepo.MailOf(values, row)
}
