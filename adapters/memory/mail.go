package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// mails implements ports.MailRepository.
type mails struct{ u unit }

var _ ports.MailRepository = mails{}

func cloneMail(m domain.Mail) domain.Mail {
	m.NextAttemptAt, m.ExpiresAt, m.CreatedAt, m.UpdatedAt = norm(m.NextAttemptAt), norm(m.ExpiresAt), norm(m.CreatedAt), norm(m.UpdatedAt)
	m.ClaimedUntil, m.SentAt = normPtr(m.ClaimedUntil), normPtr(m.SentAt)
	return m
}

func (r mails) Enqueue(ctx context.Context, m *domain.Mail) error {
	return r.u.write(ctx, func(s *state) error {
		for _, other := range s.mails {
			if other.MessageID == m.MessageID {
				return fmt.Errorf("enqueue mail: message id %q: %w", m.MessageID, domain.ErrConflict)
			}
		}
		s.lastMail++
		stored := cloneMail(*m)
		stored.ID = s.lastMail
		s.mails[stored.ID] = stored
		m.ID = stored.ID
		return nil
	})
}

func (r mails) Get(ctx context.Context, id int64) (domain.Mail, error) {
	return get(ctx, r.u, func(s *state) map[int64]domain.Mail { return s.mails }, cloneMail, "mail", id)
}

func (r mails) Claim(ctx context.Context, now, until time.Time, limit int) ([]domain.Mail, error) {
	var out []domain.Mail
	err := r.u.write(ctx, func(s *state) error {
		for _, m := range s.mails {
			if m.Status == domain.MailPending && !m.NextAttemptAt.After(now) && m.ExpiresAt.After(now) &&
				(m.ClaimedUntil == nil || !m.ClaimedUntil.After(now)) {
				out = append(out, m)
			}
		}
		slices.SortFunc(out, func(a, b domain.Mail) int {
			return cmp.Or(a.NextAttemptAt.Compare(b.NextAttemptAt), cmp.Compare(a.ID, b.ID))
		})
		if limit > 0 && len(out) > limit {
			out = out[:limit]
		}
		for i := range out {
			out[i].ClaimedUntil = normPtr(&until)
			s.mails[out[i].ID] = out[i]
		}
		return nil
	})
	return out, err
}

func (r mails) Update(ctx context.Context, m domain.Mail) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.mails[m.ID]
		if !ok {
			return fmt.Errorf("update mail %d: %w", m.ID, domain.ErrNotFound)
		}
		stored := cloneMail(m)
		stored.MessageID, stored.To, stored.Subject = old.MessageID, old.To, old.Subject
		stored.ExpiresAt, stored.CreatedAt = old.ExpiresAt, old.CreatedAt
		s.mails[m.ID] = stored
		return nil
	})
}

func (r mails) Expire(ctx context.Context, now time.Time) (int64, error) {
	var n int64
	err := r.u.write(ctx, func(s *state) error {
		for id, m := range s.mails {
			if m.Status == domain.MailPending && !m.ExpiresAt.After(now) {
				m.Status, m.Text, m.HTML, m.ClaimedUntil, m.UpdatedAt = domain.MailExpired, "", "", nil, norm(now)
				s.mails[id] = m
				n++
			}
		}
		return nil
	})
	return n, err
}

func (r mails) Prune(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := r.u.write(ctx, func(s *state) error {
		for id, m := range s.mails {
			if m.Status != domain.MailPending && !m.UpdatedAt.After(before) {
				delete(s.mails, id)
				n++
			}
		}
		return nil
	})
	return n, err
}

func (r mails) Pending(ctx context.Context) (int64, error) {
	var n int64
	err := r.u.read(ctx, func(s *state) error {
		for _, m := range s.mails {
			if m.Status == domain.MailPending {
				n++
			}
		}
		return nil
	})
	return n, err
}
