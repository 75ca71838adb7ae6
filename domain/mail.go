package domain

import (
	"strings"
	"time"
)

// MailStatus is where a mail in the outbox stands.
type MailStatus string

const (
	MailPending MailStatus = "pending" // to be sent at NextAttemptAt
	MailSent    MailStatus = "sent"    // the mail server accepted it
	MailFailed  MailStatus = "failed"  // refused for good, or every attempt failed
	MailExpired MailStatus = "expired" // not sent before ExpiresAt: its link is dead
)

// MailMaxAttempts is how often a mail is attempted before it fails for good.
const MailMaxAttempts = 8

// Mail is one message in the outbox: written in the transaction that makes
// the token or change it is about, and sent at least once by a worker that
// leases it until ClaimedUntil. Its MessageID is fixed when it is made, so
// that every attempt, and every copy a retry may produce, is the same
// message to its receiver. Its body holds a live link: it is erased once the
// mail is sent, has failed or has expired.
type Mail struct {
	ID        int64
	MessageID string
	To        string
	Subject   string
	Text      string
	HTML      string
	Status    MailStatus
	Attempts  int
	// NextAttemptAt is when the mail is due; ClaimedUntil the end of the
	// lease of the worker attempting it.
	NextAttemptAt time.Time
	ClaimedUntil  *time.Time
	// LastError says why the last attempt failed.
	LastError string
	SentAt    *time.Time
	// ExpiresAt is when the mail's content stops being worth sending.
	ExpiresAt time.Time
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NewMail makes a pending mail due at now, with the given Message-ID,
// which stays with it across retries.
func NewMail(messageID, to, subject, text, html string, now, expires time.Time) Mail {
	return Mail{
		MessageID: messageID, To: to, Subject: subject, Text: text, HTML: html,
		Status: MailPending, NextAttemptAt: now, ExpiresAt: expires, CreatedAt: now, UpdatedAt: now,
	}
}

// Sent records that the mail server accepted m, and erases its body.
func (m *Mail) Sent(now time.Time) {
	m.Attempts++
	m.Status, m.LastError, m.SentAt, m.ClaimedUntil, m.UpdatedAt = MailSent, "", &now, nil, now
	m.eraseBody()
}

// Failed records a failed attempt. A temporary failure makes m due again
// after backoff times 2^(attempts-1), unless that is the last attempt or m
// would be due after it expires; a permanent one fails m for good. A
// failed mail's body is erased.
func (m *Mail) Failed(reason string, temporary bool, backoff time.Duration, now time.Time) {
	m.Attempts++
	m.LastError, m.ClaimedUntil, m.UpdatedAt = reason, nil, now
	next := now.Add(backoff << min(m.Attempts-1, 20))
	if temporary && m.Attempts < MailMaxAttempts && next.Before(m.ExpiresAt) {
		m.NextAttemptAt = next
		return
	}
	m.Status = MailFailed
	m.eraseBody()
}

func (m *Mail) eraseBody() { m.Text, m.HTML = "", "" }

// MailDomain is the part of address after its last @, the domain a
// Message-ID is made in; "localhost" when address has none.
func MailDomain(address string) string {
	i := strings.LastIndexByte(address, '@')
	if i < 0 || i == len(address)-1 {
		return "localhost"
	}
	return address[i+1:]
}

// Retry makes a pending mail due at now, at an admin's request, with a
// fresh count of attempts. Only a pending mail still holds its body: a
// sent, failed or expired one cannot be sent again, and Retry returns
// ErrConflict for it.
func (m *Mail) Retry(now time.Time) error {
	if m.Status != MailPending {
		return ErrConflict
	}
	m.Attempts, m.NextAttemptAt, m.ClaimedUntil, m.UpdatedAt = 0, now, nil, now
	return nil
}
