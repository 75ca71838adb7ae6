package sqlite

import (
	"context"

	"database/sql"

	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/sqlite/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// admin is sqlrepo.AdminQueries: the statements of sqlrepo.Admin, the
// searches (adminsearch.go) and the admin comments (admincomments.go).
type admin struct{ c conns }

var _ sqlrepo.AdminQueries = admin{}

// pageOf turns a ports.Page into LIMIT and OFFSET; no limit (-1) reads all.
func pageOf(p ports.Page) (lim, off int64) {
	lim = -1
	if p.Limit > 0 {
		lim = int64(p.Limit)
	}
	return lim, int64(max(p.Offset, 0))
}

func (r admin) AdminCounts(ctx context.Context) (sqlrepo.AdminCounts, error) {
	row, err := r.c.read.AdminCounts(ctx)
	return sqlrepo.AdminCounts(row), err
}

func (r admin) RecentDeliveryFailures(ctx context.Context, limit int) ([]ports.AdminFailure, error) {
	rows, err := r.c.read.AdminRecentDeliveryFailures(ctx, int64(limit))
	return sqlrepo.Rows(rows, func(d db.AdminRecentDeliveryFailuresRow) ports.AdminFailure {
		return ports.AdminFailure{Subject: domain.SubjectDelivery, ID: d.ID, Target: d.Url, Error: d.LastError, Attempts: int(d.Attempts), At: timeOf(d.UpdatedAt)}
	}), err
}

func (r admin) RecentMailFailures(ctx context.Context, limit int) ([]ports.AdminFailure, error) {
	rows, err := r.c.read.AdminRecentMailFailures(ctx, int64(limit))
	return sqlrepo.Rows(rows, func(m db.AdminRecentMailFailuresRow) ports.AdminFailure {
		return ports.AdminFailure{Subject: domain.SubjectMail, ID: m.ID, Target: m.Recipient, Error: m.LastError, Attempts: int(m.Attempts), At: timeOf(m.UpdatedAt)}
	}), err
}

func (r admin) ListUsers(ctx context.Context, page ports.Page) ([]domain.User, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListUsers(ctx, db.AdminListUsersParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, userOf), err
}

func (r admin) ListUsersOldest(ctx context.Context, page ports.Page) ([]domain.User, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListUsersOldest(ctx, db.AdminListUsersOldestParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, userOf), err
}

func (r admin) ListUsersByEmail(ctx context.Context, page ports.Page) ([]domain.User, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListUsersByEmail(ctx, db.AdminListUsersByEmailParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, userOf), err
}

func (r admin) CountUsers(ctx context.Context) (int64, error) {
	return r.c.read.AdminCountUsers(ctx)
}

func (r admin) UsersAfter(ctx context.Context, after int64, limit int) ([]domain.User, error) {
	rows, err := r.c.read.AdminUsersAfter(ctx, db.AdminUsersAfterParams{After: after, Lim: int64(limit)})
	return sqlrepo.Rows(rows, userOf), err
}

func (r admin) ListPosts(ctx context.Context, page ports.Page) ([]domain.Post, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListPosts(ctx, db.AdminListPostsParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, postOf), err
}

func (r admin) ListPostsOldest(ctx context.Context, page ports.Page) ([]domain.Post, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListPostsOldest(ctx, db.AdminListPostsOldestParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, postOf), err
}

func (r admin) ListPostsByStatus(ctx context.Context, status domain.PostStatus, page ports.Page) ([]domain.Post, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListPostsByStatus(ctx, db.AdminListPostsByStatusParams{Status: string(status), Lim: lim, Off: off})
	return sqlrepo.Rows(rows, postOf), err
}

func (r admin) ListPostsByStatusOldest(ctx context.Context, status domain.PostStatus, page ports.Page) ([]domain.Post, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListPostsByStatusOldest(ctx, db.AdminListPostsByStatusOldestParams{Status: string(status), Lim: lim, Off: off})
	return sqlrepo.Rows(rows, postOf), err
}

func (r admin) PostTotals(ctx context.Context) (published, drafts int64, err error) {
	t, err := r.c.read.AdminPostTotals(ctx)
	return t.Published, t.Drafts, err
}

func (r admin) PostsAfter(ctx context.Context, after int64, limit int) ([]domain.Post, error) {
	rows, err := r.c.read.AdminPostsAfter(ctx, db.AdminPostsAfterParams{After: after, Lim: int64(limit)})
	return sqlrepo.Rows(rows, postOf), err
}

func (r admin) ListWebhooks(ctx context.Context, page ports.Page) ([]sqlrepo.Stored[ports.AdminWebhook], error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListWebhooks(ctx, db.AdminListWebhooksParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, func(row db.AdminListWebhooksRow) sqlrepo.Stored[ports.AdminWebhook] {
		w := storedWebhook(row.Webhook)
		return sqlrepo.Stored[ports.AdminWebhook]{JSON: w.JSON, Value: ports.AdminWebhook{Webhook: w.Value, OwnerEmail: row.OwnerEmail}}
	}), err
}

func (r admin) CountWebhooks(ctx context.Context) (int64, error) {
	return r.c.read.AdminCountWebhooks(ctx)
}

func (r admin) ListMails(ctx context.Context, page ports.Page) ([]domain.Mail, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListMails(ctx, db.AdminListMailsParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, mailOf), err
}

func (r admin) ListMailsByStatus(ctx context.Context, status domain.MailStatus, page ports.Page) ([]domain.Mail, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.AdminListMailsByStatus(ctx, db.AdminListMailsByStatusParams{Status: string(status), Lim: lim, Off: off})
	return sqlrepo.Rows(rows, mailOf), err
}

func (r admin) CountMails(ctx context.Context) (int64, error) {
	return r.c.read.AdminCountMails(ctx)
}

func (r admin) CountMailsByStatus(ctx context.Context, status domain.MailStatus) (int64, error) {
	return r.c.read.AdminCountMailsByStatus(ctx, string(status))
}

func (r admin) UserSessions(ctx context.Context, userID int64) ([]domain.Session, error) {
	rows, err := r.c.read.AdminUserSessions(ctx, sql.NullInt64{Int64: userID, Valid: true})
	return sqlrepo.Rows(rows, sessionOf), err
}

func (r admin) SetUserAdmin(ctx context.Context, userID int64, isAdmin bool) (int64, error) {
	return r.c.write.SetUserAdmin(ctx, db.SetUserAdminParams{IsAdmin: dbBool(isAdmin), ID: userID})
}

func (r admin) ListAdmins(ctx context.Context) ([]domain.User, error) {
	rows, err := r.c.read.ListAdmins(ctx)
	return sqlrepo.Rows(rows, userOf), err
}

// LockAdmins: every SQLite transaction begins IMMEDIATE, holding the
// database's one write lock until it ends, so transactions that make
// admins already run one after the other.
func (admin) LockAdmins(context.Context) error { return nil }

func (r admin) AppendAudit(ctx context.Context, e domain.AuditEntry) (int64, error) {
	return r.c.write.AppendAudit(ctx, db.AppendAuditParams(sqlrepo.NewAuditOf(values, e)))
}

func (r admin) ListAudit(ctx context.Context, page ports.Page) ([]domain.AuditEntry, error) {
	lim, off := pageOf(page)
	rows, err := r.c.read.ListAudit(ctx, db.ListAuditParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, func(row db.AdminAudit) domain.AuditEntry { return sqlrepo.AuditOf(values, row) }), err
}

func (r admin) CountAudit(ctx context.Context, limit int64) (int64, error) {
	return r.c.read.CountAudit(ctx, limit)
}
