package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// users implements ports.UserRepository.
type users struct{ u unit }

func cloneUser(u domain.User) domain.User {
	u.EmailVerifiedAt = normPtr(u.EmailVerifiedAt)
	u.CreatedAt = norm(u.CreatedAt)
	u.UpdatedAt = norm(u.UpdatedAt)
	return u
}

func (r users) Create(ctx context.Context, u *domain.User) error {
	return r.u.write(ctx, func(s *state) error {
		key := domain.EmailKey(u.Email)
		if _, taken := s.userEmails[key]; taken {
			return fmt.Errorf("create user: %w", domain.ErrEmailTaken)
		}
		s.lastUser++
		stored := cloneUser(*u)
		stored.ID, stored.IsAdmin = s.lastUser, false
		s.users[stored.ID] = stored
		s.userEmails[key] = stored.ID
		u.ID = stored.ID
		return nil
	})
}

func (r users) ByID(ctx context.Context, id int64) (domain.User, error) {
	return get(ctx, r.u, func(s *state) map[int64]domain.User { return s.users }, cloneUser, "user", id)
}

func (r users) ByIDs(ctx context.Context, ids []int64) ([]domain.User, error) {
	out := []domain.User{}
	err := r.u.read(ctx, func(s *state) error {
		for _, id := range ids {
			if u, ok := s.users[id]; ok {
				out = append(out, cloneUser(u))
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b domain.User) int { return cmp.Compare(a.ID, b.ID) })
	return slices.CompactFunc(out, func(a, b domain.User) bool { return a.ID == b.ID }), err
}

func (r users) ByEmail(ctx context.Context, email string) (domain.User, error) {
	var out domain.User
	err := r.u.read(ctx, func(s *state) error {
		id, ok := s.userEmails[domain.EmailKey(email)]
		if !ok {
			return fmt.Errorf("user by e-mail: %w", domain.ErrNotFound)
		}
		out = cloneUser(s.users[id])
		return nil
	})
	return out, err
}

// Lock reads the user. Transactions already run one at a time, so there is
// nothing to hold.
func (r users) Lock(ctx context.Context, id int64) (domain.User, error) {
	return r.ByID(ctx, id)
}

func (r users) Update(ctx context.Context, u domain.User) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.users[u.ID]
		if !ok {
			return fmt.Errorf("update user %d: %w", u.ID, domain.ErrNotFound)
		}
		key := domain.EmailKey(u.Email)
		if id, taken := s.userEmails[key]; taken && id != u.ID {
			return fmt.Errorf("update user %d: %w", u.ID, domain.ErrEmailTaken)
		}
		stored := cloneUser(u)
		stored.CreatedAt, stored.IsAdmin = old.CreatedAt, old.IsAdmin
		delete(s.userEmails, domain.EmailKey(old.Email))
		s.userEmails[key] = u.ID
		s.users[u.ID] = stored
		return nil
	})
}

func (r users) SetRememberToken(ctx context.Context, id int64, token string) error {
	return r.u.write(ctx, func(s *state) error {
		u, ok := s.users[id]
		if !ok {
			return fmt.Errorf("set remember token of user %d: %w", id, domain.ErrNotFound)
		}
		u.RememberToken = token
		s.users[id] = u
		return nil
	})
}

func (r users) MarkEmailVerified(ctx context.Context, id int64, email string, at time.Time) (bool, error) {
	var marked bool
	err := r.u.write(ctx, func(s *state) error {
		u, ok := s.users[id]
		if !ok {
			return fmt.Errorf("mark e-mail of user %d verified: %w", id, domain.ErrNotFound)
		}
		if u.Email != email || u.EmailVerifiedAt != nil {
			return nil
		}
		u.EmailVerifiedAt = normPtr(&at)
		u.UpdatedAt = norm(at)
		s.users[id] = u
		marked = true
		return nil
	})
	return marked, err
}

// Delete removes the user and, as the SQL stores' foreign keys do, the
// user's tokens, sessions, posts (with everything that goes with a post) and
// comments.
func (r users) Delete(ctx context.Context, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.users[id]
		if !ok {
			return fmt.Errorf("delete user %d: %w", id, domain.ErrNotFound)
		}
		delete(s.users, id)
		delete(s.userEmails, domain.EmailKey(old.Email))
		s.deleteTokens(func(t domain.Token) bool { return t.UserID == id })
		s.deleteSessions(func(sess domain.Session) bool { return sess.UserID == id })
		for postID, p := range s.posts {
			if p.AuthorID == id {
				s.deletePost(postID)
			}
		}
		s.deleteComments(func(c domain.Comment) bool { return c.UserID == id })
		for pid, p := range s.trashedPosts {
			if p.state.AuthorID == id {
				delete(s.trashedPosts, pid)
			}
		}
		s.purgeTrashedComments(func(c domain.Comment) bool { return c.UserID == id })
		for wid, w := range s.webhooks {
			if w.UserID == id {
				s.deleteWebhook(wid)
			}
		}
		delete(s.passwordResets, id)
		return nil
	})
}
