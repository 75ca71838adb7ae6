package sqlrepo

import (
	"time"

	"github.com/inkwell/inkwell/domain"
)

// Values are how one engine's sqlc types hold what the two engines keep
// apart: T is a timestamp column's type, N a nullable timestamp's and B a
// boolean's (SQLite keeps an integer). Both engines' sqlc declare the rows
// and parameters below alike but for those types, so each converts to and
// from the domain here, once for both: an engine reads a row with
// UserOf(values, row) and fills a statement's parameters by conversion,
// db.CreateUserParams(NewUserOf(values, u)). Each row and parameter type
// below lists its statement's columns in sqlc's order, so a conversion no
// longer compiles in the engine whose generated struct stops matching.
type Values[T, N, B any] struct {
	Time     func(T) time.Time
	TimePtr  func(N) *time.Time
	DBTime   func(time.Time) T
	NullTime func(*time.Time) N
	Bool     func(B) bool
	DBBool   func(bool) B
}

// nullInt64 is a nullable integer as both engines' types hold it
// (sql.NullInt64, pgtype.Int8).
type nullInt64 = struct {
	Int64 int64
	Valid bool
}

// PostUpdate are the parameters of UpdatePost.
type PostUpdate[T, N any] = struct {
	Title       string
	Excerpt     string
	Body        string
	Status      string
	ImagePath   string
	PublishedAt N
	UpdatedAt   T
	ID          int64
}

func PostUpdateOf[T, N, B any](v Values[T, N, B], s domain.PostState) PostUpdate[T, N] {
	return PostUpdate[T, N]{
		Title:       s.Title,
		Excerpt:     s.Excerpt,
		Body:        s.Body,
		Status:      string(s.Status),
		ImagePath:   s.ImagePath,
		PublishedAt: v.NullTime(s.PublishedAt),
		UpdatedAt:   v.DBTime(s.UpdatedAt),
		ID:          s.ID,
	}
}

// UserRow is a row of users.
type UserRow[T, N, B any] = struct {
	ID              int64
	Name            string
	Email           string
	EmailKey        string
	PasswordHash    string
	RememberToken   string
	EmailVerifiedAt N
	AvatarPath      string
	CreatedAt       T
	UpdatedAt       T
	IsAdmin         B
}

func UserOf[T, N, B any](v Values[T, N, B], row UserRow[T, N, B]) domain.User {
	return domain.User{
		ID:              row.ID,
		Name:            row.Name,
		Email:           row.Email,
		PasswordHash:    row.PasswordHash,
		RememberToken:   row.RememberToken,
		EmailVerifiedAt: v.TimePtr(row.EmailVerifiedAt),
		AvatarPath:      row.AvatarPath,
		CreatedAt:       v.Time(row.CreatedAt),
		UpdatedAt:       v.Time(row.UpdatedAt),
		IsAdmin:         v.Bool(row.IsAdmin),
	}
}

// NewUser are the parameters of CreateUser.
type NewUser[T, N any] = struct {
	Name            string
	Email           string
	EmailKey        string
	PasswordHash    string
	RememberToken   string
	EmailVerifiedAt N
	AvatarPath      string
	CreatedAt       T
	UpdatedAt       T
}

func NewUserOf[T, N, B any](v Values[T, N, B], u domain.User) NewUser[T, N] {
	return NewUser[T, N]{
		Name:            u.Name,
		Email:           u.Email,
		EmailKey:        domain.EmailKey(u.Email),
		PasswordHash:    u.PasswordHash,
		RememberToken:   u.RememberToken,
		EmailVerifiedAt: v.NullTime(u.EmailVerifiedAt),
		AvatarPath:      u.AvatarPath,
		CreatedAt:       v.DBTime(u.CreatedAt),
		UpdatedAt:       v.DBTime(u.UpdatedAt),
	}
}

// UserUpdate are the parameters of UpdateUser: those of CreateUser but
// the time it was created, and its id.
type UserUpdate[T, N any] = struct {
	Name            string
	Email           string
	EmailKey        string
	PasswordHash    string
	RememberToken   string
	EmailVerifiedAt N
	AvatarPath      string
	UpdatedAt       T
	ID              int64
}

