package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// adminPageLimit caps every page the console reads, as the API caps its
// own.
const adminPageLimit = domain.MaxPageSize

// Admin implements ports.Admin: what an operator with admin rights may see
// and do to everybody's data. Every method reads the caller's account
// again first, so rights revoked or an account deleted a moment ago count
// at once; every change writes its audit row in its own transaction.
type Admin struct {
	store  ports.Store
	hasher ports.PasswordHasher
	files  ports.FileStore
	clock  ports.Clock
	resets *PasswordResets
}

var _ ports.Admin = (*Admin)(nil)

// NewAdmin returns the admin console's use cases. Reset links leave
// through resets' outbox, as a user's own request's do.
func NewAdmin(store ports.Store, hasher ports.PasswordHasher, files ports.FileStore, clock ports.Clock, resets *PasswordResets) *Admin {
	return &Admin{store: store, hasher: hasher, files: files, clock: clock, resets: resets}
}

// authorize reads the caller's account through r and returns it when it
// holds admin rights now; domain.ErrForbidden otherwise, a bearer token
// and a deleted account included.
func authorize(ctx context.Context, r ports.Repos, c ports.AdminCaller) (domain.User, error) {
	if err := c.Actor.CheckAdmin(); err != nil {
		return domain.User{}, err
	}
	return asStored(ctx, r, c, domain.Actor.CheckAdmin)
}

// asStored reads the caller's account through r and returns it when check
// passes for the caller with the account's rights as stored, so that a
// revoke counts at once; a deleted account is domain.ErrForbidden.
func asStored(ctx context.Context, r ports.Repos, c ports.AdminCaller, check func(domain.Actor) error) (domain.User, error) {
	u, err := r.Users.ByID(ctx, c.Actor.User.ID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.User{}, domain.ErrForbidden
	}
	if err != nil {
		return domain.User{}, err
	}
	now := c.Actor
	now.User = u
	if err := check(now); err != nil {
		return domain.User{}, err
	}
	return u, nil
}

// reads authorizes the caller for a read outside a transaction and returns
// the repositories to read with.
func (a *Admin) reads(ctx context.Context, c ports.AdminCaller) (ports.Repos, error) {
	r := a.store.Repos()
	if _, err := authorize(ctx, r, c); err != nil {
		return ports.Repos{}, err
	}
	return r, nil
}

// change is the body of an admin action: it makes the change through r
// and returns the events the change records, which act appends last.
type change func(r ports.Repos, admin domain.User, now time.Time) ([]domain.Event, error)

