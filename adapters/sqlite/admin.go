package sqlite

import (
	"context"
	"fmt"

	"database/sql"

	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// admin implements ports.AdminRepository.
type admin struct{ c conns }

var _ ports.AdminRepository = admin{}

// pageOf turns a ports.Page into LIMIT and OFFSET; no limit (-1) reads all.
func pageOf(p ports.Page) (lim, off int64) {
	lim = -1
	if p.Limit > 0 {
		lim = int64(p.Limit)
	}
	return lim, int64(max(p.Offset, 0))
}

func (r admin) Counts(ctx context.Context) (ports.AdminOverview, error) {
	row, err := r.c.read.AdminCounts(ctx)
	if err != nil {
		return ports.AdminOverview{}, storeError("count for the overview", err)
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

func (r admin) RecentFailures(ctx context.Context, limit int) ([]ports.AdminFailure, error) {
	lim := int64(max(limit, 0))
	ds, err := r.c.read.AdminRecentDeliveryFailures(ctx, lim)
	if err != nil {
		return nil, storeError("read recent delivery failures", err)
	}
	ms, err := r.c.read.AdminRecentMailFailures(ctx, lim)
	if err != nil {
		return nil, storeError("read recent mail failures", err)
	}
	out := make([]ports.AdminFailure, 0, len(ds)+len(ms))
	for _, d := range ds {
		out = append(out, ports.AdminFailure{Subject: domain.SubjectDelivery, ID: d.ID, Target: d.Url, Error: d.LastError, Attempts: int(d.Attempts), At: timeOf(d.UpdatedAt)})
	}
	for _, m := range ms {
		out = append(out, ports.AdminFailure{Subject: domain.SubjectMail, ID: m.ID, Target: m.Recipient, Error: m.LastError, Attempts: int(m.Attempts), At: timeOf(m.UpdatedAt)})
	}
	return ports.NewestFailures(out, limit), nil
}

func (r admin) Users(ctx context.Context, q ports.AdminUserQuery) ([]domain.User, int, error) {
	lim, off := pageOf(q.Page)
	var (
		rows  []db.User
		total int64
		err   error
	)
	if q.Search != "" {
		return r.searchUsers(ctx, q)
	}
	switch q.Sort {
	case ports.AdminSortOldest:
		rows, err = r.c.read.AdminListUsersOldest(ctx, db.AdminListUsersOldestParams{Lim: lim, Off: off})
	case ports.AdminSortEmail:
		rows, err = r.c.read.AdminListUsersByEmail(ctx, db.AdminListUsersByEmailParams{Lim: lim, Off: off})
	default:
		rows, err = r.c.read.AdminListUsers(ctx, db.AdminListUsersParams{Lim: lim, Off: off})
	}
	if err == nil {
		total, err = r.c.read.AdminCountUsers(ctx)
	}
	if err != nil {
		return nil, 0, storeError("list users", err)
	}
	return usersOf(rows), ports.BoundedTotal(int(total), q.CountUpTo), nil
}

func usersOf(rows []db.User) []domain.User {
	out := make([]domain.User, len(rows))
	for i, row := range rows {
		out[i] = userOf(row)
	}
	return out
}

func (r admin) UsersAfter(ctx context.Context, after int64, limit int) ([]domain.User, error) {
	rows, err := r.c.read.AdminUsersAfter(ctx, db.AdminUsersAfterParams{After: after, Lim: int64(max(limit, 0))})
	if err != nil {
		return nil, storeError("export users", err)
	}
	return usersOf(rows), nil
}

func (r admin) Posts(ctx context.Context, q ports.AdminPostQuery) ([]domain.Post, int, error) {
	lim, off := pageOf(q.Page)
	status := string(q.Status)
	var (
		rows  []db.Post
		total int64
		err   error
	)
	if q.Search != "" {
		return r.searchPosts(ctx, q)
	}
	oldest := q.Sort == ports.AdminSortOldest
	switch {
	case status == "" && oldest:
		rows, err = r.c.read.AdminListPostsOldest(ctx, db.AdminListPostsOldestParams{Lim: lim, Off: off})
	case status == "":
		rows, err = r.c.read.AdminListPosts(ctx, db.AdminListPostsParams{Lim: lim, Off: off})
	case oldest:
		rows, err = r.c.read.AdminListPostsByStatusOldest(ctx, db.AdminListPostsByStatusOldestParams{Status: status, Lim: lim, Off: off})
	default:
		rows, err = r.c.read.AdminListPostsByStatus(ctx, db.AdminListPostsByStatusParams{Status: status, Lim: lim, Off: off})
	}
	if err == nil {
		// The totals of the unsearched lists are the trigger-kept counts.
		var t db.AdminPostTotalsRow
		if t, err = r.c.read.AdminPostTotals(ctx); err == nil {
			switch q.Status {
			case "":
				total = t.Published + t.Drafts
			case domain.StatusPublished:
				total = t.Published
			case domain.StatusDraft:
				total = t.Drafts
			}
		}
	}
	if err != nil {
		return nil, 0, storeError("list posts", err)
	}
	out := make([]domain.Post, len(rows))
	for i, row := range rows {
		out[i] = postOf(row)
	}
	return out, ports.BoundedTotal(int(total), q.CountUpTo), nil
}

func (r admin) PostsAfter(ctx context.Context, after int64, limit int) ([]domain.Post, error) {
	rows, err := r.c.read.AdminPostsAfter(ctx, db.AdminPostsAfterParams{After: after, Lim: int64(max(limit, 0))})
	if err != nil {
		return nil, storeError("export posts", err)
	}
	out := make([]domain.Post, len(rows))
	for i, row := range rows {
		out[i] = postOf(row)
	}
	return out, nil
}

func (r admin) Webhooks(ctx context.Context, page ports.Page) ([]ports.AdminWebhook, int, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListWebhooks(ctx, db.AdminListWebhooksParams{Lim: lim, Off: off})
	if err != nil {
		return nil, 0, storeError("list webhooks", err)
	}
	total, err := r.c.read.AdminCountWebhooks(ctx)
	if err != nil {
		return nil, 0, storeError("count webhooks", err)
	}
	out := make([]ports.AdminWebhook, len(rows))
	for i, row := range rows {
		w, err := webhookOf(row.Webhook)
		if err != nil {
			return nil, 0, err
		}
		out[i] = ports.AdminWebhook{Webhook: w, OwnerEmail: row.OwnerEmail}
	}
	return out, int(total), nil
}

func (r admin) Mails(ctx context.Context, q ports.AdminMailQuery) ([]domain.Mail, int, error) {
	lim, off := pageOf(q.Page)
	var (
		rows  []db.MailOutbox
		total int64
		err   error
	)
	if q.Status == "" {
		if rows, err = r.c.read.AdminListMails(ctx, db.AdminListMailsParams{Lim: lim, Off: off}); err == nil {
			total, err = r.c.read.AdminCountMails(ctx)
		}
	} else {
		status := string(q.Status)
		if rows, err = r.c.read.AdminListMailsByStatus(ctx, db.AdminListMailsByStatusParams{Status: status, Lim: lim, Off: off}); err == nil {
			total, err = r.c.read.AdminCountMailsByStatus(ctx, status)
		}
	}
	if err != nil {
		return nil, 0, storeError("list mails", err)
	}
	out := make([]domain.Mail, len(rows))
	for i, row := range rows {
		out[i] = mailOf(row)
	}
	return out, int(total), nil
}

func (r admin) Sessions(ctx context.Context, userID int64) ([]domain.Session, error) {
	rows, err := r.c.read.AdminUserSessions(ctx, sql.NullInt64{Int64: userID, Valid: true})
	if err != nil {
		return nil, storeError(fmt.Sprintf("list sessions of user %d", userID), err)
	}
	out := make([]domain.Session, len(rows))
	for i, row := range rows {
		out[i] = sessionOf(row)
	}
	return out, nil
}

func (r admin) SetAdmin(ctx context.Context, userID int64, isAdmin bool) error {
	op := fmt.Sprintf("set admin rights of user %d", userID)
	n, err := r.c.write.SetUserAdmin(ctx, db.SetUserAdminParams{IsAdmin: boolInt(isAdmin), ID: userID})
	if err != nil {
		return storeError(op, err)
	}
	if n == 0 {
		return notFound(op)
	}
	return nil
}

func (r admin) Admins(ctx context.Context) ([]domain.User, error) {
	rows, err := r.c.read.ListAdmins(ctx)
	if err != nil {
		return nil, storeError("list admins", err)
	}
	return usersOf(rows), nil
}

// LockAdmins implements ports.AdminRepository: every SQLite transaction
// begins IMMEDIATE, holding the database's one write lock until it ends,
// so transactions that make admins already run one after the other.
func (admin) LockAdmins(context.Context) error { return nil }

func (r admin) AppendAudit(ctx context.Context, e *domain.AuditEntry) error {
	id, err := r.c.write.AppendAudit(ctx, db.AppendAuditParams{
		At: dbTime(e.At), AdminID: e.AdminID, AdminEmail: e.AdminEmail, Action: string(e.Action),
		SubjectType: e.SubjectType, SubjectID: e.SubjectID, Address: e.Address,
	})
	if err != nil {
		return storeError("append to the audit log", err)
	}
	e.ID = id
	return nil
}

func (r admin) Audit(ctx context.Context, page ports.Page, countTo int) ([]domain.AuditEntry, int, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.ListAudit(ctx, db.ListAuditParams{Lim: lim, Off: off})
	if err != nil {
		return nil, 0, storeError("read the audit log", err)
	}
	total, err := r.c.read.CountAudit(ctx, int64(max(countTo, 0))+1)
	if err != nil {
		return nil, 0, storeError("count the audit log", err)
	}
	out := make([]domain.AuditEntry, len(rows))
	for i, row := range rows {
		out[i] = domain.AuditEntry{
			ID: row.ID, At: timeOf(row.At), AdminID: row.AdminID, AdminEmail: row.AdminEmail,
			Action: domain.AuditAction(row.Action), SubjectType: row.SubjectType, SubjectID: row.SubjectID, Address: row.Address,
		}
	}
	return out, int(total), nil
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
