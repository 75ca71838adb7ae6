package sqlrepo

import (
	"context"
	"fmt"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// AdminCounts are the overview's counts as the store's AdminCounts
// statement reads them: each store's generated row converts to it, so a
// count added to the overview is mapped here once.
type AdminCounts struct {
	Users             int64
	Published         int64
	Drafts            int64
	Comments          int64
	Webhooks          int64
	WebhooksDisabled  int64
	DeliveriesPending int64
	DeliveriesFailed  int64
	MailsPending      int64
	MailsFailed       int64
	EventBacklog      int64
}

// AdminQueries are a store's statements for the admin's reads and writes.
// A page comes as ports.Page, which each store turns into its own LIMIT and
// OFFSET. Each list's choice of statement by order or status is made here;
// the searches and the lock of the admins are the store's own, whole: each
// is written for its engine, and so are the admin comments' statements,
// which AdminComments runs.
type AdminQueries interface {
	AdminCounts(ctx context.Context) (AdminCounts, error)
	// RecentDeliveryFailures and RecentMailFailures read the newest limit
	// failed deliveries and mails.
	RecentDeliveryFailures(ctx context.Context, limit int) ([]ports.AdminFailure, error)
	RecentMailFailures(ctx context.Context, limit int) ([]ports.AdminFailure, error)
	// ListUsers, ListUsersOldest and ListUsersByEmail read a page of the
	// users, the newest first, the oldest first and by e-mail.
	ListUsers(ctx context.Context, page ports.Page) ([]domain.User, error)
	ListUsersOldest(ctx context.Context, page ports.Page) ([]domain.User, error)
	ListUsersByEmail(ctx context.Context, page ports.Page) ([]domain.User, error)
	CountUsers(ctx context.Context) (int64, error)
	SearchUsers(ctx context.Context, q ports.AdminUserQuery) ([]domain.User, int, error)
	UsersAfter(ctx context.Context, after int64, limit int) ([]domain.User, error)
	// ListPosts and ListPostsOldest read a page of every post, the newest
	// first and the oldest first; ListPostsByStatus and
	// ListPostsByStatusOldest the same of the posts of status.
	ListPosts(ctx context.Context, page ports.Page) ([]domain.Post, error)
	ListPostsOldest(ctx context.Context, page ports.Page) ([]domain.Post, error)
	ListPostsByStatus(ctx context.Context, status domain.PostStatus, page ports.Page) ([]domain.Post, error)
	ListPostsByStatusOldest(ctx context.Context, status domain.PostStatus, page ports.Page) ([]domain.Post, error)
	// PostTotals reads the trigger-kept counts of published posts and
	// drafts.
	PostTotals(ctx context.Context) (published, drafts int64, err error)
	SearchPosts(ctx context.Context, q ports.AdminPostQuery) ([]domain.Post, int, error)
	PostsAfter(ctx context.Context, after int64, limit int) ([]domain.Post, error)
	Comments(ctx context.Context, q ports.AdminCommentQuery, countTo int) ([]ports.AdminComment, int, error)
	ListWebhooks(ctx context.Context, page ports.Page) ([]Stored[ports.AdminWebhook], error)
	CountWebhooks(ctx context.Context) (int64, error)
	// ListMails and CountMails read every mail, ListMailsByStatus and
	// CountMailsByStatus the mails of status.
	ListMails(ctx context.Context, page ports.Page) ([]domain.Mail, error)
	ListMailsByStatus(ctx context.Context, status domain.MailStatus, page ports.Page) ([]domain.Mail, error)
	CountMails(ctx context.Context) (int64, error)
	CountMailsByStatus(ctx context.Context, status domain.MailStatus) (int64, error)
	UserSessions(ctx context.Context, userID int64) ([]domain.Session, error)
	SetUserAdmin(ctx context.Context, userID int64, isAdmin bool) (int64, error)
	ListAdmins(ctx context.Context) ([]domain.User, error)
	LockAdmins(ctx context.Context) error
	AppendAudit(ctx context.Context, e domain.AuditEntry) (int64, error)
	ListAudit(ctx context.Context, page ports.Page) ([]domain.AuditEntry, error)
	// CountAudit counts the audit log's entries up to limit.
	CountAudit(ctx context.Context, limit int64) (int64, error)
}

// Admin is ports.AdminRepository.
type Admin struct {
	Q AdminQueries
	B Border
}

var _ ports.AdminRepository = Admin{}

func (r Admin) Counts(ctx context.Context) (ports.AdminOverview, error) {
	row, err := r.Q.AdminCounts(ctx)
	if err != nil {
		return ports.AdminOverview{}, r.B.Err("count for the overview", err)
	}
	return ports.AdminOverview{
		Users:             int(row.Users),
		Published:         int(row.Published),
		Drafts:            int(row.Drafts),
		Comments:          int(row.Comments),
		Webhooks:          int(row.Webhooks),
		WebhooksDisabled:  int(row.WebhooksDisabled),
		EventBacklog:      row.EventBacklog,
		DeliveriesPending: int(row.DeliveriesPending),
		DeliveriesFailed:  int(row.DeliveriesFailed),
		MailsPending:      int(row.MailsPending),
		MailsFailed:       int(row.MailsFailed),
	}, nil
}

func (r Admin) RecentFailures(ctx context.Context, limit int) ([]ports.AdminFailure, error) {
	ds, err := r.Q.RecentDeliveryFailures(ctx, max(limit, 0))
	if err != nil {
		return nil, r.B.Err("read recent delivery failures", err)
	}
	ms, err := r.Q.RecentMailFailures(ctx, max(limit, 0))
	if err != nil {
		return nil, r.B.Err("read recent mail failures", err)
	}
	return ports.NewestFailures(append(ds, ms...), limit), nil
}

func (r Admin) Users(ctx context.Context, q ports.AdminUserQuery) ([]domain.User, int, error) {
	if q.Search != "" {
		return r.Q.SearchUsers(ctx, q)
	}
	list := r.Q.ListUsers
	switch q.Sort {
	case ports.AdminSortOldest:
		list = r.Q.ListUsersOldest
	case ports.AdminSortEmail:
		list = r.Q.ListUsersByEmail
	}
	rows, err := list(ctx, q.Page)
	var total int64
	if err == nil {
		total, err = r.Q.CountUsers(ctx)
	}
	if err != nil {
		return nil, 0, r.B.Err("list users", err)
	}
	return rows, ports.BoundedTotal(int(total), q.CountUpTo), nil
}

func (r Admin) UsersAfter(ctx context.Context, after int64, limit int) ([]domain.User, error) {
	rows, err := r.Q.UsersAfter(ctx, after, max(limit, 0))
	if err != nil {
		return nil, r.B.Err("export users", err)
	}
	return rows, nil
}

func (r Admin) Posts(ctx context.Context, q ports.AdminPostQuery) ([]domain.Post, int, error) {
	if q.Search != "" {
		return r.Q.SearchPosts(ctx, q)
	}
	rows, err := r.listPosts(ctx, q)
	var total int64
	if err == nil {
		// The totals of the unsearched lists are the trigger-kept counts.
		var published, drafts int64
		if published, drafts, err = r.Q.PostTotals(ctx); err == nil {
			switch q.Status {
			case "":
				total = published + drafts
			case domain.StatusPublished:
				total = published
			case domain.StatusDraft:
				total = drafts
			}
		}
	}
	if err != nil {
		return nil, 0, r.B.Err("list posts", err)
	}
	return rows, ports.BoundedTotal(int(total), q.CountUpTo), nil
}

// listPosts reads the page of q's posts with the statement of its status
// and order.
func (r Admin) listPosts(ctx context.Context, q ports.AdminPostQuery) ([]domain.Post, error) {
	oldest := q.Sort == ports.AdminSortOldest
	switch {
	case q.Status == "" && oldest:
		return r.Q.ListPostsOldest(ctx, q.Page)
	case q.Status == "":
		return r.Q.ListPosts(ctx, q.Page)
	case oldest:
		return r.Q.ListPostsByStatusOldest(ctx, q.Status, q.Page)
	default:
		return r.Q.ListPostsByStatus(ctx, q.Status, q.Page)
	}
}

func (r Admin) PostsAfter(ctx context.Context, after int64, limit int) ([]domain.Post, error) {
	rows, err := r.Q.PostsAfter(ctx, after, max(limit, 0))
	if err != nil {
		return nil, r.B.Err("export posts", err)
	}
	return rows, nil
}

// Comments is the store's AdminComments.List over its statements (its
// admincomments.go).
func (r Admin) Comments(ctx context.Context, q ports.AdminCommentQuery, countTo int) ([]ports.AdminComment, int, error) {
	return r.Q.Comments(ctx, q, countTo)
}

func (r Admin) Webhooks(ctx context.Context, page ports.Page) ([]ports.AdminWebhook, int, error) {
	rows, err := r.Q.ListWebhooks(ctx, page)
	if err != nil {
		return nil, 0, r.B.Err("list webhooks", err)
	}
	total, err := r.Q.CountWebhooks(ctx)
	if err != nil {
		return nil, 0, r.B.Err("count webhooks", err)
	}
	out := make([]ports.AdminWebhook, len(rows))
	for i, row := range rows {
		w, err := WebhookOf(Stored[domain.Webhook]{Value: row.Value.Webhook, JSON: row.JSON})
		if err != nil {
			return nil, 0, err
		}
		out[i] = ports.AdminWebhook{Webhook: w, OwnerEmail: row.Value.OwnerEmail}
	}
	return out, int(total), nil
}

func (r Admin) Mails(ctx context.Context, q ports.AdminMailQuery) ([]domain.Mail, int, error) {
	var (
		rows  []domain.Mail
		total int64
		err   error
	)
	if q.Status == "" {
		if rows, err = r.Q.ListMails(ctx, q.Page); err == nil {
			total, err = r.Q.CountMails(ctx)
		}
	} else {
		if rows, err = r.Q.ListMailsByStatus(ctx, q.Status, q.Page); err == nil {
			total, err = r.Q.CountMailsByStatus(ctx, q.Status)
		}
	}
	if err != nil {
		return nil, 0, r.B.Err("list mails", err)
	}
	return rows, int(total), nil
}

func (r Admin) Sessions(ctx context.Context, userID int64) ([]domain.Session, error) {
	rows, err := r.Q.UserSessions(ctx, userID)
	if err != nil {
		return nil, r.B.Err(fmt.Sprintf("list sessions of user %d", userID), err)
	}
	return rows, nil
}

func (r Admin) SetAdmin(ctx context.Context, userID int64, isAdmin bool) error {
	n, err := r.Q.SetUserAdmin(ctx, userID, isAdmin)
	return r.B.Affected(fmt.Sprintf("set admin rights of user %d", userID), n, err)
}

func (r Admin) Admins(ctx context.Context) ([]domain.User, error) {
	rows, err := r.Q.ListAdmins(ctx)
	if err != nil {
		return nil, r.B.Err("list admins", err)
	}
	return rows, nil
}

// LockAdmins is the store's own: each engine serialises the making of
// admins its way.
func (r Admin) LockAdmins(ctx context.Context) error {
	return r.Q.LockAdmins(ctx)
}

func (r Admin) AppendAudit(ctx context.Context, e *domain.AuditEntry) error {
	id, err := r.Q.AppendAudit(ctx, *e)
	if err != nil {
		return r.B.Err("append to the audit log", err)
	}
	e.ID = id
	return nil
}

func (r Admin) Audit(ctx context.Context, page ports.Page, countTo int) ([]domain.AuditEntry, int, error) {
	rows, err := r.Q.ListAudit(ctx, page)
	if err != nil {
		return nil, 0, r.B.Err("read the audit log", err)
	}
	total, err := r.Q.CountAudit(ctx, int64(max(countTo, 0))+1)
	if err != nil {
		return nil, 0, r.B.Err("count the audit log", err)
	}
	return rows, int(total), nil
}