// act runs one admin action in one transaction: authorize the caller, make
// the change, write the audit row, then record the change's events.
func (a *Admin) act(ctx context.Context, c ports.AdminCaller, action domain.AuditAction, subject string, id int64, fn change) error {
	err := a.store.InTx(ctx, func(r ports.Repos) error {
		admin, err := authorize(ctx, r, c)
		if err != nil {
			return err
		}
		now := a.clock.Now()
		events, err := fn(r, admin, now)
		if err != nil {
			return err
		}
		entry := domain.NewAuditEntry(admin, action, subject, id, c.Address, now)
		if err := r.Admin.AppendAudit(ctx, &entry); err != nil {
			return err
		}
		for _, e := range events {
			if err := record(ctx, r, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s %s %d: %w", action, subject, id, err)
	}
	return nil
}

// capped gives a page of at most adminPageLimit rows; no limit asks for
// that many.
func capped(p ports.Page) ports.Page {
	if p.Limit <= 0 || p.Limit > adminPageLimit {
		p.Limit = adminPageLimit
	}
	p.Offset = max(p.Offset, 0)
	return p
}

// checkSearch refuses a search term that domain.CheckSearch refuses, as
// the request's field: no store is asked with it.
func checkSearch(field, term string) error {
	if rules := domain.CheckSearch(term); rules != nil {
		return domain.InvalidField(field, rules...)
	}
	return nil
}

// RecordLogin implements ports.Admin.
func (a *Admin) RecordLogin(ctx context.Context, c ports.AdminCaller) error {
	return a.act(ctx, c, domain.AuditAdminLogin, domain.SubjectUser, c.Actor.User.ID,
		func(ports.Repos, domain.User, time.Time) ([]domain.Event, error) { return nil, nil })
}

// Overview implements ports.Admin.
func (a *Admin) Overview(ctx context.Context, c ports.AdminCaller) (ports.AdminOverview, error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return ports.AdminOverview{}, err
	}
	o, err := r.Admin.Counts(ctx)
	if err != nil {
		return ports.AdminOverview{}, fmt.Errorf("admin overview: %w", err)
	}
	if o.RecentFailures, err = r.Admin.RecentFailures(ctx, ports.AdminRecentFailures); err != nil {
		return ports.AdminOverview{}, fmt.Errorf("admin overview: %w", err)
	}
	return o, nil
}

// Users implements ports.Admin.
func (a *Admin) Users(ctx context.Context, c ports.AdminCaller, q ports.AdminUserQuery) (ports.Counted[domain.User], error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return ports.Counted[domain.User]{}, err
	}
	if err := checkSearch("q", q.Search); err != nil {
		return ports.Counted[domain.User]{}, err
	}
	if q.Sort, err = checkSort(q.Sort, ports.AdminUserSorts, q.Search); err != nil {
		return ports.Counted[domain.User]{}, err
	}
	q.Page = capped(q.Page)
	q.CountUpTo = searchBound(q.Search, q.Page)
	users, total, err := r.Admin.Users(ctx, q)
	if err != nil {
		return ports.Counted[domain.User]{}, fmt.Errorf("admin users: %w", err)
	}
	return ports.CountedUpTo(users, total, q.CountUpTo), nil
}

// User implements ports.Admin. The posts are read as their author would
// read them, drafts included, through the API's list of posts.
func (a *Admin) User(ctx context.Context, c ports.AdminCaller, id int64) (ports.AdminAccount, error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return ports.AdminAccount{}, err
	}
	var acc ports.AdminAccount
	if acc.User, err = r.Users.ByID(ctx, id); err != nil {
		return ports.AdminAccount{}, fmt.Errorf("admin user %d: %w", id, err)
	}
	if acc.Tokens, err = r.Tokens.ListByUser(ctx, id); err != nil {
		return ports.AdminAccount{}, fmt.Errorf("admin user %d: %w", id, err)
	}
	sessions, err := r.Admin.Sessions(ctx, id)
	if err != nil {
		return ports.AdminAccount{}, fmt.Errorf("admin user %d: %w", id, err)
	}
	acc.Sessions = make([]ports.AdminSession, len(sessions))
	for i, s := range sessions {
		acc.Sessions[i] = ports.AdminSession{Kind: s.Kind, CreatedAt: s.CreatedAt, LastActivity: s.LastActivity}
	}
	f := ports.PostFilter{Viewer: id, AuthorID: id}
	if acc.Posts, acc.PostCount, err = r.PostViews.ListViews(ctx, f, ports.Page{Limit: ports.AdminAccountPosts}); err != nil {
		return ports.AdminAccount{}, fmt.Errorf("admin user %d: %w", id, err)
	}
	return acc, nil
}

// RevokeUserTokens implements ports.Admin.
func (a *Admin) RevokeUserTokens(ctx context.Context, c ports.AdminCaller, userID int64) (int64, error) {
	var n int64
	err := a.act(ctx, c, domain.AuditUserTokensRevoke, domain.SubjectUser, userID, func(r ports.Repos, _ domain.User, now time.Time) ([]domain.Event, error) {
		if _, err := r.Users.ByID(ctx, userID); err != nil {
			return nil, err
		}
		var err error
		if n, err = r.Tokens.DeleteByUser(ctx, userID); err != nil || n == 0 {
			return nil, err
		}
		return []domain.Event{domain.NewRevocationEvent(domain.Revocation{UserID: userID, AllTokens: true}, now)}, nil
	})
	return n, err
}

