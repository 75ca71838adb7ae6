package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// avatarDir is where avatars are kept below the storage root.
const avatarDir = "avatars"

// Profile implements ports.Profile.
type Profile struct {
	store   ports.Store
	hasher  ports.PasswordHasher
	secrets ports.SecretGenerator
	files   ports.FileStore
	clock   ports.Clock
	cfg     AccountsConfig
	verify  *Verification
}

// NewProfile returns the use cases of a user's own account; a changed
// address is mailed through verify.
func NewProfile(store ports.Store, hasher ports.PasswordHasher, secrets ports.SecretGenerator, files ports.FileStore, clock ports.Clock, cfg AccountsConfig, verify *Verification) *Profile {
	return &Profile{store: store, hasher: hasher, secrets: secrets, files: files, clock: clock, cfg: cfg, verify: verify}
}

var _ ports.Profile = (*Profile)(nil)

// Update implements ports.Profile. The current password is checked against
// the hash the actor was authenticated with, and the transaction makes sure
// that hash is still the stored one, so that a password changed meanwhile
// can't be bypassed. Both hashes are computed before the transaction, so no
// lock waits for them.
func (p *Profile) Update(ctx context.Context, actor domain.Actor, in ports.ProfileInput, pre ports.Precondition) (domain.User, *domain.PlainToken, error) {
	if err := actor.CheckAbility(domain.WriteProfile); err != nil {
		return domain.User{}, nil, err
	}
	if err := checkProfile(in); err != nil {
		return domain.User{}, nil, err
	}
	before := actor.User
	guarded := in.Password.Set || (in.Email.Set && in.Email.Value != before.Email)
	if guarded {
		if err := p.checkPassword(before, in.CurrentPassword); err != nil {
			return domain.User{}, nil, err
		}
	}
	var hash string
	if in.Password.Set {
		var err error
		if hash, err = p.hasher.Hash(in.Password.Value); err != nil {
			return domain.User{}, nil, fmt.Errorf("update profile: %w", err)
		}
	}
	now := p.clock.Now()
	var u domain.User
	var plain *domain.PlainToken
	var oldEmail string
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		if u, err = r.Users.Lock(ctx, before.ID); err != nil {
			return err
		}
		if guarded && u.PasswordHash != before.PasswordHash {
			return domain.ErrPasswordMismatch
		}
		if !pre.Allows(u.UpdatedAt) {
			return domain.ErrPreconditionFailed
		}
		changed := hash != ""
		if in.Name.Set && in.Name.Value != u.Name {
			u.Name, changed = in.Name.Value, true
		}
		if in.Email.Set && in.Email.Value != u.Email {
			// A new address is not proven by the old one's proof, as
			// Laravel's MustVerifyEmail has it: any change, case too.
			oldEmail = u.Email
			u.Email, u.EmailVerifiedAt, changed = in.Email.Value, nil, true
		}
		if !changed {
			return nil
		}
		if hash != "" {
			// Remember-me cookies built on the old token stop working,
			// as the tokens and sessions revoked below do.
			u.PasswordHash, u.RememberToken = hash, newRememberToken(p.secrets)
		}
		u.UpdatedAt = now
		if err := r.Users.Update(ctx, u); err != nil {
			return err
		}
		if oldEmail != "" {
			if err := p.verify.enqueueLink(ctx, r, u, in.LinkBase, now); err != nil {
				return err
			}
			if err := p.verify.enqueueChanged(ctx, r, u, oldEmail); err != nil {
				return err
			}
		}
		if hash == "" {
			return nil
		}
		plain, err = p.revokeAndReissue(ctx, r, actor, now)
		return err
	})
	if errors.Is(err, domain.ErrNotFound) {
		// The account was deleted after the request was authenticated.
		return domain.User{}, nil, domain.ErrUnauthenticated
	}
	if err != nil {
		return domain.User{}, nil, fmt.Errorf("update profile: %w", err)
	}
	if oldEmail != "" {
		p.verify.outbox.Wake()
	}
	return u, plain, nil
}

// checkProfile returns an Invalid error listing every rule that the fields
// in sets break, or nil; the fields it leaves alone were checked when set.
func checkProfile(in ports.ProfileInput) error {
	var vs domain.Violations
	if in.Name.Set {
		vs.Add("name", domain.CheckUserName(in.Name.Value))
	}
	if in.Email.Set {
		vs.Add("email", domain.CheckEmail(in.Email.Value))
	}
	if in.Password.Set {
		vs.Add("password", domain.CheckPassword(in.Password.Value))
	}
	return vs.Err()
}

// revokeAndReissue ends every token and browser session of the actor's
// user after a password change, since any of them may be what an attacker
// holds, and issues the token the caller goes on with: as able as the one
// presented, or able to do everything for a browser session, which was.
func (p *Profile) revokeAndReissue(ctx context.Context, r ports.Repos, actor domain.Actor, now time.Time) (*domain.PlainToken, error) {
	if _, err := r.Tokens.DeleteByUser(ctx, actor.User.ID); err != nil {
		return nil, err
	}
	if _, err := r.Sessions.DeleteByUser(ctx, actor.User.ID); err != nil {
		return nil, err
	}
	abilities := []string{domain.AbilityAll}
	if actor.Token != nil {
		abilities = actor.Token.Abilities
	}
	_, plain, err := issueToken(ctx, r, p.secrets, now, actor.User.ID, authTokenName, abilities, p.cfg.TokenLifetime)
	if err != nil {
		return nil, err
	}
	// The new token's streams start after this commit, so the record ends
	// only those of the credentials deleted here.
	if err := revoke(ctx, r, domain.Revocation{UserID: actor.User.ID, AllTokens: true, AllSessions: true}, now); err != nil {
		return nil, err
	}
	return &plain, nil
}

