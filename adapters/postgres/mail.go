package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// mails implements ports.MailRepository.
type mails struct{ q *db.Queries }

var _ ports.MailRepository = mails{}

func (r mails) Enqueue(ctx context.Context, m *domain.Mail) error {
	id, err := r.q.EnqueueMail(ctx, db.EnqueueMailParams{
		MessageID: m.MessageID, Recipient: m.To, Subject: m.Subject, TextBody: m.Text, HtmlBody: m.HTML,
		Status: string(m.Status), Attempts: int32(m.Attempts), NextAttemptAt: dbTime(m.NextAttemptAt),
		ClaimedUntil: nullTime(m.ClaimedUntil), LastError: m.LastError, SentAt: nullTime(m.SentAt),
		ExpiresAt: dbTime(m.ExpiresAt), CreatedAt: dbTime(m.CreatedAt), UpdatedAt: dbTime(m.UpdatedAt),
	})
	if err != nil {
		return storeError("enqueue mail", err)
	}
	m.ID = id
	return nil
}

func (r mails) Get(ctx context.Context, id int64) (domain.Mail, error) {
	row, err := r.q.GetMail(ctx, id)
	if err != nil {
		return domain.Mail{}, storeError(fmt.Sprintf("get mail %d", id), err)
	}
	return mailOf(row), nil
}

func (r mails) Claim(ctx context.Context, now, until time.Time, limit int) ([]domain.Mail, error) {
	rows, err := r.q.ClaimMails(ctx, db.ClaimMailsParams{Until: dbTime(until), Now: dbTime(now), RowLimit: int64(limit)})
	if err != nil {
		return nil, storeError("claim mails", err)
	}
	out := make([]domain.Mail, len(rows))
	for i, row := range rows {
		out[i] = mailOf(row)
	}
	return out, nil
}

func (r mails) Update(ctx context.Context, m domain.Mail) error {
	op := fmt.Sprintf("update mail %d", m.ID)
	n, err := r.q.UpdateMail(ctx, db.UpdateMailParams{
		ID: m.ID, Status: string(m.Status), Attempts: int32(m.Attempts), NextAttemptAt: dbTime(m.NextAttemptAt),
		ClaimedUntil: nullTime(m.ClaimedUntil), LastError: m.LastError, SentAt: nullTime(m.SentAt),
		TextBody: m.Text, HtmlBody: m.HTML, UpdatedAt: dbTime(m.UpdatedAt),
	})
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func (r mails) Expire(ctx context.Context, now time.Time) (int64, error) {
	n, err := r.q.ExpireMails(ctx, dbTime(now))
	return n, storeError("expire mails", err)
}

func (r mails) Prune(ctx context.Context, before time.Time) (int64, error) {
	n, err := r.q.PruneMails(ctx, dbTime(before))
	return n, storeError("prune mails", err)
}

func (r mails) Pending(ctx context.Context) (int64, error) {
	n, err := r.q.CountPendingMails(ctx)
	return n, storeError("count pending mails", err)
}

func mailOf(row db.MailOutbox) domain.Mail {
	return domain.Mail{
		ID: row.ID, MessageID: row.MessageID, To: row.Recipient, Subject: row.Subject, Text: row.TextBody, HTML: row.HtmlBody,
		Status: domain.MailStatus(row.Status), Attempts: int(row.Attempts), NextAttemptAt: timeOf(row.NextAttemptAt),
		ClaimedUntil: timePtrOf(row.ClaimedUntil), LastError: row.LastError, SentAt: timePtrOf(row.SentAt),
		ExpiresAt: timeOf(row.ExpiresAt), CreatedAt: timeOf(row.CreatedAt), UpdatedAt: timeOf(row.UpdatedAt),
	}
}
