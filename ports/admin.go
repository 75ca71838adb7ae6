package ports

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/inkwell/inkwell/domain"
)

// AdminPost is a post as the console shows it: the view its readers get,
// whose Author holds what readers see of the account, and the author's
// e-mail, by which an operator knows the account.
type AdminPost struct {
	PostView
	AuthorEmail string
}

// AdminTrashedComment is a trashed comment as the console's Trash page
// lists it.
type AdminTrashedComment struct {
	Comment   domain.Comment
	Author    domain.User
	DeletedAt time.Time
}

// AdminCaller is who calls an admin use case and from where: the actor a
// console session resolves to (Sessions.Actor) and the client address the
// audit log records.
type AdminCaller struct {
	Actor   domain.Actor
	Address string
}

// AdminOverview is what the console's overview counts.
type AdminOverview struct {
	Users int
	// Published and Drafts count posts by status.
	Published int
	Drafts    int
	Comments  int
	Webhooks  int
	// WebhooksDisabled counts the webhooks that receive nothing.
	WebhooksDisabled int
	// EventBacklog is how many events of the outbox are not yet turned
	// into deliveries.
	EventBacklog int64
	// DeliveriesPending and DeliveriesFailed count webhook deliveries
	// waiting to be sent and failed for good.
	DeliveriesPending int
	DeliveriesFailed  int
	// MailsPending and MailsFailed count the mail outbox likewise.
	MailsPending int
	MailsFailed  int
	// RecentFailures are the latest failed deliveries and mails, newest
	// first, at most AdminRecentFailures.
	RecentFailures []AdminFailure
}

// AdminRecentFailures is how many failures the overview lists.
const AdminRecentFailures = 10

// AdminFailure is a delivery or a mail whose last attempt failed.
type AdminFailure struct {
	// Subject is domain.SubjectDelivery or domain.SubjectMail; ID its id.
	Subject string
	ID      int64
	// Target is the webhook's URL or the mail's address.
	Target   string
	Error    string
	Attempts int
	At       time.Time
}

// AdminUserQuery selects a page of accounts, newest first (id descending).
// Search keeps accounts whose name contains it, ignoring the case of ASCII
// letters only, or whose e-mail key (domain.EmailKey) contains it with its
// ASCII letters lower-cased; % and _ are taken literally. CountUpTo, when above 0, bounds the
// total: the store counts no further than CountUpTo+1 matches
// (BoundedTotal). The use case sets it; its caller's is ignored.
//
// Sort orders an unsearched list: AdminSortNewest ("" is the same),
// AdminSortOldest (id ascending) or AdminSortEmail (by domain.EmailKey);
// a search is always newest first.
type AdminUserQuery struct {
	Search    string
	Sort      AdminSort
	Page      Page
	CountUpTo int
}

// AdminSort is how the console orders an unsearched list, as its sort=
// query parameter names it. Every order walks an index on the SQL stores.
type AdminSort string

// The orders of the console's lists.
const (
	AdminSortNewest AdminSort = "-created"
	AdminSortOldest AdminSort = "created"
	AdminSortEmail  AdminSort = "email"
)

// AdminUserSorts and AdminPostSorts are the orders the lists of accounts
// and of posts take, the default first.
var (
	AdminUserSorts = []AdminSort{AdminSortNewest, AdminSortOldest, AdminSortEmail}
	AdminPostSorts = []AdminSort{AdminSortNewest, AdminSortOldest}
)

// AdminPostQuery selects a page of posts of every author, drafts included,
// newest first. Search keeps posts whose title contains it (as
// PostFilter.Search); Status "" keeps every status. CountUpTo bounds the
// total as AdminUserQuery's does. Sort orders an unsearched list:
// AdminSortNewest ("" is the same) or AdminSortOldest (created_at, then
// id, ascending).
type AdminPostQuery struct {
	Search    string
	Status    domain.PostStatus
	Sort      AdminSort
	Page      Page
	CountUpTo int
}

// BoundedTotal is n counted up to limit, as a repository returns a count
// it bounds: n itself while it is at most limit (or limit is 0, no bound),
// and limit+1, "more than limit", beyond. CountedUpTo reads it back.
func BoundedTotal(n, limit int) int {
	if limit > 0 && n > limit {
		return limit + 1
	}
	return n
}

