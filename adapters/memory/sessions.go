package memory

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// sessions implements ports.SessionRepository.
type sessions struct{ u unit }

func cloneSession(s domain.Session) domain.Session {
	s.LastActivity = norm(s.LastActivity)
	s.CreatedAt = norm(s.CreatedAt)
	return s
}

// deleteSessions removes the sessions for which match holds and says how
// many went.
func (s *state) deleteSessions(match func(domain.Session) bool) int64 {
	var n int64
	for hash, sess := range s.sessions {
		if match(sess) {
			delete(s.sessions, hash)
			n++
		}
	}
	return n
}

// Create refuses a stored digest with domain.ErrConflict, as the SQL stores'
// primary key does, and a user that does not exist with domain.ErrNotFound,
// as their foreign key does.
func (r sessions) Create(ctx context.Context, sess domain.Session) error {
	return r.u.write(ctx, func(s *state) error {
		if sess.UserID != 0 {
			if _, ok := s.users[sess.UserID]; !ok {
				return fmt.Errorf("create session: user %d: %w", sess.UserID, domain.ErrNotFound)
			}
		}
		if _, taken := s.sessions[sess.IDHash]; taken {
			return fmt.Errorf("create session: digest in use: %w", domain.ErrConflict)
		}
		s.sessions[sess.IDHash] = cloneSession(sess)
		return nil
	})
}

func (r sessions) ByHash(ctx context.Context, idHash string) (domain.Session, error) {
	var out domain.Session
	err := r.u.read(ctx, func(s *state) error {
		sess, ok := s.sessions[idHash]
		if !ok {
			return fmt.Errorf("session by digest: %w", domain.ErrNotFound)
		}
		out = sess
		return nil
	})
	return out, err
}

// Update refuses a UserID that names no user with domain.ErrNotFound, as the
// SQL stores' foreign key does.
func (r sessions) Update(ctx context.Context, sess domain.Session) error {
	return r.u.write(ctx, func(s *state) error {
		old, ok := s.sessions[sess.IDHash]
		if !ok {
			return fmt.Errorf("update session: %w", domain.ErrNotFound)
		}
		if sess.UserID != 0 {
			if _, ok := s.users[sess.UserID]; !ok {
				return fmt.Errorf("update session: user %d: %w", sess.UserID, domain.ErrNotFound)
			}
		}
		old.UserID = sess.UserID
		old.CSRFToken = sess.CSRFToken
		old.LastActivity = norm(sess.LastActivity)
		s.sessions[sess.IDHash] = old
		return nil
	})
}

// Touch decides with domain.Session.NeedsTouch, so the store and the domain
// agree on when last_activity is stale.
func (r sessions) Touch(ctx context.Context, idHash string, now time.Time) error {
	now = norm(now)
	return r.u.write(ctx, func(s *state) error {
		sess, ok := s.sessions[idHash]
		if !ok || !sess.NeedsTouch(now) {
			return nil
		}
		sess.LastActivity = now
		s.sessions[idHash] = sess
		return nil
	})
}

func (r sessions) Delete(ctx context.Context, idHash string) error {
	return r.u.write(ctx, func(s *state) error {
		delete(s.sessions, idHash)
		return nil
	})
}

// DeleteByUser matches no session for a userID of 0: an unbound session
// belongs to nobody, as a NULL user_id matches nothing in SQL.
func (r sessions) DeleteByUser(ctx context.Context, userID int64) (int64, error) {
	return r.u.count(ctx, func(s *state) int64 {
		return s.deleteSessions(func(sess domain.Session) bool { return sess.UserID != 0 && sess.UserID == userID })
	})
}

func (r sessions) DeleteIdle(ctx context.Context, cutoff time.Time) (int64, error) {
	cutoff = norm(cutoff)
	return r.u.count(ctx, func(s *state) int64 {
		return s.deleteSessions(func(sess domain.Session) bool { return !sess.LastActivity.After(cutoff) })
	})
}
