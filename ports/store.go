// Package ports holds every interface between Inkwell's core and the world:
// the driven side (stores, hashing, secrets, clock) that adapters implement,
// and the driving side (use cases) that the HTTP adapter calls.
package ports

import (
	"context"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// Store is the persistence port. Repos works outside a transaction; InTx runs
// fn inside one and commits when fn returns nil, rolls back otherwise. A store
// that cannot be reached returns errors of kind domain.Unavailable. Its
// EventWaker wakes the readers of its outbox, on every replica.
type Store interface {
	Repos() Repos
	InTx(ctx context.Context, fn func(Repos) error) error
	Ping(ctx context.Context) error
	EventWaker
}

// Repos is the set of repositories of one unit of work.
type Repos struct {
	Users      UserRepository
	Tokens     TokenRepository
	RateLimits RateLimitRepository
	People     PersonRepository
	Products   ProductRepository
	Posts      PostRepository
	PostViews  PostViews
	Tags       TagRepository
	Comments   CommentRepository
	Sessions   SessionRepository
	// Idempotency keeps the Idempotency-Key records of POST requests.
	Idempotency IdempotencyRepository
	Events      EventRepository
	Webhooks    WebhookRepository
	Deliveries  DeliveryRepository
	// Mails is the outbox of mails.
	Mails MailRepository
	// PasswordResets keeps each account's live password reset.
	PasswordResets PasswordResetRepository
	// Admin holds the console's reads across every user and the audit log.
	Admin AdminRepository
	// Trash keeps trashed posts and comments until they are restored or
	// purged.
	Trash TrashRepository
}

// UserRepository keeps area A accounts.
type UserRepository interface {
	// Create stores u and sets its ID; never as an admin, whatever
	// u.IsAdmin says (only AdminRepository.SetAdmin makes one). It returns
	// domain.ErrEmailTaken when another user has the same e-mail, compared
	// by domain.EmailKey.
	Create(ctx context.Context, u *domain.User) error
	// ByID returns domain.ErrNotFound when there is no such user.
	ByID(ctx context.Context, id int64) (domain.User, error)
	// ByEmail finds a user by domain.EmailKey(email); domain.ErrNotFound otherwise.
	ByEmail(ctx context.Context, email string) (domain.User, error)
	// Lock reads the user and holds it until the transaction ends, so that
	// concurrent writers of the same user's data (logins) run one after the
	// other. domain.ErrNotFound when the user is gone.
	Lock(ctx context.Context, id int64) (domain.User, error)
	// Update writes every field but ID, CreatedAt and IsAdmin.
	// domain.ErrNotFound, domain.ErrEmailTaken.
	Update(ctx context.Context, u domain.User) error
	// Delete removes the user with their tokens, sessions, posts and
	// comments. domain.ErrNotFound.
	Delete(ctx context.Context, id int64) error
	// ByIDs returns the users among ids that exist, in id order, in one query.
	ByIDs(ctx context.Context, ids []int64) ([]domain.User, error)
	// SetRememberToken replaces the user's remember_token, so that every
	// remember-me cookie built on the old one stops working. It leaves
	// UpdatedAt alone. domain.ErrNotFound.
	SetRememberToken(ctx context.Context, id int64, token string) error
	// MarkEmailVerified sets EmailVerifiedAt and UpdatedAt to at, but only
	// while the user's e-mail is still email (as stored, case and all) and
	// no verification is recorded; it reports whether it did. A user whose
	// address changed or who is already verified is left alone (false, nil).
	// domain.ErrNotFound when there is no such user.
	MarkEmailVerified(ctx context.Context, id int64, email string, at time.Time) (bool, error)
}

// TokenRepository keeps personal access tokens.
type TokenRepository interface {
	// Create stores t and sets its ID. A user that does not exist gives
	// domain.ErrNotFound.
	Create(ctx context.Context, t *domain.Token) error
	// ByID returns domain.ErrNotFound when there is no such token.
	ByID(ctx context.Context, id int64) (domain.Token, error)
	// ByIDWithUser returns the token and the user it belongs to, read
	// together in one query, since every authenticated request needs both.
	// domain.ErrNotFound when there is no such token.
	ByIDWithUser(ctx context.Context, id int64) (domain.Token, domain.User, error)
	// ByHash finds a token by its digest; domain.ErrNotFound otherwise.
	ByHash(ctx context.Context, hash string) (domain.Token, error)
	// ListByUser returns the user's tokens, oldest first.
	ListByUser(ctx context.Context, userID int64) ([]domain.Token, error)
	// Delete removes one token of userID; domain.ErrNotFound when that user
	// has no such token.
	Delete(ctx context.Context, userID, id int64) error
	// DeleteByUser removes every token of the user and says how many went.
	DeleteByUser(ctx context.Context, userID int64) (int64, error)
	// DeleteByUserStreamed removes every token of the user, as DeleteByUser
	// does, and says how many of those that went had been marked by
	// MarkStreamed.
	DeleteByUserStreamed(ctx context.Context, userID int64) (int64, error)
	// MarkStreamed marks the token as one that opened an event stream and
	// returns it; domain.ErrNotFound when there is no such token. A token
	// deleted concurrently is either marked first, and then counted by
	// DeleteByUserStreamed, or gone.
	MarkStreamed(ctx context.Context, id int64) (domain.Token, error)
	// DeleteByName removes the user's tokens named name and says how many went.
	DeleteByName(ctx context.Context, userID int64, name string) (int64, error)
	// DeleteExpired removes tokens whose expiry is at or before now.
	DeleteExpired(ctx context.Context, now time.Time) (int64, error)
	// Touch sets last_used_at to now unless it is already within
	// domain.TouchInterval of now; a missing token is not an error.
	Touch(ctx context.Context, id int64, now time.Time) error
}

// RateLimitRepository counts hits per key in fixed windows. It lives in the
// store so that every replica sees the same counts.
type RateLimitRepository interface {
	// Hit counts one hit on key. When the key's window has ended (or it has
	// none) a new window of length window starts at now. It returns the hits
	// in the current window, this one included, and when the window ends.
	// Concurrent hits, from one replica or several, each get their own
	// count, so a limit is enforced by deciding on Hit's answer.
	Hit(ctx context.Context, key string, window time.Duration, now time.Time) (int, time.Time, error)
	// Clear forgets key.
	Clear(ctx context.Context, key string) error
}

// SessionRepository keeps browser sessions, so that every replica sees them.
type SessionRepository interface {
	// Create stores s, with its Kind for good. domain.ErrConflict when its
	// IDHash exists; domain.ErrNotFound when UserID is set and names no
	// user.
	Create(ctx context.Context, s domain.Session) error
	// ByHash returns domain.ErrNotFound when there is no such session.
	ByHash(ctx context.Context, idHash string) (domain.Session, error)
	// Update writes UserID, CSRFToken and LastActivity, never Kind.
	// domain.ErrNotFound.
	Update(ctx context.Context, s domain.Session) error
	// Touch sets last_activity to now unless it is already within
	// domain.TouchInterval of now; a missing session is not an error.
	Touch(ctx context.Context, idHash string, now time.Time) error
	// Delete removes one session; a missing one is not an error.
	Delete(ctx context.Context, idHash string) error
	// DeleteByUser removes every session of the user and says how many went.
	DeleteByUser(ctx context.Context, userID int64) (int64, error)
	// DeleteIdle removes sessions whose last activity is at or before
	// cutoff and says how many went.
	DeleteIdle(ctx context.Context, cutoff time.Time) (int64, error)
}

// Page selects a slice of a list: Offset rows skipped, at most Limit
// returned; a Limit of zero or less means no limit.
type Page struct {
	Offset int
	Limit  int
}

// SortKey orders a list by Field, descending when Desc.
type SortKey struct {
	Field string
	Desc  bool
}

// PersonFields are the fields a PersonQuery may sort by.
var PersonFields = []string{"id", "name", "email", "age", "created_at", "updated_at"}

// PersonQuery filters and orders a list of people. Search keeps people whose
// name or e-mail contains it, ignoring ASCII case, with % and _ taken
// literally. Sort falls back to id ascending, and id ascending always breaks
// ties. People without an age sort after every age ascending and before every
// age descending. A field outside PersonFields is an error of kind Invalid.
type PersonQuery struct {
	Search string
	Sort   []SortKey
	Page   Page
}

// PersonRepository keeps area B user records.
type PersonRepository interface {
	// Create stores p and sets its ID; domain.ErrEmailTaken on a duplicate
	// e-mail, compared by domain.EmailKey.
	Create(ctx context.Context, p *domain.Person) error
	// Get returns domain.ErrNotFound when there is no such record.
	Get(ctx context.Context, id int64) (domain.Person, error)
	// Lock reads the record and holds it until the transaction ends, so that
	// concurrent partial updates apply one after the other.
	// domain.ErrNotFound when there is no such record.
	Lock(ctx context.Context, id int64) (domain.Person, error)
	// Update writes every field but ID and CreatedAt. domain.ErrNotFound,
	// domain.ErrEmailTaken.
	Update(ctx context.Context, p domain.Person) error
	// Delete returns domain.ErrNotFound when there is no such record.
	Delete(ctx context.Context, id int64) error
	// List returns one page of the matching records and how many match in all.
	List(ctx context.Context, q PersonQuery) ([]domain.Person, int, error)
}

// ProductRepository keeps area B products.
type ProductRepository interface {
	// Create stores p and sets its ID; domain.ErrSKUTaken on a duplicate SKU.
	Create(ctx context.Context, p *domain.Product) error
	// Get returns domain.ErrNotFound when there is no such product.
	Get(ctx context.Context, id int64) (domain.Product, error)
	// Lock reads the product and holds it until the transaction ends, so
	// that a conditional write checks the version it replaces.
	// domain.ErrNotFound when there is no such product.
	Lock(ctx context.Context, id int64) (domain.Product, error)
	// Update writes every field but ID and CreatedAt. domain.ErrNotFound,
	// domain.ErrSKUTaken.
	Update(ctx context.Context, p domain.Product) error
	// Delete returns domain.ErrNotFound when there is no such product.
	Delete(ctx context.Context, id int64) error
	// List returns one page of products in id order and how many there are.
	List(ctx context.Context, page Page) ([]domain.Product, int, error)
	// Search returns one page of the products q selects, newest first (id
	// descending), and how many match in all.
	Search(ctx context.Context, q ProductQuery) ([]domain.Product, int, error)
}

// ProductQuery selects a page of products, newest first (id descending).
// Search keeps products whose name contains it, ignoring ASCII case, with
// % and _ taken literally, as PersonQuery's does.
type ProductQuery struct {
	Search string
	Page   Page
}