// AdminSession is what the console shows of a browser session: never its
// digest or CSRF token.
type AdminSession struct {
	Kind         domain.SessionKind // the API's or the console's
	CreatedAt    time.Time
	LastActivity time.Time
}

// AdminAccount is one account as the console shows it: the user, their
// tokens (oldest first), their sessions (latest activity first) and a page
// of their posts, newest first, with how many they have.
type AdminAccount struct {
	User      domain.User
	Tokens    []domain.Token
	Sessions  []AdminSession
	Posts     []PostView
	PostCount int
}

// AdminAccountPosts is how many posts AdminAccount carries.
const AdminAccountPosts = 20

// AdminWebhook is a webhook with its owner's e-mail.
type AdminWebhook struct {
	Webhook    domain.Webhook
	OwnerEmail string
}

// AdminMailQuery selects a page of the mail outbox, newest first; Status
// "" keeps every status.
type AdminMailQuery struct {
	Status domain.MailStatus
	Page   Page
}

// Admin is the driving port of the admin console: what an operator with
// admin rights may see of everybody's data (AdminReads) and the operator's
// own actions (Moderation). An admin's edit, publish, unpublish or
// deletion of a post, deletion of a comment and revocation of a token are
// not here: the console runs the owners' own use cases (Posts.Update,
// Posts.Delete, Comments.Delete, Tokens.Delete) with the actor acting by
// admin right (domain.ByAdminRight), which check the rights and write the
// audit row the same way.
type Admin interface {
	AdminReads
	Moderation
}