// DeleteUser implements ports.Admin. The password is checked before the
// transaction, against the account as it is now, so that the slow hash
// holds no lock.
func (a *Admin) DeleteUser(ctx context.Context, c ports.AdminCaller, userID int64, adminPassword string) error {
	admin, err := authorize(ctx, a.store.Repos(), c)
	if err != nil {
		return err
	}
	ok, err := a.hasher.Check(admin.PasswordHash, adminPassword)
	if err != nil {
		return fmt.Errorf("delete user %d: check password: %w", userID, err)
	}
	if !ok {
		return domain.ErrPasswordMismatch
	}
	var files []string
	err = a.act(ctx, c, domain.AuditUserDelete, domain.SubjectUser, userID, func(r ports.Repos, now domain.User, at time.Time) ([]domain.Event, error) {
		if now.PasswordHash != admin.PasswordHash {
			return nil, domain.ErrPasswordMismatch // changed meanwhile
		}
		u, err := r.Users.Lock(ctx, userID)
		if err != nil {
			return nil, err
		}
		files, err = deleteAccount(ctx, r, u, at)
		return nil, err
	})
	if err != nil {
		return err
	}
	removeFiles(ctx, a.files, files...)
	return nil
}

// SendReset implements ports.Admin.
func (a *Admin) SendReset(ctx context.Context, c ports.AdminCaller, userID int64, linkBase string) error {
	err := a.act(ctx, c, domain.AuditUserSendReset, domain.SubjectUser, userID, func(r ports.Repos, _ domain.User, now time.Time) ([]domain.Event, error) {
		u, err := r.Users.ByID(ctx, userID)
		if err != nil {
			return nil, err
		}
		token, data := a.resets.link(u, linkBase)
		return nil, a.resets.keep(ctx, r, u, token, data, now)
	})
	if err != nil {
		return err
	}
	a.resets.outbox.Wake()
	return nil
}

// VerifyUser implements ports.Admin.
func (a *Admin) VerifyUser(ctx context.Context, c ports.AdminCaller, userID int64) error {
	return a.act(ctx, c, domain.AuditUserVerify, domain.SubjectUser, userID, func(r ports.Repos, _ domain.User, now time.Time) ([]domain.Event, error) {
		u, err := r.Users.ByID(ctx, userID)
		if err != nil {
			return nil, err
		}
		_, err = r.Users.MarkEmailVerified(ctx, u.ID, u.Email, now)
		return nil, err
	})
}

// Posts implements ports.Admin.
func (a *Admin) Posts(ctx context.Context, c ports.AdminCaller, q ports.AdminPostQuery) (ports.Counted[ports.PostView], error) {
	var none ports.Counted[ports.PostView]
	r, err := a.reads(ctx, c)
	if err != nil {
		return none, err
	}
	if err := checkSearch("q", q.Search); err != nil {
		return none, err
	}
	if q.Sort, err = checkSort(q.Sort, ports.AdminPostSorts, q.Search); err != nil {
		return none, err
	}
	q.Page = capped(q.Page)
	q.CountUpTo = searchBound(q.Search, q.Page)
	posts, total, err := r.Admin.Posts(ctx, q)
	if err != nil {
		return none, fmt.Errorf("admin posts: %w", err)
	}
	ids, authors := make([]int64, len(posts)), make([]int64, len(posts))
	for i, p := range posts {
		ids[i], authors[i] = p.ID(), p.AuthorID()
	}
	users, err := r.Users.ByIDs(ctx, authors)
	if err != nil {
		return none, fmt.Errorf("admin posts: %w", err)
	}
	tags, err := r.Tags.OfPosts(ctx, ids)
	if err != nil {
		return none, fmt.Errorf("admin posts: %w", err)
	}
	return ports.CountedUpTo(ports.PostViewsOf(posts, domain.AuthorsOf(users), tags), total, q.CountUpTo), nil
}

// Post implements ports.Admin: the post as its author would read it.
func (a *Admin) Post(ctx context.Context, c ports.AdminCaller, id int64) (ports.AdminPost, error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return ports.AdminPost{}, err
	}
	view, err := r.PostViews.View(ctx, id, 0)
	if err != nil {
		return ports.AdminPost{}, fmt.Errorf("admin post %d: %w", id, err)
	}
	author, err := r.Users.ByID(ctx, view.Post.AuthorID())
	if err != nil {
		return ports.AdminPost{}, fmt.Errorf("admin post %d: %w", id, err)
	}
	return ports.AdminPost{PostView: view, AuthorEmail: author.Email}, nil
}