// SetAvatar implements ports.Profile. The file is written before the
// transaction and removed again if it fails, and the old file is removed
// only after the commit, so that no committed user points at a missing
// file.
func (p *Profile) SetAvatar(ctx context.Context, actor domain.Actor, img ports.Image) (domain.User, error) {
	if err := actor.CheckAbility(domain.WriteProfile); err != nil {
		return domain.User{}, err
	}
	if rules := checkUpload(&img, domain.MaxAvatarKilobytes); rules != nil {
		return domain.User{}, domain.InvalidField("avatar", rules...)
	}
	path, err := p.files.Save(ctx, avatarDir, img.Data, img.Ext)
	if err != nil {
		return domain.User{}, fmt.Errorf("set avatar: %w", err)
	}
	var u domain.User
	var old string
	err = p.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		if u, err = r.Users.Lock(ctx, actor.User.ID); err != nil {
			return err
		}
		old = u.AvatarPath
		u.AvatarPath, u.UpdatedAt = path, p.clock.Now()
		return r.Users.Update(ctx, u)
	})
	if err != nil {
		removeFiles(ctx, p.files, path)
		if errors.Is(err, domain.ErrNotFound) {
			return domain.User{}, domain.ErrUnauthenticated
		}
		return domain.User{}, fmt.Errorf("set avatar: %w", err)
	}
	removeFiles(ctx, p.files, old)
	return u, nil
}

// Delete implements ports.Profile. The files are listed inside the
// transaction that deletes the rows, and removed once it has committed.
// The user's comments on other people's posts go without events of their
// own: the account's deletion takes them, and readers of those posts learn
// of it when they read the post again.
func (p *Profile) Delete(ctx context.Context, actor domain.Actor, currentPassword string, pre ports.Precondition) error {
	if err := actor.CheckAbility(domain.WriteProfile); err != nil {
		return err
	}
	if err := p.checkPassword(actor.User, currentPassword); err != nil {
		return err
	}
	var files []string
	err := p.store.InTx(ctx, func(r ports.Repos) error {
		u, err := r.Users.Lock(ctx, actor.User.ID)
		if err != nil {
			return err
		}
		if u.PasswordHash != actor.User.PasswordHash {
			return domain.ErrPasswordMismatch
		}
		if !pre.Allows(u.UpdatedAt) {
			return domain.ErrPreconditionFailed
		}
		files, err = deleteAccount(ctx, r, u, p.clock.Now())
		return err
	})
	if errors.Is(err, domain.ErrNotFound) {
		return domain.ErrUnauthenticated
	}
	if err != nil {
		return fmt.Errorf("delete account: %w", err)
	}
	removeFiles(ctx, p.files, files...)
	return nil
}

// deleteAccount removes u with everything the store's cascade takes, in
// r's transaction, and returns the files no row refers to any more, for the
// caller to remove after the commit. Each of u's posts leaves with its
// post.deleted event, as if deleted by itself, and u's credentials end
// last. The account's own deletion and an admin's both end here.
func deleteAccount(ctx context.Context, r ports.Repos, u domain.User, now time.Time) ([]string, error) {
	files, err := r.Posts.ImagePathsByAuthor(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	files = append(files, u.AvatarPath)
	posts, _, err := r.PostViews.ListViews(ctx, ports.PostFilter{Viewer: u.ID, AuthorID: u.ID}, ports.Page{})
	if err != nil {
		return nil, err
	}
	trashed, _, err := r.Trash.Posts(ctx, u.ID, ports.Page{})
	if err != nil {
		return nil, err
	}
	views, err := trashedViews(ctx, r, trashed, u)
	if err != nil {
		return nil, err
	}
	posts = append(posts, views...)
	// The trash goes at once too, with its files.
	trashedFiles, err := r.Trash.PurgeAuthor(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	files = append(files, trashedFiles...)
	if err := r.Users.Delete(ctx, u.ID); err != nil {
		return nil, err
	}
	for _, v := range posts {
		if err := record(ctx, r, domain.NewPostEvent(domain.PostDeleted, v.Post, u, v.Tags, now)); err != nil {
			return nil, err
		}
	}
	return files, revoke(ctx, r, domain.Revocation{UserID: u.ID, AllTokens: true, AllSessions: true}, now)
}

// checkPassword is Laravel's current_password rule. An empty password is
// checked like any other, so that a missing one costs as much as a wrong
// one.
func (p *Profile) checkPassword(u domain.User, password string) error {
	ok, err := p.hasher.Check(u.PasswordHash, password)
	if err != nil {
		return fmt.Errorf("check current password: %w", err)
	}
	if !ok {
		return domain.ErrPasswordMismatch
	}
	return nil
}

// removeFiles deletes files that no committed row refers to any more. A
// failure leaves an orphaned file, never a dangling reference, so it is not
// the request's failure; empty paths are skipped.
func removeFiles(ctx context.Context, files ports.FileStore, paths ...string) {
	for _, path := range paths {
		if path != "" {
			_ = files.Delete(context.WithoutCancel(ctx), path)
		}
	}
}