// AdminReads is what the console reads across every user's data: the
// overview, the lists and the exports. Every method first reads the
// caller's account from the store and returns domain.ErrForbidden unless
// it is an admin acting through a browser session (domain.Actor.CheckAdmin
// on the account as stored now, so a revoke or a deleted account takes
// effect at once; a bearer token, even with "*", is never admin rights).
// Pages are capped at 100 rows; a Limit of zero or less means 100.
type AdminReads interface {
	// Overview counts users, posts by status, comments, webhooks and the
	// backlogs, and lists the recent failures.
	Overview(ctx context.Context, caller AdminCaller) (AdminOverview, error)

	// Users returns one page of the accounts q selects, newest first
	// unless q.Sort says otherwise, and
	// how many match in all; a search counts only so far (AtLeast), an
	// unsearched list exactly. A search domain.CheckSearch refuses is
	// domain.Invalid on field q, a sort outside AdminUserSorts, or other
	// than the default with a search, on field sort; no store is asked.
	Users(ctx context.Context, caller AdminCaller, q AdminUserQuery) (Counted[domain.User], error)
	// User returns one account with its tokens, sessions and latest
	// posts. domain.ErrNotFound.
	User(ctx context.Context, caller AdminCaller, id int64) (AdminAccount, error)

	// Posts returns one page of the posts q selects, every author's
	// drafts included, newest first unless q.Sort (AdminPostSorts) says
	// otherwise, and how many match in all; a search counts as Users'
	// does, and a search or a sort is refused as Users' is.
	Posts(ctx context.Context, caller AdminCaller, q AdminPostQuery) (Counted[PostView], error)
	// Post returns any post, a draft included, with its author, the
	// author's e-mail and its tags. domain.ErrNotFound, also for a post in
	// the trash.
	Post(ctx context.Context, caller AdminCaller, id int64) (AdminPost, error)
	// Comments returns one page of the comments q selects, of every post,
	// newest first unless q.Sort (AdminCommentSorts) says otherwise, and
	// how many match, counted only so far (AtLeast). An AuthorEmail
	// domain.CheckEmail refuses is domain.Invalid on field "email"; one
	// that no account holds selects no comment. A PostTitle
	// domain.CheckSearch refuses is domain.Invalid on field "title", an
	// order outside AdminCommentSorts on field "sort"; a title no post's
	// holds selects no comment, and one that more posts' hold than the
	// use case reads keeps the comments of the newest of them
	// (AdminComments.TitlePosts).
	Comments(ctx context.Context, caller AdminCaller, q AdminCommentQuery) (AdminComments, error)

	// TrashedPosts returns one page of every author's trashed posts, most
	// recently trashed first, each with its author, its tags that still
	// exist and DeletedAt, and how many there are.
	TrashedPosts(ctx context.Context, caller AdminCaller, page Page) (Counted[AdminPost], error)
	// TrashedComments returns one page of every trashed comment with its
	// author, most recently trashed first, and how many there are.
	TrashedComments(ctx context.Context, caller AdminCaller, page Page) (Counted[AdminTrashedComment], error)

	// Webhooks returns one page of every user's webhooks, failing first:
	// disabled ones, then by failures in a row (most first), then by id;
	// and how many there are.
	Webhooks(ctx context.Context, caller AdminCaller, page Page) ([]AdminWebhook, int, error)
	// Deliveries returns one page of a webhook's deliveries, newest first,
	// and how many it has. domain.ErrNotFound for an unknown webhook.
	Deliveries(ctx context.Context, caller AdminCaller, webhookID int64, page Page) ([]domain.Delivery, int, error)

	// Mails returns one page of the mail outbox q selects, newest first,
	// without bodies (they hold live links), and how many match.
	Mails(ctx context.Context, caller AdminCaller, q AdminMailQuery) ([]domain.Mail, int, error)

	// Audit returns one page of the audit log, newest first, and how many
	// rows it holds, counted only so far (AtLeast).
	Audit(ctx context.Context, caller AdminCaller, page Page) (Counted[domain.AuditEntry], error)

	// ExportUsers calls fn with every account in id order, read in
	// batches of AdminExportBatch, so that memory stays the same however
	// many there are. It stops at fn's first error and returns it.
	ExportUsers(ctx context.Context, caller AdminCaller, fn func(domain.User) error) error
	// ExportPosts calls fn with every post, drafts included, in id order,
	// as ExportUsers does.
	ExportPosts(ctx context.Context, caller AdminCaller, fn func(domain.Post) error) error

	// Webhook returns any user's webhook with its owner's e-mail, its
	// secret left out. domain.ErrNotFound.
	Webhook(ctx context.Context, caller AdminCaller, id int64) (AdminWebhook, error)

	// People returns one page of area B's user records q selects, newest
	// first (id descending), searched by name or e-mail as PersonQuery's
	// Search, and how many match. Person returns one. They read what
	// area B's open reads (People) read, behind the console's rights.
	// A search domain.CheckSearch refuses is domain.Invalid on field q.
	People(ctx context.Context, caller AdminCaller, q AdminDirectoryQuery) ([]domain.Person, int, error)
	Person(ctx context.Context, caller AdminCaller, id int64) (domain.Person, error)
	// Products and Product are People and Person for area B's products,
	// searched by name (ProductQuery).
	Products(ctx context.Context, caller AdminCaller, q AdminDirectoryQuery) ([]domain.Product, int, error)
	Product(ctx context.Context, caller AdminCaller, id int64) (domain.Product, error)
}

// AdminDirectoryQuery selects a page of area B's records, newest first.
type AdminDirectoryQuery struct {
	Search string
	Page   Page
}