// Webhooks implements ports.Admin.
func (a *Admin) Webhooks(ctx context.Context, c ports.AdminCaller, page ports.Page) ([]ports.AdminWebhook, int, error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return nil, 0, err
	}
	hooks, total, err := r.Admin.Webhooks(ctx, capped(page))
	if err != nil {
		return nil, 0, fmt.Errorf("admin webhooks: %w", err)
	}
	return hooks, total, nil
}

// Deliveries implements ports.Admin.
func (a *Admin) Deliveries(ctx context.Context, c ports.AdminCaller, webhookID int64, page ports.Page) ([]domain.Delivery, int, error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return nil, 0, err
	}
	if _, err := r.Webhooks.Get(ctx, webhookID); err != nil {
		return nil, 0, fmt.Errorf("admin deliveries of webhook %d: %w", webhookID, err)
	}
	ds, total, err := r.Deliveries.ListByWebhook(ctx, webhookID, capped(page))
	if err != nil {
		return nil, 0, fmt.Errorf("admin deliveries of webhook %d: %w", webhookID, err)
	}
	return ds, total, nil
}

// DisableWebhook implements ports.Admin.
func (a *Admin) DisableWebhook(ctx context.Context, c ports.AdminCaller, id int64) error {
	return a.switchWebhook(ctx, c, domain.AuditWebhookDisable, id, (*domain.Webhook).DisableByAdmin)
}

// EnableWebhook implements ports.Admin.
func (a *Admin) EnableWebhook(ctx context.Context, c ports.AdminCaller, id int64) error {
	return a.switchWebhook(ctx, c, domain.AuditWebhookEnable, id, (*domain.Webhook).Enable)
}

// switchWebhook is the admin action that turns webhook id on or off with
// turn, audited as action.
func (a *Admin) switchWebhook(ctx context.Context, c ports.AdminCaller, action domain.AuditAction, id int64, turn func(*domain.Webhook, time.Time)) error {
	return a.act(ctx, c, action, domain.SubjectWebhook, id, func(r ports.Repos, _ domain.User, now time.Time) ([]domain.Event, error) {
		w, err := r.Webhooks.Lock(ctx, id)
		if err != nil {
			return nil, err
		}
		turn(&w, now)
		return nil, r.Webhooks.Update(ctx, w)
	})
}

// RetryDelivery implements ports.Admin.
func (a *Admin) RetryDelivery(ctx context.Context, c ports.AdminCaller, id int64) error {
	return a.act(ctx, c, domain.AuditDeliveryRetry, domain.SubjectDelivery, id, func(r ports.Repos, _ domain.User, now time.Time) ([]domain.Event, error) {
		d, err := r.Deliveries.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		d.Retry(now)
		return nil, r.Deliveries.Update(ctx, d)
	})
}

// Mails implements ports.Admin. Bodies hold live links: they never leave.
func (a *Admin) Mails(ctx context.Context, c ports.AdminCaller, q ports.AdminMailQuery) ([]domain.Mail, int, error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return nil, 0, err
	}
	q.Page = capped(q.Page)
	mails, total, err := r.Admin.Mails(ctx, q)
	if err != nil {
		return nil, 0, fmt.Errorf("admin mails: %w", err)
	}
	for i := range mails {
		mails[i].Text, mails[i].HTML = "", ""
	}
	return mails, total, nil
}

// RetryMail implements ports.Admin.
func (a *Admin) RetryMail(ctx context.Context, c ports.AdminCaller, id int64) error {
	err := a.act(ctx, c, domain.AuditMailRetry, domain.SubjectMail, id, func(r ports.Repos, _ domain.User, now time.Time) ([]domain.Event, error) {
		m, err := r.Mails.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if err := m.Retry(now); err != nil {
			return nil, err
		}
		return nil, r.Mails.Update(ctx, m)
	})
	if err != nil {
		return err
	}
	a.resets.outbox.Wake()
	return nil
}

