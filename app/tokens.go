package app

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Tokens implements ports.Tokens, a user's tokens, and
// ports.OperatorTokens, the operator's.
type Tokens struct {
	store   ports.Store
	secrets ports.SecretGenerator
	clock   ports.Clock
	cfg     AccountsConfig
}

// NewTokens returns the personal token use cases.
func NewTokens(store ports.Store, secrets ports.SecretGenerator, clock ports.Clock, cfg AccountsConfig) *Tokens {
	return &Tokens{store: store, secrets: secrets, clock: clock, cfg: cfg}
}

var (
	_ ports.Tokens         = (*Tokens)(nil)
	_ ports.OperatorTokens = (*Tokens)(nil)
)

// List implements ports.Tokens.
func (t *Tokens) List(ctx context.Context, actor domain.Actor) ([]domain.Token, error) {
	tokens, err := t.store.Repos().Tokens.ListByUser(ctx, actor.User.ID)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	return tokens, nil
}

// Create implements ports.Tokens. A token asking for nothing in particular
// gets the abilities of the token that asked for it.
func (t *Tokens) Create(ctx context.Context, actor domain.Actor, in ports.TokenInput) (domain.Token, domain.PlainToken, error) {
	if err := actor.CheckAbility(domain.WriteTokens); err != nil {
		return domain.Token{}, domain.PlainToken{}, err
	}
	if err := actor.CheckWrite(); err != nil {
		return domain.Token{}, domain.PlainToken{}, err
	}
	if err := domain.CheckTokenRequest(in.Name, in.Abilities, in.ExpiresIn); err != nil {
		return domain.Token{}, domain.PlainToken{}, err
	}
	abilities := in.Abilities
	if abilities == nil {
		abilities = []string{domain.AbilityAll}
		if actor.Token != nil {
			abilities = actor.Token.Abilities
		}
	}
	if actor.Token != nil && !actor.Token.Grants(abilities) {
		return domain.Token{}, domain.PlainToken{}, domain.ErrInvalidAbility
	}
	lifetime := t.cfg.TokenLifetime
	if in.ExpiresIn > 0 {
		lifetime = in.ExpiresIn
	}
	now := t.clock.Now()
	token, plain, err := issueToken(ctx, t.store.Repos(), t.secrets, now, actor.User.ID, in.Name, abilities, lifetime)
	if err != nil {
		return domain.Token{}, domain.PlainToken{}, fmt.Errorf("create token: %w", err)
	}
	return token, plain, nil
}

// Delete implements ports.Tokens. A token revoking itself logs out, which
// needs no ability; revoking any other token needs WriteTokens. The owner
// revokes their own tokens, an admin by admin right anybody's, audited as
// token.revoke; another's token is not found.
func (t *Tokens) Delete(ctx context.Context, actor domain.Acting, id int64) error {
	if actor.Token == nil || actor.Token.ID != id {
		if err := actor.CheckAbility(domain.WriteTokens); err != nil {
			return err
		}
	}
	if err := actor.CheckWrite(); err != nil {
		return err
	}
	err := t.store.InTx(ctx, func(r ports.Repos) error {
		actor, err := rightful(ctx, r, actor)
		if err != nil {
			return err
		}
		token, err := r.Tokens.ByID(ctx, id)
		if err != nil {
			return err
		}
		if !actor.MayChange(token.UserID) {
			return domain.ErrNotFound
		}
		if err := r.Tokens.Delete(ctx, token.UserID, id); err != nil {
			return err
		}
		now := t.clock.Now()
		if err := audit(ctx, r, actor, domain.AuditTokenRevoke, domain.SubjectToken, id, now); err != nil {
			return err
		}
		return revoke(ctx, r, domain.Revocation{UserID: token.UserID, TokenID: id}, now)
	})
	if err != nil {
		return fmt.Errorf("delete token %d: %w", id, err)
	}
	return nil
}

// RevokeByName implements ports.OperatorTokens.
func (t *Tokens) RevokeByName(ctx context.Context, email, name string) (int64, error) {
	repos := t.store.Repos()
	u, err := repos.Users.ByEmail(ctx, email)
	if err != nil {
		return 0, fmt.Errorf("revoke tokens named %q: %w", name, err)
	}
	var n int64
	err = t.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		if n, err = r.Tokens.DeleteByName(ctx, u.ID, name); err != nil || n == 0 {
			return err
		}
		return revoke(ctx, r, domain.Revocation{UserID: u.ID, TokenName: name}, t.clock.Now())
	})
	if err != nil {
		return 0, fmt.Errorf("revoke tokens named %q: %w", name, err)
	}
	return n, nil
}

// RevokeAll implements ports.OperatorTokens.
func (t *Tokens) RevokeAll(ctx context.Context, email string) (int64, error) {
	repos := t.store.Repos()
	u, err := repos.Users.ByEmail(ctx, email)
	if err != nil {
		return 0, fmt.Errorf("revoke all tokens: %w", err)
	}
	var n int64
	err = t.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		if n, err = r.Tokens.DeleteByUser(ctx, u.ID); err != nil || n == 0 {
			return err
		}
		return revoke(ctx, r, domain.Revocation{UserID: u.ID, AllTokens: true}, t.clock.Now())
	})
	if err != nil {
		return 0, fmt.Errorf("revoke all tokens: %w", err)
	}
	return n, nil
}

// Prune implements ports.OperatorTokens.
func (t *Tokens) Prune(ctx context.Context) (int64, error) {
	n, err := t.store.Repos().Tokens.DeleteExpired(ctx, t.clock.Now())
	if err != nil {
		return 0, fmt.Errorf("prune tokens: %w", err)
	}
	return n, nil
}
