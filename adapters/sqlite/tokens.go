package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// tokens is ports.TokenRepository.
type tokens struct{ c conns }

func (r tokens) Create(ctx context.Context, t *domain.Token) error {
	abilities, err := abilitiesJSON(t.Abilities)
	if err != nil {
		return fmt.Errorf("sqlite: create token: %w", err)
	}
	id, err := r.c.write.CreateToken(ctx, db.CreateTokenParams{
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
		return storeError("create token", err)
	}
	t.ID = id
	return nil
}

func (r tokens) ByID(ctx context.Context, id int64) (domain.Token, error) {
	row, err := r.c.read.GetToken(ctx, id)
	if err != nil {
		return domain.Token{}, storeError(fmt.Sprintf("get token %d", id), err)
	}
	return tokenOf(row)
}

func (r tokens) ByIDWithUser(ctx context.Context, id int64) (domain.Token, domain.User, error) {
	row, err := r.c.read.GetTokenWithUser(ctx, id)
	if err != nil {
		return domain.Token{}, domain.User{}, storeError(fmt.Sprintf("get token %d with its user", id), err)
	}
	t, err := tokenOf(row.PersonalAccessToken)
	if err != nil {
		return domain.Token{}, domain.User{}, err
	}
	return t, userOf(row.User), nil
}

func (r tokens) ByHash(ctx context.Context, hash string) (domain.Token, error) {
	row, err := r.c.read.GetTokenByHash(ctx, hash)
	if err != nil {
		return domain.Token{}, storeError("get token by hash", err)
	}
	return tokenOf(row)
}

func (r tokens) ListByUser(ctx context.Context, userID int64) ([]domain.Token, error) {
	rows, err := r.c.read.ListTokensByUser(ctx, userID)
	if err != nil {
		return nil, storeError(fmt.Sprintf("list tokens of user %d", userID), err)
	}
	list := make([]domain.Token, 0, len(rows))
	for _, row := range rows {
		t, err := tokenOf(row)
		if err != nil {
			return nil, err
		}
		list = append(list, t)
	}
	return list, nil
}

func (r tokens) Delete(ctx context.Context, userID, id int64) error {
	n, err := r.c.write.DeleteToken(ctx, db.DeleteTokenParams{UserID: userID, ID: id})
	if err != nil {
		return storeError(fmt.Sprintf("delete token %d", id), err)
	}
	if n == 0 {
		return notFound(fmt.Sprintf("delete token %d of user %d", id, userID))
	}
	return nil
}

func (r tokens) DeleteByUser(ctx context.Context, userID int64) (int64, error) {
	n, err := r.c.write.DeleteTokensByUser(ctx, userID)
	if err != nil {
		return 0, storeError(fmt.Sprintf("delete tokens of user %d", userID), err)
	}
	return n, nil
}

func (r tokens) DeleteByUserStreamed(ctx context.Context, userID int64) (int64, error) {
	gone, err := r.c.write.DeleteTokensByUserStreamed(ctx, userID)
	if err != nil {
		return 0, storeError(fmt.Sprintf("delete tokens of user %d", userID), err)
	}
	var n int64
	for _, streamed := range gone {
		n += streamed
	}
	return n, nil
}

func (r tokens) MarkStreamed(ctx context.Context, id int64) (domain.Token, error) {
	row, err := r.c.write.MarkTokenStreamed(ctx, id)
	if err != nil {
		return domain.Token{}, storeError(fmt.Sprintf("mark token %d streamed", id), err)
	}
	return tokenOf(row)
}

func (r tokens) DeleteByName(ctx context.Context, userID int64, name string) (int64, error) {
	n, err := r.c.write.DeleteTokensByName(ctx, db.DeleteTokensByNameParams{UserID: userID, Name: name})
	if err != nil {
		return 0, storeError(fmt.Sprintf("delete tokens of user %d by name", userID), err)
	}
	return n, nil
}

func (r tokens) DeleteExpired(ctx context.Context, now time.Time) (int64, error) {
	n, err := r.c.write.DeleteExpiredTokens(ctx, dbTime(now))
	if err != nil {
		return 0, storeError("delete expired tokens", err)
	}
	return n, nil
}

// Touch leaves the staleness test to the UPDATE's WHERE clause, so that a
// token used within domain.TouchInterval costs a read of one row and no write.
func (r tokens) Touch(ctx context.Context, id int64, now time.Time) error {
	err := r.c.write.TouchToken(ctx, db.TouchTokenParams{
		Now:         dbTime(now),
		ID:          id,
		StaleBefore: dbTime(now.Add(-domain.TouchInterval)),
	})
	if err != nil {
		return storeError(fmt.Sprintf("touch token %d", id), err)
	}
	return nil
}

func tokenOf(row db.PersonalAccessToken) (domain.Token, error) {
	abilities, err := abilitiesOf(row.Abilities)
	if err != nil {
		return domain.Token{}, fmt.Errorf("sqlite: token %d: %w", row.ID, err)
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
