package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/inkwell/inkwell/adapters/internal/adminsearch"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// admin implements ports.AdminRepository.
type admin struct{ u unit }

var _ ports.AdminRepository = admin{}

// paged returns the page of all that p selects.
func paged[T any](all []T, p ports.Page) []T {
	start := min(max(p.Offset, 0), len(all))
	end := len(all)
	if p.Limit > 0 {
		end = min(start+p.Limit, end)
	}
	return append(make([]T, 0, end-start), all[start:end]...)
}

func (r admin) Counts(ctx context.Context) (ports.AdminOverview, error) {
	var o ports.AdminOverview
	err := r.u.read(ctx, func(s *state) error {
		o.Users = len(s.users)
		for _, p := range s.posts {
			switch p.Status {
			case domain.StatusPublished:
				o.Published++
			case domain.StatusDraft:
				o.Drafts++
			}
		}
		o.Comments = len(s.comments)
		o.Webhooks = len(s.webhooks)
		for _, w := range s.webhooks {
			if !w.Enabled() {
				o.WebhooksDisabled++
			}
		}
		for _, d := range s.deliveries {
			switch d.Status {
			case domain.DeliveryPending:
				o.DeliveriesPending++
			case domain.DeliveryFailed:
				o.DeliveriesFailed++
			}
		}
		for _, m := range s.mails {
			switch m.Status {
			case domain.MailPending:
				o.MailsPending++
			case domain.MailFailed:
				o.MailsFailed++
			}
		}
		for _, e := range s.events {
			if e.event.ID > s.webhookCursor {
				o.EventBacklog++
			}
		}
		return nil
	})
	return o, err
}

func (r admin) RecentFailures(ctx context.Context, limit int) ([]ports.AdminFailure, error) {
	var out []ports.AdminFailure
	err := r.u.read(ctx, func(s *state) error {
		for _, d := range s.deliveries {
			if d.LastError != "" {
				out = append(out, ports.AdminFailure{Subject: domain.SubjectDelivery, ID: d.ID, Target: s.webhooks[d.WebhookID].URL,
					Error: d.LastError, Attempts: d.Attempts, At: d.UpdatedAt})
			}
		}
		for _, m := range s.mails {
			if m.LastError != "" {
				out = append(out, ports.AdminFailure{Subject: domain.SubjectMail, ID: m.ID, Target: m.To,
					Error: m.LastError, Attempts: m.Attempts, At: m.UpdatedAt})
			}
		}
		return nil
	})
	return ports.NewestFailures(out, limit), err
}

func (r admin) Users(ctx context.Context, q ports.AdminUserQuery) ([]domain.User, int, error) {
	var all []domain.User
	needle := adminsearch.LowerASCII(q.Search)
	err := r.u.read(ctx, func(s *state) error {
		for _, u := range s.users {
			if q.Search == "" || strings.Contains(adminsearch.LowerASCII(u.Name), needle) || strings.Contains(domain.EmailKey(u.Email), needle) {
				all = append(all, cloneUser(u))
			}
		}
		return nil
	})
	switch sort := q.Sort; {
	case q.Search != "" || sort == ports.AdminSortNewest || sort == "":
		slices.SortFunc(all, func(a, b domain.User) int { return cmp.Compare(b.ID, a.ID) })
	case sort == ports.AdminSortOldest:
		slices.SortFunc(all, func(a, b domain.User) int { return cmp.Compare(a.ID, b.ID) })
	case sort == ports.AdminSortEmail:
		slices.SortFunc(all, func(a, b domain.User) int { return strings.Compare(domain.EmailKey(a.Email), domain.EmailKey(b.Email)) })
	}
	return paged(all, q.Page), ports.BoundedTotal(len(all), q.CountUpTo), err
}

func (r admin) UsersAfter(ctx context.Context, after int64, limit int) ([]domain.User, error) {
	var all []domain.User
	err := r.u.read(ctx, func(s *state) error {
		for _, u := range s.users {
			if u.ID > after {
				all = append(all, cloneUser(u))
			}
		}
		return nil
	})
	slices.SortFunc(all, func(a, b domain.User) int { return cmp.Compare(a.ID, b.ID) })
	return all[:min(len(all), max(limit, 0))], err
}

func (r admin) Posts(ctx context.Context, q ports.AdminPostQuery) ([]domain.Post, int, error) {
	var all []domain.Post
	needle := strings.ToLower(q.Search)
	err := r.u.read(ctx, func(s *state) error {
		for _, p := range s.posts {
			if (q.Status == "" || p.Status == q.Status) && strings.Contains(strings.ToLower(p.Title), needle) {
				all = append(all, domain.RestorePost(clonePostState(p)))
			}
		}
		return nil
	})
	slices.SortFunc(all, func(a, b domain.Post) int {
		return cmp.Or(b.CreatedAt().Compare(a.CreatedAt()), cmp.Compare(b.ID(), a.ID()))
	})
	if q.Search == "" && q.Sort == ports.AdminSortOldest {
		slices.Reverse(all)
	}
	return paged(all, q.Page), ports.BoundedTotal(len(all), q.CountUpTo), err
}

