package sqlite

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// mailQueries are sqlrepo.MailQueries.
type mailQueries struct{ c conns }

var _ sqlrepo.MailQueries = mailQueries{}

func (q mailQueries) EnqueueMail(ctx context.Context, m domain.Mail) (int64, error) {
	return q.c.write.EnqueueMail(ctx, db.EnqueueMailParams{
		MessageID: m.MessageID, Recipient: m.To, Subject: m.Subject, TextBody: m.Text, HtmlBody: m.HTML,
		Status: string(m.Status), Attempts: int64(m.Attempts), NextAttemptAt: dbTime(m.NextAttemptAt),
		ClaimedUntil: nullTime(m.ClaimedUntil), LastError: m.LastError, SentAt: nullTime(m.SentAt),
		ExpiresAt: dbTime(m.ExpiresAt), CreatedAt: dbTime(m.CreatedAt), UpdatedAt: dbTime(m.UpdatedAt),
	})
}

func (q mailQueries) GetMail(ctx context.Context, id int64) (domain.Mail, error) {
	row, err := q.c.read.GetMail(ctx, id)
	return mailOf(row), err
}

func (q mailQueries) ClaimMails(ctx context.Context, now, until time.Time, limit int) ([]domain.Mail, error) {
	rows, err := q.c.write.ClaimMails(ctx, db.ClaimMailsParams{Until: nullTime(&until), Now: dbTime(now), RowLimit: int64(limit)})
	return sqlrepo.Rows(rows, mailOf), err
}

func (q mailQueries) UpdateMail(ctx context.Context, m domain.Mail) (int64, error) {
	return q.c.write.UpdateMail(ctx, db.UpdateMailParams{
		ID: m.ID, Status: string(m.Status), Attempts: int64(m.Attempts), NextAttemptAt: dbTime(m.NextAttemptAt),
		ClaimedUntil: nullTime(m.ClaimedUntil), LastError: m.LastError, SentAt: nullTime(m.SentAt),
		TextBody: m.Text, HtmlBody: m.HTML, UpdatedAt: dbTime(m.UpdatedAt),
	})
}

func (q mailQueries) ExpireMails(ctx context.Context, now time.Time) (int64, error) {
	return q.c.write.ExpireMails(ctx, dbTime(now))
}

func (q mailQueries) PruneMails(ctx context.Context, before time.Time) (int64, error) {
	return q.c.write.PruneMails(ctx, dbTime(before))
}

func (q mailQueries) CountPendingMails(ctx context.Context) (int64, error) {
	return q.c.read.CountPendingMails(ctx)
}

func mailOf(row db.MailOutbox) domain.Mail {
	return sqlrepo.MailOf(values, row)
}