func UserUpdateOf[T, N, B any](v Values[T, N, B], u domain.User) UserUpdate[T, N] {
	n := NewUserOf(v, u)
	return UserUpdate[T, N]{
		Name: n.Name, Email: n.Email, EmailKey: n.EmailKey, PasswordHash: n.PasswordHash, RememberToken: n.RememberToken,
		EmailVerifiedAt: n.EmailVerifiedAt, AvatarPath: n.AvatarPath, UpdatedAt: n.UpdatedAt, ID: u.ID,
	}
}

// PostTagRow is a row of ListTagsOfPosts: a post's id and one of its
// tags, in the engine's row type C.
type PostTagRow[C any] interface{ ~postTagRow[C] }

type postTagRow[C any] = struct {
	PostID int64
	Tag    C
}

// PostTagsOf converts rows of ListTagsOfPosts, their tags with tagOf.
func PostTagsOf[R PostTagRow[C], C any](rows []R, tagOf func(C) domain.Tag) []PostTag {
	return Rows(rows, func(row R) PostTag {
		r := postTagRow[C](row)
		return PostTag{PostID: r.PostID, Tag: tagOf(r.Tag)}
	})
}

// TagRow is a row of tags.
type TagRow[T any] = struct {
	ID        int64
	Name      string
	NameKey   string
	Slug      string
	CreatedAt T
	UpdatedAt T
}

func TagOf[T, N, B any](v Values[T, N, B], row TagRow[T]) domain.Tag {
	return domain.Tag{ID: row.ID, Name: row.Name, Slug: row.Slug, CreatedAt: v.Time(row.CreatedAt), UpdatedAt: v.Time(row.UpdatedAt)}
}

// NewTag are the parameters of CreateTag; key is the tag's name key.
type NewTag[T any] = struct {
	Name      string
	NameKey   string
	Slug      string
	CreatedAt T
	UpdatedAt T
}

func NewTagOf[T, N, B any](v Values[T, N, B], t domain.Tag, key string) NewTag[T] {
	return NewTag[T]{Name: t.Name, NameKey: key, Slug: t.Slug, CreatedAt: v.DBTime(t.CreatedAt), UpdatedAt: v.DBTime(t.UpdatedAt)}
}

// TagUpdate are the parameters of UpdateTag.
type TagUpdate[T any] = struct {
	Name      string
	NameKey   string
	Slug      string
	UpdatedAt T
	ID        int64
}

func TagUpdateOf[T, N, B any](v Values[T, N, B], t domain.Tag, key string) TagUpdate[T] {
	return TagUpdate[T]{Name: t.Name, NameKey: key, Slug: t.Slug, UpdatedAt: v.DBTime(t.UpdatedAt), ID: t.ID}
}

// CommentRow is a row of comments.
type CommentRow[T any] = struct {
	ID        int64
	PostID    int64
	UserID    int64
	Body      string
	CreatedAt T
	UpdatedAt T
}

func CommentOf[T, N, B any](v Values[T, N, B], row CommentRow[T]) domain.Comment {
	return domain.Comment{
		ID:        row.ID,
		PostID:    row.PostID,
		UserID:    row.UserID,
		Body:      row.Body,
		CreatedAt: v.Time(row.CreatedAt),
		UpdatedAt: v.Time(row.UpdatedAt),
	}
}

// TokenRow is a row of personal_access_tokens.
type TokenRow[T, N, B any] = struct {
	ID         int64
	UserID     int64
	Name       string
	TokenHash  string
	Abilities  string
	LastUsedAt N
	ExpiresAt  N
	CreatedAt  T
	UpdatedAt  T
	Streamed   B
}

// TokenOf is the token of row, with its abilities' JSON.
func TokenOf[T, N, B any](v Values[T, N, B], row TokenRow[T, N, B]) Stored[domain.Token] {
	return Stored[domain.Token]{JSON: []byte(row.Abilities), Value: domain.Token{
		ID:         row.ID,
		UserID:     row.UserID,
		Name:       row.Name,
		Hash:       row.TokenHash,
		LastUsedAt: v.TimePtr(row.LastUsedAt),
		ExpiresAt:  v.TimePtr(row.ExpiresAt),
		CreatedAt:  v.Time(row.CreatedAt),
		UpdatedAt:  v.Time(row.UpdatedAt),
	}}
}

