package sqlrepo

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// MailQueries are a store's statements on the mail outbox.
type MailQueries interface {
	EnqueueMail(ctx context.Context, m domain.Mail) (int64, error)
	GetMail(ctx context.Context, id int64) (domain.Mail, error)
	ClaimMails(ctx context.Context, now, until time.Time, limit int) ([]domain.Mail, error)
	UpdateMail(ctx context.Context, m domain.Mail) (int64, error)
	ExpireMails(ctx context.Context, now time.Time) (int64, error)
	PruneMails(ctx context.Context, before time.Time) (int64, error)
	CountPendingMails(ctx context.Context) (int64, error)
}

// Mails is ports.MailRepository.
type Mails struct {
	Q MailQueries
	B Border
}

var _ ports.MailRepository = Mails{}

func (r Mails) Enqueue(ctx context.Context, m *domain.Mail) error {
	id, err := r.Q.EnqueueMail(ctx, *m)
	if err != nil {
		return r.B.Err("enqueue mail", err)
	}
	m.ID = id
	return nil
}

func (r Mails) Get(ctx context.Context, id int64) (domain.Mail, error) {
	m, err := r.Q.GetMail(ctx, id)
	if err != nil {
		return domain.Mail{}, r.B.Err(fmt.Sprintf("get mail %d", id), err)
	}
	return m, nil
}

func (r Mails) Claim(ctx context.Context, now, until time.Time, limit int) ([]domain.Mail, error) {
	out, err := r.Q.ClaimMails(ctx, now, until, limit)
	if err != nil {
		return nil, r.B.Err("claim mails", err)
	}
	return out, nil
}

func (r Mails) Update(ctx context.Context, m domain.Mail) error {
	n, err := r.Q.UpdateMail(ctx, m)
	return r.B.Affected(fmt.Sprintf("update mail %d", m.ID), n, err)
}

func (r Mails) Expire(ctx context.Context, now time.Time) (int64, error) {
	n, err := r.Q.ExpireMails(ctx, now)
	return n, r.B.Err("expire mails", err)
}

func (r Mails) Prune(ctx context.Context, before time.Time) (int64, error) {
	n, err := r.Q.PruneMails(ctx, before)
	return n, r.B.Err("prune mails", err)
}

func (r Mails) Pending(ctx context.Context) (int64, error) {
	n, err := r.Q.CountPendingMails(ctx)
	return n, r.B.Err("count pending mails", err)
}
