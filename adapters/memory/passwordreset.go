package memory

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// passwordResets implements ports.PasswordResetRepository.
type passwordResets struct{ u unit }

var _ ports.PasswordResetRepository = passwordResets{}

func (r passwordResets) Put(ctx context.Context, p domain.PasswordReset) error {
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.users[p.UserID]; !ok {
			return fmt.Errorf("put password reset: user %d: %w", p.UserID, domain.ErrNotFound)
		}
		p.CreatedAt, p.ExpiresAt = norm(p.CreatedAt), norm(p.ExpiresAt)
		s.passwordResets[p.UserID] = p
		return nil
	})
}

func (r passwordResets) ByUser(ctx context.Context, userID int64) (domain.PasswordReset, error) {
	var out domain.PasswordReset
	err := r.u.read(ctx, func(s *state) error {
		p, ok := s.passwordResets[userID]
		if !ok {
			return fmt.Errorf("password reset of user %d: %w", userID, domain.ErrNotFound)
		}
		out = p
		return nil
	})
	return out, err
}

func (r passwordResets) DeleteByUser(ctx context.Context, userID int64) error {
	return r.u.write(ctx, func(s *state) error {
		delete(s.passwordResets, userID)
		return nil
	})
}