// Audit implements ports.Admin.
func (a *Admin) Audit(ctx context.Context, c ports.AdminCaller, page ports.Page) (ports.Counted[domain.AuditEntry], error) {
	r, err := a.reads(ctx, c)
	if err != nil {
		return ports.Counted[domain.AuditEntry]{}, err
	}
	page = capped(page)
	bound := listBound(page)
	entries, total, err := r.Admin.Audit(ctx, page, bound)
	if err != nil {
		return ports.Counted[domain.AuditEntry]{}, fmt.Errorf("admin audit: %w", err)
	}
	return ports.CountedUpTo(entries, total, bound), nil
}

// ExportUsers implements ports.Admin: keyset batches by id, so memory
// holds one batch whatever the number of accounts. Rights are checked
// once, before the first batch.
func (a *Admin) ExportUsers(ctx context.Context, c ports.AdminCaller, fn func(domain.User) error) error {
	r, err := a.reads(ctx, c)
	if err != nil {
		return err
	}
	for after := int64(0); ; {
		batch, err := r.Admin.UsersAfter(ctx, after, ports.AdminExportBatch)
		if err != nil {
			return fmt.Errorf("export users: %w", err)
		}
		for _, u := range batch {
			if err := fn(u); err != nil {
				return err
			}
		}
		if len(batch) < ports.AdminExportBatch {
			return nil
		}
		after = batch[len(batch)-1].ID
	}
}

// ExportPosts implements ports.Admin, as ExportUsers.
func (a *Admin) ExportPosts(ctx context.Context, c ports.AdminCaller, fn func(domain.Post) error) error {
	r, err := a.reads(ctx, c)
	if err != nil {
		return err
	}
	for after := int64(0); ; {
		batch, err := r.Admin.PostsAfter(ctx, after, ports.AdminExportBatch)
		if err != nil {
			return fmt.Errorf("export posts: %w", err)
		}
		for _, p := range batch {
			if err := fn(p); err != nil {
				return err
			}
		}
		if len(batch) < ports.AdminExportBatch {
			return nil
		}
		after = batch[len(batch)-1].ID()
	}
}

// AdminRights implements ports.AdminRights, for the command line.
type AdminRights struct {
	store  ports.Store
	hasher ports.PasswordHasher
	clock  ports.Clock
}

var _ ports.AdminRights = (*AdminRights)(nil)

// NewAdminRights returns the command line's use cases that make admins.
func NewAdminRights(store ports.Store, hasher ports.PasswordHasher, clock ports.Clock) *AdminRights {
	return &AdminRights{store: store, hasher: hasher, clock: clock}
}

func (a *AdminRights) set(ctx context.Context, email string, admin bool) (domain.User, error) {
	var u domain.User
	err := a.store.InTx(ctx, func(r ports.Repos) error {
		var err error
		if u, err = r.Users.ByEmail(ctx, email); err != nil {
			return err
		}
		if err := r.Admin.SetAdmin(ctx, u.ID, admin); err != nil {
			return err
		}
		u.IsAdmin = admin
		return nil
	})
	return u, err
}

// Grant implements ports.AdminRights.
func (a *AdminRights) Grant(ctx context.Context, email string) (domain.User, error) {
	u, err := a.set(ctx, email, true)
	if err != nil {
		return domain.User{}, fmt.Errorf("grant admin rights: %w", err)
	}
	return u, nil
}

// Revoke implements ports.AdminRights. The next console request of the
// account is refused: every admin use case reads the rights again.
func (a *AdminRights) Revoke(ctx context.Context, email string) (domain.User, error) {
	u, err := a.set(ctx, email, false)
	if err != nil {
		return domain.User{}, fmt.Errorf("revoke admin rights: %w", err)
	}
	return u, nil
}

// List implements ports.AdminRights.
func (a *AdminRights) List(ctx context.Context) ([]domain.User, error) {
	admins, err := a.store.Repos().Admin.Admins(ctx)
	if err != nil {
		return nil, fmt.Errorf("list admins: %w", err)
	}
	return admins, nil
}
