package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// tokens implements ports.TokenRepository.
type tokens struct{ q *db.Queries }

var _ ports.TokenRepository = tokens{}

func (r tokens) Create(ctx context.Context, t *domain.Token) error {
	abilities, err := abilitiesJSON(t.Abilities)
	if err != nil {
		return fmt.Errorf("create token: encode abilities: %w", err)
	}
	id, err := r.q.CreateToken(ctx, db.CreateTokenParams{
		UserID:     t.UserID,
		Name:       t.Name,
		TokenHash:  t.Hash,
		Abilities:  abilities,
		LastUsedAt: nullTime(t.LastUsedAt),
		ExpiresAt:  nullTime(t.ExpiresAt),
		CreatedAt:  dbTime(t.CreatedAt),
		UpdatedAt:  dbTime(t.UpdatedAt),
	})
	if err != nil {
		// A missing user is a foreign-key violation, which storeError
		// reports as domain.ErrNotFound.
		return storeError(fmt.Sprintf("create token for user %d", t.UserID), err)
	}
	t.ID = id
	return nil
}

func (r tokens) ByID(ctx context.Context, id int64) (domain.Token, error) {
	op := fmt.Sprintf("get token %d", id)
	row, err := r.q.GetToken(ctx, id)
	if err != nil {
		return domain.Token{}, storeError(op, err)
	}
	return tokenOf(op, row)
}

func (r tokens) ByIDWithUser(ctx context.Context, id int64) (domain.Token, domain.User, error) {
	op := fmt.Sprintf("get token %d with its user", id)
	row, err := r.q.GetTokenWithUser(ctx, id)
	if err != nil {
		return domain.Token{}, domain.User{}, storeError(op, err)
	}
	t, err := tokenOf(op, row.PersonalAccessToken)
	if err != nil {
		return domain.Token{}, domain.User{}, err
	}
	return t, userOf(row.User), nil
}

func (r tokens) ByHash(ctx context.Context, hash string) (domain.Token, error) {
	const op = "get token by hash"
	row, err := r.q.GetTokenByHash(ctx, hash)
	if err != nil {
		return domain.Token{}, storeError(op, err)
	}
	return tokenOf(op, row)
}

func (r tokens) ListByUser(ctx context.Context, userID int64) ([]domain.Token, error) {
	op := fmt.Sprintf("list tokens of user %d", userID)
	rows, err := r.q.ListTokensByUser(ctx, userID)
	if err != nil {
		return nil, storeError(op, err)
	}
	list := make([]domain.Token, 0, len(rows))
	for _, row := range rows {
		t, err := tokenOf(op, row)
		if err != nil {
			return nil, err
		}
		list = append(list, t)
	}
	return list, nil
}

func (r tokens) Delete(ctx context.Context, userID, id int64) error {
	op := fmt.Sprintf("delete token %d of user %d", id, userID)
	n, err := r.q.DeleteUserToken(ctx, db.DeleteUserTokenParams{ID: id, UserID: userID})
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func (r tokens) DeleteByUser(ctx context.Context, userID int64) (int64, error) {
	n, err := r.q.DeleteTokensByUser(ctx, userID)
	return n, storeError(fmt.Sprintf("delete tokens of user %d", userID), err)
}

func (r tokens) DeleteByUserStreamed(ctx context.Context, userID int64) (int64, error) {
	gone, err := r.q.DeleteTokensByUserStreamed(ctx, userID)
	if err != nil {
		return 0, storeError(fmt.Sprintf("delete tokens of user %d", userID), err)
	}
	var n int64
	for _, streamed := range gone {
		if streamed {
			n++
		}
	}
	return n, nil
}

func (r tokens) MarkStreamed(ctx context.Context, id int64) (domain.Token, error) {
	op := fmt.Sprintf("mark token %d streamed", id)
	row, err := r.q.MarkTokenStreamed(ctx, id)
	if err != nil {
		return domain.Token{}, storeError(op, err)
	}
	return tokenOf(op, row)
}

func (r tokens) DeleteByName(ctx context.Context, userID int64, name string) (int64, error) {
	n, err := r.q.DeleteTokensByName(ctx, db.DeleteTokensByNameParams{UserID: userID, Name: name})
	return n, storeError(fmt.Sprintf("delete tokens by name of user %d", userID), err)
}

func (r tokens) DeleteExpired(ctx context.Context, now time.Time) (int64, error) {
	n, err := r.q.DeleteExpiredTokens(ctx, dbTime(now))
	return n, storeError("delete expired tokens", err)
}

func (r tokens) Touch(ctx context.Context, id int64, now time.Time) error {
	err := r.q.TouchToken(ctx, db.TouchTokenParams{
		ID:          id,
		Now:         dbTime(now),
		StaleBefore: dbTime(now.Add(-domain.TouchInterval)),
	})
	return storeError(fmt.Sprintf("touch token %d", id), err)
}

func tokenOf(op string, row db.PersonalAccessToken) (domain.Token, error) {
	abilities, err := abilitiesOf(row.Abilities)
	if err != nil {
		return domain.Token{}, fmt.Errorf("%s: decode abilities: %w", op, err)
	}
	return domain.Token{
		ID:         row.ID,
		UserID:     row.UserID,
		Name:       row.Name,
		Hash:       row.TokenHash,
		Abilities:  abilities,
		LastUsedAt: timePtrOf(row.LastUsedAt),
		ExpiresAt:  timePtrOf(row.ExpiresAt),
		CreatedAt:  timeOf(row.CreatedAt),
		UpdatedAt:  timeOf(row.UpdatedAt),
	}, nil
}
