package sqlrepo

import (
	"context"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// UserQueries are a store's statements on users. Every e-mail is matched
// by domain.EmailKey, which CreateUser and UpdateUser store beside it.
type UserQueries interface {
	CreateUser(ctx context.Context, u domain.User) (int64, error)
	GetUser(ctx context.Context, id int64) (domain.User, error)
	GetUsersByIDs(ctx context.Context, ids []int64) ([]domain.User, error)
	GetUserByEmailKey(ctx context.Context, key string) (domain.User, error)
	// LockUser reads the user and holds it until the transaction ends.
	LockUser(ctx context.Context, id int64) (domain.User, error)
	UpdateUser(ctx context.Context, u domain.User) (int64, error)
	SetRememberToken(ctx context.Context, id int64, token string) (int64, error)
	// MarkEmailVerified updates the user only while its e-mail is still
	// email and no verification is recorded.
	MarkEmailVerified(ctx context.Context, id int64, email string, at time.Time) (int64, error)
	// UserExists reads the user as the writer sees it (domain.ErrNotFound
	// through Border when it is not there).
	UserExists(ctx context.Context, id int64) error
	// DeleteUser removes the user; the foreign keys' ON DELETE CASCADE
	// removes its tokens, sessions, posts and comments in the same
	// statement.
	DeleteUser(ctx context.Context, id int64) (int64, error)
}

// Users is ports.UserRepository.
type Users struct {
	Q UserQueries
	B Border
}

var _ ports.UserRepository = Users{}

func (r Users) Create(ctx context.Context, u *domain.User) error {
	id, err := r.Q.CreateUser(ctx, *u)
	if err != nil {
		return r.B.Err("create user", err)
	}
	u.ID = id
	return nil
}

func (r Users) ByID(ctx context.Context, id int64) (domain.User, error) {
	u, err := r.Q.GetUser(ctx, id)
	if err != nil {
		return domain.User{}, r.B.Err(fmt.Sprintf("get user %d", id), err)
	}
	return u, nil
}

func (r Users) ByIDs(ctx context.Context, ids []int64) ([]domain.User, error) {
	if len(ids) == 0 {
		return []domain.User{}, nil
	}
	out, err := r.Q.GetUsersByIDs(ctx, ids)
	if err != nil {
		return nil, r.B.Err("get users by ids", err)
	}
	return out, nil
}

func (r Users) ByEmail(ctx context.Context, email string) (domain.User, error) {
	u, err := r.Q.GetUserByEmailKey(ctx, domain.EmailKey(email))
	if err != nil {
		// The address stays out of the message: errors end up in logs.
		return domain.User{}, r.B.Err("get user by email", err)
	}
	return u, nil
}

func (r Users) Lock(ctx context.Context, id int64) (domain.User, error) {
	u, err := r.Q.LockUser(ctx, id)
	if err != nil {
		return domain.User{}, r.B.Err(fmt.Sprintf("lock user %d", id), err)
	}
	return u, nil
}

func (r Users) Update(ctx context.Context, u domain.User) error {
	n, err := r.Q.UpdateUser(ctx, u)
	return r.B.Affected(fmt.Sprintf("update user %d", u.ID), n, err)
}

func (r Users) SetRememberToken(ctx context.Context, id int64, token string) error {
	n, err := r.Q.SetRememberToken(ctx, id, token)
	return r.B.Affected(fmt.Sprintf("set remember token of user %d", id), n, err)
}

// MarkEmailVerified updates the row only when it still has email and no
// verification; when nothing changed, a read tells a missing user from one
// the condition left alone.
func (r Users) MarkEmailVerified(ctx context.Context, id int64, email string, at time.Time) (bool, error) {
	op := fmt.Sprintf("mark e-mail of user %d verified", id)
	n, err := r.Q.MarkEmailVerified(ctx, id, email, at)
	if err != nil {
		return false, r.B.Err(op, err)
	}
	if n > 0 {
		return true, nil
	}
	if err := r.Q.UserExists(ctx, id); err != nil {
		return false, r.B.Err(op, err)
	}
	return false, nil
}

func (r Users) Delete(ctx context.Context, id int64) error {
	n, err := r.Q.DeleteUser(ctx, id)
	return r.B.Affected(fmt.Sprintf("delete user %d", id), n, err)
}
