package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
)

// users is ports.UserRepository.
type users struct{ c conns }

func (r users) Create(ctx context.Context, u *domain.User) error {
	id, err := r.c.write.CreateUser(ctx, db.CreateUserParams{
		Name:            u.Name,
		Email:           u.Email,
		EmailKey:        domain.EmailKey(u.Email),
		PasswordHash:    u.PasswordHash,
		RememberToken:   u.RememberToken,
		EmailVerifiedAt: nullTime(u.EmailVerifiedAt),
		AvatarPath:      u.AvatarPath,
		CreatedAt:       dbTime(u.CreatedAt),
		UpdatedAt:       dbTime(u.UpdatedAt),
	})
	if err != nil {
		return storeError("create user", err)
	}
	u.ID = id
	return nil
}

func (r users) ByID(ctx context.Context, id int64) (domain.User, error) {
	row, err := r.c.read.GetUser(ctx, id)
	if err != nil {
		return domain.User{}, storeError(fmt.Sprintf("get user %d", id), err)
	}
	return userOf(row), nil
}

func (r users) ByIDs(ctx context.Context, ids []int64) ([]domain.User, error) {
	if len(ids) == 0 {
		return []domain.User{}, nil
	}
	rows, err := r.c.read.GetUsersByIDs(ctx, ids)
	if err != nil {
		return nil, storeError("get users by ids", err)
	}
	out := make([]domain.User, len(rows))
	for i, row := range rows {
		out[i] = userOf(row)
	}
	return out, nil
}

func (r users) ByEmail(ctx context.Context, email string) (domain.User, error) {
	row, err := r.c.read.GetUserByEmailKey(ctx, domain.EmailKey(email))
	if err != nil {
		return domain.User{}, storeError("get user by email", err)
	}
	return userOf(row), nil
}

// Lock reads the user. Inside InTx no more is needed: the transaction began
// IMMEDIATE, so it already holds SQLite's single write lock, and every other
// writer waits for it to end. Outside a transaction there is nothing to hold.
func (r users) Lock(ctx context.Context, id int64) (domain.User, error) {
	row, err := r.c.read.GetUser(ctx, id)
	if err != nil {
		return domain.User{}, storeError(fmt.Sprintf("lock user %d", id), err)
	}
	return userOf(row), nil
}

func (r users) Update(ctx context.Context, u domain.User) error {
	n, err := r.c.write.UpdateUser(ctx, db.UpdateUserParams{
		Name:            u.Name,
		Email:           u.Email,
		EmailKey:        domain.EmailKey(u.Email),
		PasswordHash:    u.PasswordHash,
		RememberToken:   u.RememberToken,
		EmailVerifiedAt: nullTime(u.EmailVerifiedAt),
		AvatarPath:      u.AvatarPath,
		UpdatedAt:       dbTime(u.UpdatedAt),
		ID:              u.ID,
	})
	if err != nil {
		return storeError(fmt.Sprintf("update user %d", u.ID), err)
	}
	if n == 0 {
		return notFound(fmt.Sprintf("update user %d", u.ID))
	}
	return nil
}

func (r users) SetRememberToken(ctx context.Context, id int64, token string) error {
	n, err := r.c.write.SetRememberToken(ctx, db.SetRememberTokenParams{RememberToken: token, ID: id})
	if err != nil {
		return storeError(fmt.Sprintf("set remember token of user %d", id), err)
	}
	if n == 0 {
		return notFound(fmt.Sprintf("set remember token of user %d", id))
	}
	return nil
}

// MarkEmailVerified updates the row only when it still has email and no
// verification; when nothing changed, a read tells a missing user from one
// the condition left alone.
func (r users) MarkEmailVerified(ctx context.Context, id int64, email string, at time.Time) (bool, error) {
	op := fmt.Sprintf("mark e-mail of user %d verified", id)
	n, err := r.c.write.MarkEmailVerified(ctx, db.MarkEmailVerifiedParams{
		EmailVerifiedAt: nullTime(&at),
		UpdatedAt:       dbTime(at),
		ID:              id,
		Email:           email,
	})
	if err != nil {
		return false, storeError(op, err)
	}
	if n > 0 {
		return true, nil
	}
	if _, err := r.c.write.GetUser(ctx, id); err != nil {
		return false, storeError(op, err)
	}
	return false, nil
}

// Delete removes the user; the foreign key's ON DELETE CASCADE removes the
// tokens in the same statement.
func (r users) Delete(ctx context.Context, id int64) error {
	n, err := r.c.write.DeleteUser(ctx, id)
	if err != nil {
		return storeError(fmt.Sprintf("delete user %d", id), err)
	}
	if n == 0 {
		return notFound(fmt.Sprintf("delete user %d", id))
	}
	return nil
}

func userOf(row db.User) domain.User {
	return domain.User{
		ID:              row.ID,
		Name:            row.Name,
		Email:           row.Email,
		PasswordHash:    row.PasswordHash,
		RememberToken:   row.RememberToken,
		EmailVerifiedAt: timePtrOf(row.EmailVerifiedAt),
		AvatarPath:      row.AvatarPath,
		CreatedAt:       timeOf(row.CreatedAt),
		UpdatedAt:       timeOf(row.UpdatedAt),
		IsAdmin:         row.IsAdmin != 0,
	}
}