// NewToken are the parameters of CreateToken.
type NewToken[T, N any] = struct {
	UserID     int64
	Name       string
	TokenHash  string
	Abilities  string
	LastUsedAt N
	ExpiresAt  N
	CreatedAt  T
	UpdatedAt  T
}

func NewTokenOf[T, N, B any](v Values[T, N, B], t domain.Token, abilities []byte) NewToken[T, N] {
	return NewToken[T, N]{
		UserID:     t.UserID,
		Name:       t.Name,
		TokenHash:  t.Hash,
		Abilities:  string(abilities),
		LastUsedAt: v.NullTime(t.LastUsedAt),
		ExpiresAt:  v.NullTime(t.ExpiresAt),
		CreatedAt:  v.DBTime(t.CreatedAt),
		UpdatedAt:  v.DBTime(t.UpdatedAt),
	}
}

// SessionRow is a row of sessions; I is the engine's nullable integer.
type SessionRow[T any, I ~nullInt64] = struct {
	IDHash       string
	UserID       I
	CsrfToken    string
	LastActivity T
	CreatedAt    T
	Kind         string
}

func SessionOf[T, N, B any, I ~nullInt64](v Values[T, N, B], row SessionRow[T, I]) domain.Session {
	return domain.Session{
		IDHash:       row.IDHash,
		Kind:         domain.SessionKind(row.Kind),
		UserID:       nullInt64(row.UserID).Int64, // 0 when NULL, as the port wants
		CSRFToken:    row.CsrfToken,
		LastActivity: v.Time(row.LastActivity),
		CreatedAt:    v.Time(row.CreatedAt),
	}
}

// NewSession are the parameters of CreateSession.
type NewSession[T any, I ~nullInt64] = struct {
	IDHash       string
	Kind         string
	UserID       I
	CsrfToken    string
	LastActivity T
	CreatedAt    T
}

// NewSessionOf takes the engine's conversion of a session's user id,
// which stores 0, no user yet, as NULL.
func NewSessionOf[T, N, B any, I ~nullInt64](v Values[T, N, B], s domain.Session, user func(int64) I) NewSession[T, I] {
	return NewSession[T, I]{
		IDHash:       s.IDHash,
		Kind:         string(s.Kind),
		UserID:       user(s.UserID),
		CsrfToken:    s.CSRFToken,
		LastActivity: v.DBTime(s.LastActivity),
		CreatedAt:    v.DBTime(s.CreatedAt),
	}
}

// NewProduct are the parameters of CreateProduct; S is the engine's
// nullable text.
type NewProduct[T, S any] = struct {
	Name        string
	PriceCents  int64
	Description string
	Stock       int64
	Sku         S
	CreatedAt   T
	UpdatedAt   T
}

// NewProductOf takes the engine's conversion of a nullable text.
func NewProductOf[T, N, B, S any](v Values[T, N, B], p domain.Product, nullText func(*string) S) NewProduct[T, S] {
	return NewProduct[T, S]{
		Name:        p.Name,
		PriceCents:  p.PriceCents,
		Description: p.Description,
		Stock:       p.Stock,
		Sku:         nullText(p.SKU),
		CreatedAt:   v.DBTime(p.CreatedAt),
		UpdatedAt:   v.DBTime(p.UpdatedAt),
	}
}

// ProductUpdate are the parameters of UpdateProduct: those of
// CreateProduct but the time it was created, and its id.
type ProductUpdate[T, S any] = struct {
	Name        string
	PriceCents  int64
	Description string
	Stock       int64
	Sku         S
	UpdatedAt   T
	ID          int64
}

func ProductUpdateOf[T, N, B, S any](v Values[T, N, B], p domain.Product, nullText func(*string) S) ProductUpdate[T, S] {
	n := NewProductOf(v, p, nullText)
	return ProductUpdate[T, S]{
		Name: n.Name, PriceCents: n.PriceCents, Description: n.Description, Stock: n.Stock, Sku: n.Sku,
		UpdatedAt: n.UpdatedAt, ID: p.ID,
	}
}

// NewEvent are the parameters of AppendEvent; P is how the engine passes
// the payload's JSON.
type NewEvent[T, B any, P ~[]byte | ~string] = struct {
	Type            string
	Topic           string
	CreatedAt       T
	PostID          int64
	PostAuthorID    int64
	CommentAuthorID int64
	Draft           B
	Payload         P
}

