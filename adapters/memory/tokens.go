package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// tokens implements ports.TokenRepository.
type tokens struct{ u unit }

func cloneToken(t domain.Token) domain.Token {
	t.Abilities = slices.Clone(t.Abilities)
	t.LastUsedAt = normPtr(t.LastUsedAt)
	t.ExpiresAt = normPtr(t.ExpiresAt)
	t.CreatedAt = norm(t.CreatedAt)
	t.UpdatedAt = norm(t.UpdatedAt)
	return t
}

// deleteTokens removes the tokens for which match holds and says how many
// went.
func (s *state) deleteTokens(match func(domain.Token) bool) int64 {
	n, _ := s.deleteTokensStreamed(match)
	return n
}

// deleteTokensStreamed is deleteTokens, saying also how many of the tokens
// that went had opened an event stream.
func (s *state) deleteTokensStreamed(match func(domain.Token) bool) (n, streamed int64) {
	for id, t := range s.tokens {
		if match(t) {
			delete(s.tokens, id)
			delete(s.tokenHashes, t.Hash)
			if s.streamed[id] {
				streamed++
			}
			delete(s.streamed, id)
			n++
		}
	}
	return n, streamed
}

// Create refuses a digest that is already stored with domain.ErrConflict,
// as the SQL stores' unique index does.
func (r tokens) Create(ctx context.Context, t *domain.Token) error {
	return r.u.write(ctx, func(s *state) error {
		if _, ok := s.users[t.UserID]; !ok {
			return fmt.Errorf("create token: user %d: %w", t.UserID, domain.ErrNotFound)
		}
		if _, taken := s.tokenHashes[t.Hash]; taken {
			return fmt.Errorf("create token: digest in use: %w", domain.ErrConflict)
		}
		s.lastToken++
		stored := cloneToken(*t)
		stored.ID = s.lastToken
		s.tokens[stored.ID] = stored
		s.tokenHashes[stored.Hash] = stored.ID
		t.ID = stored.ID
		return nil
	})
}

func (r tokens) ByID(ctx context.Context, id int64) (domain.Token, error) {
	return get(ctx, r.u, func(s *state) map[int64]domain.Token { return s.tokens }, cloneToken, "token", id)
}

// ByIDWithUser reports a token whose user is gone as not found, as the SQL
// stores' join does; their foreign key never leaves one behind, and neither
// does Users.Delete here.
func (r tokens) ByIDWithUser(ctx context.Context, id int64) (domain.Token, domain.User, error) {
	var tok domain.Token
	var user domain.User
	err := r.u.read(ctx, func(s *state) error {
		t, ok := s.tokens[id]
		if !ok {
			return fmt.Errorf("token %d: %w", id, domain.ErrNotFound)
		}
		u, ok := s.users[t.UserID]
		if !ok {
			return fmt.Errorf("token %d: user %d: %w", id, t.UserID, domain.ErrNotFound)
		}
		tok, user = cloneToken(t), cloneUser(u)
		return nil
	})
	return tok, user, err
}

func (r tokens) ByHash(ctx context.Context, hash string) (domain.Token, error) {
	var out domain.Token
	err := r.u.read(ctx, func(s *state) error {
		id, ok := s.tokenHashes[hash]
		if !ok {
			return fmt.Errorf("token by digest: %w", domain.ErrNotFound)
		}
		out = cloneToken(s.tokens[id])
		return nil
	})
	return out, err
}

func (r tokens) ListByUser(ctx context.Context, userID int64) ([]domain.Token, error) {
	var out []domain.Token
	err := r.u.read(ctx, func(s *state) error {
		for _, t := range s.tokens {
			if t.UserID == userID {
				out = append(out, cloneToken(t))
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b domain.Token) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	return out, err
}

func (r tokens) Delete(ctx context.Context, userID, id int64) error {
	return r.u.write(ctx, func(s *state) error {
		t, ok := s.tokens[id]
		if !ok || t.UserID != userID {
			return fmt.Errorf("delete token %d of user %d: %w", id, userID, domain.ErrNotFound)
		}
		delete(s.tokens, id)
		delete(s.tokenHashes, t.Hash)
		delete(s.streamed, id)
		return nil
	})
}

func (r tokens) DeleteByUser(ctx context.Context, userID int64) (int64, error) {
	return r.u.count(ctx, func(s *state) int64 { return s.deleteTokens(func(t domain.Token) bool { return t.UserID == userID }) })
}

func (r tokens) DeleteByUserStreamed(ctx context.Context, userID int64) (int64, error) {
	return r.u.count(ctx, func(s *state) int64 {
		_, n := s.deleteTokensStreamed(func(t domain.Token) bool { return t.UserID == userID })
		return n
	})
}

func (r tokens) MarkStreamed(ctx context.Context, id int64) (domain.Token, error) {
	var out domain.Token
	err := r.u.write(ctx, func(s *state) error {
		t, ok := s.tokens[id]
		if !ok {
			return fmt.Errorf("mark token %d streamed: %w", id, domain.ErrNotFound)
		}
		s.streamed[id] = true
		out = cloneToken(t)
		return nil
	})
	return out, err
}

func (r tokens) DeleteByName(ctx context.Context, userID int64, name string) (int64, error) {
	return r.u.count(ctx, func(s *state) int64 {
		return s.deleteTokens(func(t domain.Token) bool { return t.UserID == userID && t.Name == name })
	})
}

func (r tokens) DeleteExpired(ctx context.Context, now time.Time) (int64, error) {
	now = norm(now)
	return r.u.count(ctx, func(s *state) int64 { return s.deleteTokens(func(t domain.Token) bool { return t.Expired(now) }) })
}

// Touch decides with domain.Token.NeedsTouch, so the store and the domain
// agree on when last_used_at is stale.
func (r tokens) Touch(ctx context.Context, id int64, now time.Time) error {
	now = norm(now)
	return r.u.write(ctx, func(s *state) error {
		t, ok := s.tokens[id]
		if !ok || !t.NeedsTouch(now) {
			return nil
		}
		t.LastUsedAt = &now
		s.tokens[id] = t
		return nil
	})
}
