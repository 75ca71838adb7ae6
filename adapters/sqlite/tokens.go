package sqlite

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// tokenQueries are sqlrepo.TokenQueries.
type tokenQueries struct{ c conns }

var _ sqlrepo.TokenQueries = tokenQueries{}

func (q tokenQueries) CreateToken(ctx context.Context, t domain.Token, abilities []byte) (int64, error) {
	return q.c.write.CreateToken(ctx, db.CreateTokenParams(sqlrepo.NewTokenOf(values, t, abilities)))
}

func (q tokenQueries) GetToken(ctx context.Context, id int64) (sqlrepo.Stored[domain.Token], error) {
	row, err := q.c.read.GetToken(ctx, id)
	return tokenOf(row), err
}

func (q tokenQueries) GetTokenWithUser(ctx context.Context, id int64) (sqlrepo.Stored[domain.Token], domain.User, error) {
	row, err := q.c.read.GetTokenWithUser(ctx, id)
	return tokenOf(row.PersonalAccessToken), userOf(row.User), err
}

func (q tokenQueries) GetTokenByHash(ctx context.Context, hash string) (sqlrepo.Stored[domain.Token], error) {
	row, err := q.c.read.GetTokenByHash(ctx, hash)
	return tokenOf(row), err
}

func (q tokenQueries) ListTokensByUser(ctx context.Context, userID int64) ([]sqlrepo.Stored[domain.Token], error) {
	rows, err := q.c.read.ListTokensByUser(ctx, userID)
	return sqlrepo.Rows(rows, tokenOf), err
}

func (q tokenQueries) DeleteUserToken(ctx context.Context, userID, id int64) (int64, error) {
	return q.c.write.DeleteToken(ctx, db.DeleteTokenParams{UserID: userID, ID: id})
}

func (q tokenQueries) DeleteTokensByUser(ctx context.Context, userID int64) (int64, error) {
	return q.c.write.DeleteTokensByUser(ctx, userID)
}

func (q tokenQueries) DeleteTokensByUserStreamed(ctx context.Context, userID int64) (int64, error) {
	gone, err := q.c.write.DeleteTokensByUserStreamed(ctx, userID)
	var n int64
	for _, streamed := range gone {
		n += streamed
	}
	return n, err
}

func (q tokenQueries) MarkTokenStreamed(ctx context.Context, id int64) (sqlrepo.Stored[domain.Token], error) {
	row, err := q.c.write.MarkTokenStreamed(ctx, id)
	return tokenOf(row), err
}

func (q tokenQueries) DeleteTokensByName(ctx context.Context, userID int64, name string) (int64, error) {
	return q.c.write.DeleteTokensByName(ctx, db.DeleteTokensByNameParams{UserID: userID, Name: name})
}

func (q tokenQueries) DeleteExpiredTokens(ctx context.Context, now time.Time) (int64, error) {
	return q.c.write.DeleteExpiredTokens(ctx, dbTime(now))
}

func (q tokenQueries) TouchToken(ctx context.Context, id int64, now, staleBefore time.Time) error {
	return q.c.write.TouchToken(ctx, db.TouchTokenParams{ID: id, Now: dbTime(now), StaleBefore: dbTime(staleBefore)})
}

func tokenOf(row db.PersonalAccessToken) sqlrepo.Stored[domain.Token] {
	return sqlrepo.TokenOf(values, row)
}
