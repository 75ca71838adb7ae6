package sqlrepo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// TokenQueries are a store's statements on personal access tokens. The
// JSON passed and read is the token's abilities, an array of strings.
type TokenQueries interface {
	// CreateToken inserts t; a missing user violates a foreign key, which
	// the store's Border turns into domain.ErrNotFound.
	CreateToken(ctx context.Context, t domain.Token, abilities []byte) (int64, error)
	GetToken(ctx context.Context, id int64) (Stored[domain.Token], error)
	GetTokenWithUser(ctx context.Context, id int64) (Stored[domain.Token], domain.User, error)
	GetTokenByHash(ctx context.Context, hash string) (Stored[domain.Token], error)
	ListTokensByUser(ctx context.Context, userID int64) ([]Stored[domain.Token], error)
	// DeleteUserToken deletes token id only while userID holds it.
	DeleteUserToken(ctx context.Context, userID, id int64) (int64, error)
	DeleteTokensByUser(ctx context.Context, userID int64) (int64, error)
	// DeleteTokensByUserStreamed deletes the user's tokens and returns how
	// many of them had streamed.
	DeleteTokensByUserStreamed(ctx context.Context, userID int64) (int64, error)
	MarkTokenStreamed(ctx context.Context, id int64) (Stored[domain.Token], error)
	DeleteTokensByName(ctx context.Context, userID int64, name string) (int64, error)
	DeleteExpiredTokens(ctx context.Context, now time.Time) (int64, error)
	// TouchToken stamps the token used at now unless it was used after
	// staleBefore: the staleness test is the UPDATE's WHERE clause, so that
	// a token used within domain.TouchInterval costs a read of one row and
	// no write.
	TouchToken(ctx context.Context, id int64, now, staleBefore time.Time) error
}

// Tokens is ports.TokenRepository.
type Tokens struct {
	Q TokenQueries
	B Border
}

var _ ports.TokenRepository = Tokens{}

func (r Tokens) Create(ctx context.Context, t *domain.Token) error {
	abilities := t.Abilities
	if abilities == nil {
		abilities = []string{}
	}
	b, err := json.Marshal(abilities)
	if err != nil {
		return fmt.Errorf("create token: encode abilities: %w", err)
	}
	id, err := r.Q.CreateToken(ctx, *t, b)
	if err != nil {
		return r.B.Err(fmt.Sprintf("create token for user %d", t.UserID), err)
	}
	t.ID = id
	return nil
}

func (r Tokens) ByID(ctx context.Context, id int64) (domain.Token, error) {
	row, err := r.Q.GetToken(ctx, id)
	if err != nil {
		return domain.Token{}, r.B.Err(fmt.Sprintf("get token %d", id), err)
	}
	return tokenOf(row)
}

func (r Tokens) ByIDWithUser(ctx context.Context, id int64) (domain.Token, domain.User, error) {
	row, u, err := r.Q.GetTokenWithUser(ctx, id)
	if err != nil {
		return domain.Token{}, domain.User{}, r.B.Err(fmt.Sprintf("get token %d with its user", id), err)
	}
	t, err := tokenOf(row)
	if err != nil {
		return domain.Token{}, domain.User{}, err
	}
	return t, u, nil
}

func (r Tokens) ByHash(ctx context.Context, hash string) (domain.Token, error) {
	row, err := r.Q.GetTokenByHash(ctx, hash)
	if err != nil {
		return domain.Token{}, r.B.Err("get token by hash", err)
	}
	return tokenOf(row)
}

func (r Tokens) ListByUser(ctx context.Context, userID int64) ([]domain.Token, error) {
	rows, err := r.Q.ListTokensByUser(ctx, userID)
	if err != nil {
		return nil, r.B.Err(fmt.Sprintf("list tokens of user %d", userID), err)
	}
	list := make([]domain.Token, len(rows))
	for i, row := range rows {
		if list[i], err = tokenOf(row); err != nil {
			return nil, err
		}
	}
	return list, nil
}

func (r Tokens) Delete(ctx context.Context, userID, id int64) error {
	n, err := r.Q.DeleteUserToken(ctx, userID, id)
	return r.B.Affected(fmt.Sprintf("delete token %d of user %d", id, userID), n, err)
}

func (r Tokens) DeleteByUser(ctx context.Context, userID int64) (int64, error) {
	n, err := r.Q.DeleteTokensByUser(ctx, userID)
	if err != nil {
		return 0, r.B.Err(fmt.Sprintf("delete tokens of user %d", userID), err)
	}
	return n, nil
}

func (r Tokens) DeleteByUserStreamed(ctx context.Context, userID int64) (int64, error) {
	n, err := r.Q.DeleteTokensByUserStreamed(ctx, userID)
	if err != nil {
		return 0, r.B.Err(fmt.Sprintf("delete tokens of user %d", userID), err)
	}
	return n, nil
}

func (r Tokens) MarkStreamed(ctx context.Context, id int64) (domain.Token, error) {
	row, err := r.Q.MarkTokenStreamed(ctx, id)
	if err != nil {
		return domain.Token{}, r.B.Err(fmt.Sprintf("mark token %d streamed", id), err)
	}
	return tokenOf(row)
}

func (r Tokens) DeleteByName(ctx context.Context, userID int64, name string) (int64, error) {
	n, err := r.Q.DeleteTokensByName(ctx, userID, name)
	if err != nil {
		return 0, r.B.Err(fmt.Sprintf("delete tokens of user %d by name", userID), err)
	}
	return n, nil
}

func (r Tokens) DeleteExpired(ctx context.Context, now time.Time) (int64, error) {
	n, err := r.Q.DeleteExpiredTokens(ctx, now)
	if err != nil {
		return 0, r.B.Err("delete expired tokens", err)
	}
	return n, nil
}

func (r Tokens) Touch(ctx context.Context, id int64, now time.Time) error {
	return r.B.Err(fmt.Sprintf("touch token %d", id), r.Q.TouchToken(ctx, id, now, now.Add(-domain.TouchInterval)))
}

// tokenOf is the token of row, its abilities decoded: JSON null reads as
// none.
func tokenOf(row Stored[domain.Token]) (domain.Token, error) {
	t := row.Value
	if err := json.Unmarshal(row.JSON, &t.Abilities); err != nil {
		return domain.Token{}, fmt.Errorf("token %d: decode abilities: %w", t.ID, err)
	}
	if t.Abilities == nil {
		t.Abilities = []string{}
	}
	return t, nil
}