// Moderation is what only an operator does, which no owner's use case
// does for them: to accounts, to the trash, to webhooks and deliveries, to
// the mail outbox. Every method checks the caller's rights as AdminReads'
// do, changing nothing when they fail, and writes a domain.AuditEntry
// (caller, action, subject, caller.Address) in the transaction of the
// change, with the event the API writes for the same change.
type Moderation interface {
	// RecordLogin writes the admin.login audit row; the console calls it
	// after a successful sign-in of caller.
	RecordLogin(ctx context.Context, caller AdminCaller) error

	// RevokeUserTokens deletes every token of the user
	// (user.tokens.revoke) and says how many went. domain.ErrNotFound for
	// an unknown user.
	RevokeUserTokens(ctx context.Context, caller AdminCaller, userID int64) (int64, error)
	// DeleteUser removes the account with its tokens, sessions, posts,
	// comments and files (user.delete), after checking the caller's own
	// password: domain.ErrPasswordMismatch otherwise. Each of the user's
	// posts leaves with its post.deleted event, and the user's streams end.
	// domain.ErrNotFound.
	DeleteUser(ctx context.Context, caller AdminCaller, userID int64, adminPassword string) error
	// SendReset mails the user a password reset link below linkBase, as
	// PasswordResets.Request does but without its throttle
	// (user.send_reset). domain.ErrNotFound.
	SendReset(ctx context.Context, caller AdminCaller, userID int64, linkBase string) error
	// VerifyUser records the user's e-mail as verified (user.verify); an
	// account already verified is left as it is and still audited.
	// domain.ErrNotFound.
	VerifyUser(ctx context.Context, caller AdminCaller, userID int64) error

	// RestorePost brings a trashed post back as its author's restore does
	// (post.restore) and records post.restored. domain.ErrNotFound.
	RestorePost(ctx context.Context, caller AdminCaller, id int64) error
	// PurgePost deletes a post, trashed or live, for good with its comments
	// and image (post.purge) and records post.deleted. domain.ErrNotFound.
	PurgePost(ctx context.Context, caller AdminCaller, id int64) error
	// RestoreComment brings a trashed comment back on its live post
	// (comment.restore) and records comment.restored. domain.ErrNotFound,
	// also while its post is in the trash.
	RestoreComment(ctx context.Context, caller AdminCaller, id int64) error
	// PurgeComment deletes a trashed comment for good (comment.purge) and
	// records comment.deleted. domain.ErrNotFound.
	PurgeComment(ctx context.Context, caller AdminCaller, id int64) error

	// DisableWebhook stops deliveries to a webhook (webhook.disable).
	// domain.ErrNotFound.
	DisableWebhook(ctx context.Context, caller AdminCaller, id int64) error
	// EnableWebhook lets a webhook receive deliveries again with a fresh
	// count of failures (webhook.enable). domain.ErrNotFound.
	EnableWebhook(ctx context.Context, caller AdminCaller, id int64) error
	// RetryDelivery makes a delivery due at once (delivery.retry).
	// domain.ErrNotFound.
	RetryDelivery(ctx context.Context, caller AdminCaller, id int64) error

	// RetryMail makes a pending mail due at once with a fresh count of
	// attempts (mail.retry). domain.ErrNotFound; domain.ErrConflict for a
	// mail that is not pending: a sent, failed or expired mail's body,
	// which holds a live link, is erased (send a fresh reset instead).
	RetryMail(ctx context.Context, caller AdminCaller, id int64) error
}

// AdminExportBatch is how many rows one read of an export takes.
const AdminExportBatch = 500

// AdminRights is the driving port that makes admins: the command line's
// (inkwell admin grant|revoke|list), and no other transport's. No API route
// and no console page calls it.
type AdminRights interface {
	// Grant gives the account with email admin rights and returns it.
	// domain.ErrNotFound for an unknown e-mail.
	Grant(ctx context.Context, email string) (domain.User, error)
	// Revoke takes admin rights from the account with email and returns
	// it. domain.ErrNotFound for an unknown e-mail.
	Revoke(ctx context.Context, email string) (domain.User, error)
	// List returns every admin, in id order.
	List(ctx context.Context) ([]domain.User, error)
	// Create makes a new account with in's name, e-mail and password, its
	// address verified and with admin rights, and returns it. An Invalid
	// error naming the fields that break domain.CheckAccount;
	// domain.ErrEmailTaken when an account uses the address (Grant gives
	// it rights).
	Create(ctx context.Context, in NewAdminInput) (domain.User, error)
}

// NewAdminInput is an admin account to make: what registration takes.
type NewAdminInput struct {
	Name     string
	Email    string
	Password string
}

// AdminSetupPath is the path of the link that makes the first admin.
const AdminSetupPath = "/admin/setup"

// AdminSetupInput is the first admin as the setup form sent it, with the
// setup link's path and query as the request line carried them,
// undecoded, which its signature covers.
type AdminSetupInput struct {
	NewAdminInput
	Path     string
	RawQuery string
}

// AdminSetup is the driving port of the first admin, made through a link
// the service logs while its store has no admin, as PocketBase does it:
// the console's setup page calls it, and serve asks it for the link.
type AdminSetup interface {
	// Link returns base + AdminSetupPath with a query signed with APP_KEY
	// that works for an hour, and true; "" and false when an admin
	// exists.
	Link(ctx context.Context, base string) (string, bool, error)
	// Check tells whether a setup link may still be used:
	// domain.ErrInvalidSignature for a link that is forged, altered or
	// expired; domain.ErrAdminExists once any account has admin rights.
	Check(ctx context.Context, path, rawQuery string) error
	// Setup makes in's account, verified and with admin rights, when the
	// link is good and no admin exists, in one transaction that
	// concurrent setups wait for, so that two of them make one admin.
	// Check's errors, then AdminRights.Create's.
	Setup(ctx context.Context, in AdminSetupInput) (domain.User, error)
}

