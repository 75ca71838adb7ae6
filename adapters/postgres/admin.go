package postgres

import (
	"context"
	"math"
	"strings"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/inkwell/inkwell/adapters/internal/adminsearch"
	"github.com/inkwell/inkwell/adapters/internal/sqlrepo"
	"github.com/inkwell/inkwell/adapters/postgres/internal/db"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// admin is sqlrepo.AdminQueries: the statements of sqlrepo.Admin, the
// searches (adminsearch.go) and the admin comments (admincomments.go).
// conn runs the searches' statements that sqlc cannot write.
type admin struct {
	q    *db.Queries
	conn db.DBTX
}

var _ sqlrepo.AdminQueries = admin{}

// pageOf turns a ports.Page into LIMIT and OFFSET; no limit reads all.
func pageOf(p ports.Page) (lim, off int32) {
	lim = math.MaxInt32
	if p.Limit > 0 && p.Limit < math.MaxInt32 {
		lim = int32(p.Limit)
	}
	return lim, int32(min(max(p.Offset, 0), math.MaxInt32))
}

// likePattern is a LIKE pattern matching text that contains s lower-cased,
// with LIKE's wildcards and its escape taken literally.
func likePattern(s string) string { return containsPattern(strings.ToLower(s)) }

// asciiLikePattern is likePattern with only the ASCII letters of s
// lower-cased.
func asciiLikePattern(s string) string { return containsPattern(adminsearch.LowerASCII(s)) }

// containsPattern is a LIKE pattern matching text that contains s, with
// LIKE's wildcards and its escape taken literally.
func containsPattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

func (r admin) AdminCounts(ctx context.Context) (sqlrepo.AdminCounts, error) {
	row, err := r.q.AdminCounts(ctx)
	return sqlrepo.AdminCounts(row), err
}

func (r admin) RecentDeliveryFailures(ctx context.Context, limit int) ([]ports.AdminFailure, error) {
	rows, err := r.q.AdminRecentDeliveryFailures(ctx, int32(min(limit, math.MaxInt32)))
	return sqlrepo.Rows(rows, func(d db.AdminRecentDeliveryFailuresRow) ports.AdminFailure {
		return ports.AdminFailure{Subject: domain.SubjectDelivery, ID: d.ID, Target: d.Url, Error: d.LastError, Attempts: int(d.Attempts), At: timeOf(d.UpdatedAt)}
	}), err
}

func (r admin) RecentMailFailures(ctx context.Context, limit int) ([]ports.AdminFailure, error) {
	rows, err := r.q.AdminRecentMailFailures(ctx, int32(min(limit, math.MaxInt32)))
	return sqlrepo.Rows(rows, func(m db.AdminRecentMailFailuresRow) ports.AdminFailure {
		return ports.AdminFailure{Subject: domain.SubjectMail, ID: m.ID, Target: m.Recipient, Error: m.LastError, Attempts: int(m.Attempts), At: timeOf(m.UpdatedAt)}
	}), err
}

func (r admin) ListUsers(ctx context.Context, page ports.Page) ([]domain.User, error) {
	lim, off := pageOf(page)
	rows, err := r.q.AdminListUsers(ctx, db.AdminListUsersParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, userOf), err
}

func (r admin) ListUsersOldest(ctx context.Context, page ports.Page) ([]domain.User, error) {
	lim, off := pageOf(page)
	rows, err := r.q.AdminListUsersOldest(ctx, db.AdminListUsersOldestParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, userOf), err
}

func (r admin) ListUsersByEmail(ctx context.Context, page ports.Page) ([]domain.User, error) {
	lim, off := pageOf(page)
	rows, err := r.q.AdminListUsersByEmail(ctx, db.AdminListUsersByEmailParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, userOf), err
}

func (r admin) CountUsers(ctx context.Context) (int64, error) {
	return r.q.AdminCountUsers(ctx)
}

func (r admin) UsersAfter(ctx context.Context, after int64, limit int) ([]domain.User, error) {
	rows, err := r.q.AdminUsersAfter(ctx, db.AdminUsersAfterParams{After: after, Lim: int32(min(limit, math.MaxInt32))})
	return sqlrepo.Rows(rows, userOf), err
}

func (r admin) ListPosts(ctx context.Context, page ports.Page) ([]domain.Post, error) {
	lim, off := pageOf(page)
	rows, err := r.q.AdminListPosts(ctx, db.AdminListPostsParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, postOf), err
}

func (r admin) ListPostsOldest(ctx context.Context, page ports.Page) ([]domain.Post, error) {
	lim, off := pageOf(page)
	rows, err := r.q.AdminListPostsOldest(ctx, db.AdminListPostsOldestParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, postOf), err
}

func (r admin) ListPostsByStatus(ctx context.Context, status domain.PostStatus, page ports.Page) ([]domain.Post, error) {
	lim, off := pageOf(page)
	rows, err := r.q.AdminListPostsByStatus(ctx, db.AdminListPostsByStatusParams{Status: string(status), Lim: lim, Off: off})
	return sqlrepo.Rows(rows, postOf), err
}

func (r admin) ListPostsByStatusOldest(ctx context.Context, status domain.PostStatus, page ports.Page) ([]domain.Post, error) {
	lim, off := pageOf(page)
	rows, err := r.q.AdminListPostsByStatusOldest(ctx, db.AdminListPostsByStatusOldestParams{Status: string(status), Lim: lim, Off: off})
	return sqlrepo.Rows(rows, postOf), err
}

func (r admin) PostTotals(ctx context.Context) (published, drafts int64, err error) {
	t, err := r.q.AdminPostTotals(ctx)
	return t.Published, t.Drafts, err
}

func (r admin) PostsAfter(ctx context.Context, after int64, limit int) ([]domain.Post, error) {
	rows, err := r.q.AdminPostsAfter(ctx, db.AdminPostsAfterParams{After: after, Lim: int32(min(limit, math.MaxInt32))})
	return sqlrepo.Rows(rows, postOf), err
}

func (r admin) ListWebhooks(ctx context.Context, page ports.Page) ([]sqlrepo.Stored[ports.AdminWebhook], error) {
	lim, off := pageOf(page)
	rows, err := r.q.AdminListWebhooks(ctx, db.AdminListWebhooksParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, func(row db.AdminListWebhooksRow) sqlrepo.Stored[ports.AdminWebhook] {
		w := storedWebhook(row.Webhook)
		return sqlrepo.Stored[ports.AdminWebhook]{JSON: w.JSON, Value: ports.AdminWebhook{Webhook: w.Value, OwnerEmail: row.OwnerEmail}}
	}), err
}

func (r admin) CountWebhooks(ctx context.Context) (int64, error) {
	return r.q.AdminCountWebhooks(ctx)
}

func (r admin) ListMails(ctx context.Context, page ports.Page) ([]domain.Mail, error) {
	lim, off := pageOf(page)
	rows, err := r.q.AdminListMails(ctx, db.AdminListMailsParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, mailOf), err
}

func (r admin) ListMailsByStatus(ctx context.Context, status domain.MailStatus, page ports.Page) ([]domain.Mail, error) {
	lim, off := pageOf(page)
	rows, err := r.q.AdminListMailsByStatus(ctx, db.AdminListMailsByStatusParams{Status: string(status), Lim: lim, Off: off})
	return sqlrepo.Rows(rows, mailOf), err
}

func (r admin) CountMails(ctx context.Context) (int64, error) {
	return r.q.AdminCountMails(ctx)
}

func (r admin) CountMailsByStatus(ctx context.Context, status domain.MailStatus) (int64, error) {
	return r.q.AdminCountMailsByStatus(ctx, string(status))
}

func (r admin) UserSessions(ctx context.Context, userID int64) ([]domain.Session, error) {
	rows, err := r.q.AdminUserSessions(ctx, pgtype.Int8{Int64: userID, Valid: true})
	return sqlrepo.Rows(rows, sessionOf), err
}

func (r admin) SetUserAdmin(ctx context.Context, userID int64, isAdmin bool) (int64, error) {
	return r.q.SetUserAdmin(ctx, db.SetUserAdminParams{IsAdmin: isAdmin, ID: userID})
}

func (r admin) ListAdmins(ctx context.Context) ([]domain.User, error) {
	rows, err := r.q.ListAdmins(ctx)
	return sqlrepo.Rows(rows, userOf), err
}

func (r admin) AppendAudit(ctx context.Context, e domain.AuditEntry) (int64, error) {
	return r.q.AppendAudit(ctx, db.AppendAuditParams(sqlrepo.NewAuditOf(values, e)))
}

func (r admin) ListAudit(ctx context.Context, page ports.Page) ([]domain.AuditEntry, error) {
	lim, off := pageOf(page)
	rows, err := r.q.ListAudit(ctx, db.ListAuditParams{Lim: lim, Off: off})
	return sqlrepo.Rows(rows, func(row db.AdminAudit) domain.AuditEntry { return sqlrepo.AuditOf(values, row) }), err
}

func (r admin) CountAudit(ctx context.Context, limit int64) (int64, error) {
	return r.q.CountAudit(ctx, limit)
}

// adminsLock is the transaction-level advisory lock key under which the
// first admin is made (ASCII "ink-admn"); the migrations' lock is another.
const adminsLock int64 = 0x696e6b2d61646d6e

// LockAdmins takes a transaction-level advisory lock, which PgBouncer's
// transaction pooling keeps (it ends with the transaction) and which no
// row need exist for: the first admin's check finds no row to lock.
func (r admin) LockAdmins(ctx context.Context) error {
	if _, err := r.conn.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", adminsLock); err != nil {
		return storeError("lock the admins", err)
	}
	return nil
}