func (r admin) PostsAfter(ctx context.Context, after int64, limit int) ([]domain.Post, error) {
	var all []domain.Post
	err := r.u.read(ctx, func(s *state) error {
		for _, p := range s.posts {
			if p.ID > after {
				all = append(all, domain.RestorePost(clonePostState(p)))
			}
		}
		return nil
	})
	slices.SortFunc(all, func(a, b domain.Post) int { return cmp.Compare(a.ID(), b.ID()) })
	return all[:min(len(all), max(limit, 0))], err
}

// failingFirst is the order of Webhooks: disabled ones first, then by
// failures in a row, most first, then by id.
func failingFirst(a, b domain.Webhook) int {
	ea, eb := a.Enabled(), b.Enabled()
	switch {
	case !ea && eb:
		return -1
	case ea && !eb:
		return 1
	}
	return cmp.Or(cmp.Compare(b.Failures, a.Failures), cmp.Compare(a.ID, b.ID))
}

func (r admin) Webhooks(ctx context.Context, page ports.Page) ([]ports.AdminWebhook, int, error) {
	var all []ports.AdminWebhook
	err := r.u.read(ctx, func(s *state) error {
		for _, w := range s.webhooks {
			all = append(all, ports.AdminWebhook{Webhook: cloneWebhook(w), OwnerEmail: s.users[w.UserID].Email})
		}
		return nil
	})
	slices.SortFunc(all, func(a, b ports.AdminWebhook) int { return failingFirst(a.Webhook, b.Webhook) })
	return paged(all, page), len(all), err
}

func (r admin) Mails(ctx context.Context, q ports.AdminMailQuery) ([]domain.Mail, int, error) {
	var all []domain.Mail
	err := r.u.read(ctx, func(s *state) error {
		for _, m := range s.mails {
			if q.Status == "" || m.Status == q.Status {
				all = append(all, m)
			}
		}
		return nil
	})
	slices.SortFunc(all, func(a, b domain.Mail) int { return cmp.Compare(b.ID, a.ID) })
	return paged(all, q.Page), len(all), err
}

func (r admin) Sessions(ctx context.Context, userID int64) ([]domain.Session, error) {
	var out []domain.Session
	err := r.u.read(ctx, func(s *state) error {
		for _, sess := range s.sessions {
			if sess.UserID == userID {
				out = append(out, cloneSession(sess))
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b domain.Session) int {
		return cmp.Or(b.LastActivity.Compare(a.LastActivity), strings.Compare(a.IDHash, b.IDHash))
	})
	if out == nil {
		out = []domain.Session{}
	}
	return out, err
}

func (r admin) SetAdmin(ctx context.Context, userID int64, isAdmin bool) error {
	return r.u.write(ctx, func(s *state) error {
		u, ok := s.users[userID]
		if !ok {
			return fmt.Errorf("set admin rights of user %d: %w", userID, domain.ErrNotFound)
		}
		u.IsAdmin = isAdmin
		s.users[userID] = u
		return nil
	})
}

func (r admin) Admins(ctx context.Context) ([]domain.User, error) {
	out := []domain.User{}
	err := r.u.read(ctx, func(s *state) error {
		for _, u := range s.users {
			if u.IsAdmin {
				out = append(out, cloneUser(u))
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b domain.User) int { return cmp.Compare(a.ID, b.ID) })
	return out, err
}

// LockAdmins implements ports.AdminRepository: the memory store runs one
// transaction at a time, which is the lock.
func (admin) LockAdmins(context.Context) error { return nil }

func (r admin) AppendAudit(ctx context.Context, e *domain.AuditEntry) error {
	return r.u.write(ctx, func(s *state) error {
		stored := *e
		stored.At = norm(stored.At)
		stored.ID = 1
		if n := len(s.audit); n > 0 {
			stored.ID = s.audit[n-1].ID + 1
		}
		s.audit = append(s.audit, stored)
		e.ID = stored.ID
		return nil
	})
}

func (r admin) Audit(ctx context.Context, page ports.Page, countTo int) ([]domain.AuditEntry, int, error) {
	var all []domain.AuditEntry
	err := r.u.read(ctx, func(s *state) error {
		all = slices.Clone(s.audit)
		return nil
	})
	slices.Reverse(all)
	return paged(all, page), min(len(all), max(countTo, 0)+1), err
}