// AdminRepository holds the reads the console makes across every user's
// data, and the audit log.
type AdminRepository interface {
	// Counts returns the overview's counts, RecentFailures left empty.
	Counts(ctx context.Context) (AdminOverview, error)
	// RecentFailures returns up to limit deliveries and mails whose last
	// attempt failed (LastError set), newest update first.
	RecentFailures(ctx context.Context, limit int) ([]AdminFailure, error)
	// Users returns one page of the accounts q selects, id descending
	// (unsearched, in q.Sort's order), and how many match in all, as
	// BoundedTotal(n, q.CountUpTo) says.
	Users(ctx context.Context, q AdminUserQuery) ([]domain.User, int, error)
	// UsersAfter returns up to limit accounts with an id above after, in
	// id order.
	UsersAfter(ctx context.Context, after int64, limit int) ([]domain.User, error)
	// Posts returns one page of the posts q selects, every author's drafts
	// included, newest first (created_at, then id, descending; unsearched,
	// in q.Sort's order), and how many match in all, as
	// BoundedTotal(n, q.CountUpTo) says. Search
	// compares titles as PostFilter.Search does.
	Posts(ctx context.Context, q AdminPostQuery) ([]domain.Post, int, error)
	// PostsAfter returns up to limit posts, drafts included, with an id
	// above after, in id order.
	PostsAfter(ctx context.Context, after int64, limit int) ([]domain.Post, error)
	// Comments returns one page of the comments q selects by PostID,
	// PostIDs (q.Posts) and UserID, id descending (ascending when q.Sort is
	// AdminSortOldest), each with its author's e-mail and its post's
	// title, and how many match, counting no further than countTo + 1 (so
	// a total above countTo means more than countTo).
	Comments(ctx context.Context, q AdminCommentQuery, countTo int) ([]AdminComment, int, error)
	// Webhooks returns one page of every webhook, failing first, as
	// Admin.Webhooks orders them, and how many there are.
	Webhooks(ctx context.Context, page Page) ([]AdminWebhook, int, error)
	// Mails returns one page of the mails q selects, id descending, and
	// how many match.
	Mails(ctx context.Context, q AdminMailQuery) ([]domain.Mail, int, error)
	// Sessions returns the user's sessions, latest activity first.
	Sessions(ctx context.Context, userID int64) ([]domain.Session, error)
	// SetAdmin sets the user's is_admin. domain.ErrNotFound.
	SetAdmin(ctx context.Context, userID int64, admin bool) error
	// Admins returns every account with is_admin, in id order.
	Admins(ctx context.Context) ([]domain.User, error)
	// LockAdmins holds, until the transaction it runs in ends, the lock
	// that makings of the first admin take, so that of two concurrent
	// transactions that each find no admin and make one, the second waits
	// and then finds the first's. A store whose transactions run one at a
	// time has nothing to take.
	LockAdmins(ctx context.Context) error
	// AppendAudit stores e and sets its ID.
	AppendAudit(ctx context.Context, e *domain.AuditEntry) error
	// Audit returns one page of the audit log, newest first (id
	// descending), and how many rows it holds, counting no further than
	// countTo+1 (BoundedTotal).
	Audit(ctx context.Context, page Page, countTo int) ([]domain.AuditEntry, int, error)
}

// NewestFailures orders failures newest first (by At, then delivery before
// mail, then id descending) and keeps the first limit: how a store merges
// its failed deliveries and mails.
func NewestFailures(fs []AdminFailure, limit int) []AdminFailure {
	slices.SortFunc(fs, func(a, b AdminFailure) int {
		return cmp.Or(b.At.Compare(a.At), strings.Compare(a.Subject, b.Subject), cmp.Compare(b.ID, a.ID))
	})
	if limit >= 0 && len(fs) > limit {
		fs = fs[:limit]
	}
	return fs
}
