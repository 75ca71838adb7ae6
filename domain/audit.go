package domain

import "time"

// AuditAction names what an admin did, as the console's audit page shows
// it. The names are settled (DESIGN §10); a new action adds a constant.
type AuditAction string

// The audit actions.
const (
	AuditAdminLogin       AuditAction = "admin.login"
	AuditPostUpdate       AuditAction = "post.update"
	AuditPostPublish      AuditAction = "post.publish"
	AuditPostUnpublish    AuditAction = "post.unpublish"
	AuditPostDelete       AuditAction = "post.delete"
	AuditCommentDelete    AuditAction = "comment.delete"
	AuditTokenRevoke      AuditAction = "token.revoke"
	AuditUserTokensRevoke AuditAction = "user.tokens.revoke"
	AuditUserDelete       AuditAction = "user.delete"
	AuditUserSendReset    AuditAction = "user.send_reset"
	AuditUserVerify       AuditAction = "user.verify"
	AuditWebhookDisable   AuditAction = "webhook.disable"
	AuditWebhookEnable    AuditAction = "webhook.enable"
	AuditDeliveryRetry    AuditAction = "delivery.retry"
	AuditMailRetry        AuditAction = "mail.retry"
	AuditPostRestore      AuditAction = "post.restore"
	AuditPostPurge        AuditAction = "post.purge"
	AuditCommentRestore   AuditAction = "comment.restore"
	AuditCommentPurge     AuditAction = "comment.purge"
	AuditTagRename        AuditAction = "tag.rename"
	AuditTagMerge         AuditAction = "tag.merge"
	AuditTagDelete        AuditAction = "tag.delete"
	AuditPersonUpdate     AuditAction = "person.update"
	AuditProductUpdate    AuditAction = "product.update"
)

// The kinds of record an audit entry is about.
const (
	SubjectUser     = "user"
	SubjectPost     = "post"
	SubjectComment  = "comment"
	SubjectToken    = "token"
	SubjectWebhook  = "webhook"
	SubjectDelivery = "delivery"
	SubjectMail     = "mail"
	SubjectTag      = "tag"
	// SubjectPerson and SubjectProduct are area B's records.
	SubjectPerson  = "person"
	SubjectProduct = "product"
)

// AuditEntry is one row of the audit log: who did what to which record,
// when and from where. It is written in the transaction of the change it
// records and never deleted by the console. AdminEmail is kept as it was
// at the time, so the row still names the admin after the account goes.
type AuditEntry struct {
	ID          int64
	At          time.Time
	AdminID     int64
	AdminEmail  string
	Action      AuditAction
	SubjectType string
	SubjectID   int64
	// Address is the client address the action came from.
	Address string
}

// NewAuditEntry records that admin did action to the subject at now, from
// address. The store assigns the ID.
func NewAuditEntry(admin User, action AuditAction, subjectType string, subjectID int64, address string, now time.Time) AuditEntry {
	return AuditEntry{At: now, AdminID: admin.ID, AdminEmail: admin.Email, Action: action, SubjectType: subjectType, SubjectID: subjectID, Address: address}
}

// IsAdmin reports whether the actor holds admin rights: the account is an
// admin and the actor acts through a browser session, not a token. A
// token's "*" ability is not admin rights. The use cases read the account
// again before trusting this, so a revoke takes effect at once.
func (a Actor) IsAdmin() bool {
	return a.Token == nil && a.User.ID != 0 && a.User.IsAdmin
}

// CheckAdmin returns ErrForbidden unless the actor holds admin rights.
func (a Actor) CheckAdmin() error {
	if !a.IsAdmin() {
		return ErrForbidden
	}
	return nil
}
