package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// users implements ports.UserRepository.
type users struct{ q *db.Queries }

var _ ports.UserRepository = users{}

func (r users) Create(ctx context.Context, u *domain.User) error {
	id, err := r.q.CreateUser(ctx, db.CreateUserParams{
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
	row, err := r.q.GetUser(ctx, id)
	if err != nil {
		return domain.User{}, storeError(fmt.Sprintf("get user %d", id), err)
	}
	return userOf(row), nil
}

func (r users) ByIDs(ctx context.Context, ids []int64) ([]domain.User, error) {
	if len(ids) == 0 {
		return []domain.User{}, nil
	}
	rows, err := r.q.GetUsersByIDs(ctx, ids)
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
	row, err := r.q.GetUserByEmailKey(ctx, domain.EmailKey(email))
	if err != nil {
		// The address stays out of the message: errors end up in logs.
		return domain.User{}, storeError("get user by email", err)
	}
	return userOf(row), nil
}

func (r users) Lock(ctx context.Context, id int64) (domain.User, error) {
	row, err := r.q.LockUser(ctx, id)
	if err != nil {
		return domain.User{}, storeError(fmt.Sprintf("lock user %d", id), err)
	}
	return userOf(row), nil
}

func (r users) Update(ctx context.Context, u domain.User) error {
	n, err := r.q.UpdateUser(ctx, db.UpdateUserParams{
		ID:              u.ID,
		Name:            u.Name,
		Email:           u.Email,
		EmailKey:        domain.EmailKey(u.Email),
		PasswordHash:    u.PasswordHash,
		RememberToken:   u.RememberToken,
		EmailVerifiedAt: nullTime(u.EmailVerifiedAt),
		AvatarPath:      u.AvatarPath,
		UpdatedAt:       dbTime(u.UpdatedAt),
	})
	op := fmt.Sprintf("update user %d", u.ID)
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func (r users) SetRememberToken(ctx context.Context, id int64, token string) error {
	n, err := r.q.SetRememberToken(ctx, db.SetRememberTokenParams{RememberToken: token, ID: id})
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
	n, err := r.q.MarkEmailVerified(ctx, db.MarkEmailVerifiedParams{VerifiedAt: dbTime(at), ID: id, Email: email})
	if err != nil {
		return false, storeError(op, err)
	}
	if n > 0 {
		return true, nil
	}
	if _, err := r.q.GetUser(ctx, id); err != nil {
		return false, storeError(op, err)
	}
	return false, nil
}

func (r users) Delete(ctx context.Context, id int64) error {
	n, err := r.q.DeleteUser(ctx, id)
	op := fmt.Sprintf("delete user %d", id)
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
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
		IsAdmin:         row.IsAdmin,
	}
}