func NewEventOf[P ~[]byte | ~string, T, N, B any](v Values[T, N, B], e domain.Event, payload []byte) NewEvent[T, B, P] {
	return NewEvent[T, B, P]{
		Type:            string(e.Type),
		Topic:           e.Type.Topic(),
		CreatedAt:       v.DBTime(e.CreatedAt),
		PostID:          e.PostID,
		PostAuthorID:    e.PostAuthorID,
		CommentAuthorID: e.CommentAuthorID,
		Draft:           v.DBBool(e.Draft),
		Payload:         P(payload),
	}
}

// EventRow is a row of the events EventsAfter reads.
type EventRow[T, B any, P ~[]byte | ~string] = struct {
	ID              int64
	Type            string
	CreatedAt       T
	PostID          int64
	PostAuthorID    int64
	CommentAuthorID int64
	Draft           B
	Payload         P
}

// EventOf is the event of row, with its payload's JSON.
func EventOf[T, N, B any, P ~[]byte | ~string](v Values[T, N, B], row EventRow[T, B, P]) Stored[domain.Event] {
	return Stored[domain.Event]{JSON: []byte(row.Payload), Value: domain.Event{
		ID:              row.ID,
		Type:            domain.EventType(row.Type),
		CreatedAt:       v.Time(row.CreatedAt),
		PostID:          row.PostID,
		PostAuthorID:    row.PostAuthorID,
		CommentAuthorID: row.CommentAuthorID,
		Draft:           v.Bool(row.Draft),
	}}
}

// MailRow is a row of mail_outbox; A is the engine's integer of attempts.
type MailRow[T, N any, A ~int32 | ~int64] = struct {
	ID            int64
	MessageID     string
	Recipient     string
	Subject       string
	TextBody      string
	HtmlBody      string
	Status        string
	Attempts      A
	NextAttemptAt T
	ClaimedUntil  N
	LastError     string
	SentAt        N
	ExpiresAt     T
	CreatedAt     T
	UpdatedAt     T
}

func MailOf[T, N, B any, A ~int32 | ~int64](v Values[T, N, B], row MailRow[T, N, A]) domain.Mail {
	return domain.Mail{
		ID: row.ID, MessageID: row.MessageID, To: row.Recipient, Subject: row.Subject, Text: row.TextBody, HTML: row.HtmlBody,
		Status: domain.MailStatus(row.Status), Attempts: int(row.Attempts), NextAttemptAt: v.Time(row.NextAttemptAt),
		ClaimedUntil: v.TimePtr(row.ClaimedUntil), LastError: row.LastError, SentAt: v.TimePtr(row.SentAt),
		ExpiresAt: v.Time(row.ExpiresAt), CreatedAt: v.Time(row.CreatedAt), UpdatedAt: v.Time(row.UpdatedAt),
	}
}

// AuditRow is a row of admin_audit.
type AuditRow[T any] = struct {
	ID          int64
	At          T
	AdminID     int64
	AdminEmail  string
	Action      string
	SubjectType string
	SubjectID   int64
	Address     string
}

func AuditOf[T, N, B any](v Values[T, N, B], row AuditRow[T]) domain.AuditEntry {
	return domain.AuditEntry{
		ID: row.ID, At: v.Time(row.At), AdminID: row.AdminID, AdminEmail: row.AdminEmail,
		Action: domain.AuditAction(row.Action), SubjectType: row.SubjectType, SubjectID: row.SubjectID, Address: row.Address,
	}
}

// NewAudit are the parameters of AppendAudit.
type NewAudit[T any] = struct {
	At          T
	AdminID     int64
	AdminEmail  string
	Action      string
	SubjectType string
	SubjectID   int64
	Address     string
}

func NewAuditOf[T, N, B any](v Values[T, N, B], e domain.AuditEntry) NewAudit[T] {
	return NewAudit[T]{
		At: v.DBTime(e.At), AdminID: e.AdminID, AdminEmail: e.AdminEmail, Action: string(e.Action),
		SubjectType: e.SubjectType, SubjectID: e.SubjectID, Address: e.Address,
	}
}
