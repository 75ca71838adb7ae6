package sqlite

import (
	"context"
	"fmt"

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
		EmailVerifiedAt: nullMicros(u.EmailVerifiedAt),
		AvatarPath:      u.AvatarPath,
		CreatedAt:       micros(u.CreatedAt),
		UpdatedAt:       micros(u.UpdatedAt),
	})
	if err != nil {
		return wrap("create user", err)
	}
	u.ID = id
	return nil
}

func (r users) ByID(ctx context.Context, id int64) (domain.User, error) {
	row, err := r.c.read.GetUser(ctx, id)
	if err != nil {
		return domain.User{}, wrap(fmt.Sprintf("get user %d", id), err)
	}
	return userFromRow(row), nil
}

func (r users) ByIDs(ctx context.Context, ids []int64) ([]domain.User, error) {
	if len(ids) == 0 {
		return []domain.User{}, nil
	}
	rows, err := r.c.read.GetUsersByIDs(ctx, ids)
	if err != nil {
		return nil, wrap("get users by ids", err)
	}
	out := make([]domain.User, len(rows))
	for i, row := range rows {
		out[i] = userFromRow(row)
	}
	return out, nil
}

func (r users) ByEmail(ctx context.Context, email string) (domain.User, error) {
	row, err := r.c.read.GetUserByEmailKey(ctx, domain.EmailKey(email))
	if err != nil {
		return domain.User{}, wrap("get user by email", err)
	}
	return userFromRow(row), nil
}

// Lock reads the user. Inside InTx no more is needed: the transaction began
// IMMEDIATE, so it already holds SQLite's single write lock, and every other
// writer waits for it to end. Outside a transaction there is nothing to hold.
func (r users) Lock(ctx context.Context, id int64) (domain.User, error) {
	row, err := r.c.read.GetUser(ctx, id)
	if err != nil {
		return domain.User{}, wrap(fmt.Sprintf("lock user %d", id), err)
	}
	return userFromRow(row), nil
}

func (r users) Update(ctx context.Context, u domain.User) error {
	n, err := r.c.write.UpdateUser(ctx, db.UpdateUserParams{
		Name:            u.Name,
		Email:           u.Email,
		EmailKey:        domain.EmailKey(u.Email),
		PasswordHash:    u.PasswordHash,
		RememberToken:   u.RememberToken,
		EmailVerifiedAt: nullMicros(u.EmailVerifiedAt),
		AvatarPath:      u.AvatarPath,
		UpdatedAt:       micros(u.UpdatedAt),
		ID:              u.ID,
	})
	if err != nil {
		return wrap(fmt.Sprintf("update user %d", u.ID), err)
	}
	if n == 0 {
		return notFound(fmt.Sprintf("update user %d", u.ID))
	}
	return nil
}

// Delete removes the user; the foreign key's ON DELETE CASCADE removes the
// tokens in the same statement.
func (r users) Delete(ctx context.Context, id int64) error {
	n, err := r.c.write.DeleteUser(ctx, id)
	if err != nil {
		return wrap(fmt.Sprintf("delete user %d", id), err)
	}
	if n == 0 {
		return notFound(fmt.Sprintf("delete user %d", id))
	}
	return nil
}

func userFromRow(row db.User) domain.User {
	return domain.User{
		ID:              row.ID,
		Name:            row.Name,
		Email:           row.Email,
		PasswordHash:    row.PasswordHash,
		RememberToken:   row.RememberToken,
		EmailVerifiedAt: fromNullMicros(row.EmailVerifiedAt),
		AvatarPath:      row.AvatarPath,
		CreatedAt:       fromMicros(row.CreatedAt),
		UpdatedAt:       fromMicros(row.UpdatedAt),
	}
}
