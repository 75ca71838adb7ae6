package httpapi

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// timeLayout is how every timestamp leaves the service: RFC 3339 in UTC with
// microseconds, as Laravel serializes Carbon dates.
const timeLayout = "2006-01-02T15:04:05.000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func formatTimePtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := formatTime(*t)
	return &s
}

// userJSON is the user object of register, login and GET /api/v1/user. It
// never carries the password hash or the remember token.
type userJSON struct {
	ID              int64   `json:"id"`
	Name            string  `json:"name"`
	Email           string  `json:"email"`
	EmailVerifiedAt *string `json:"email_verified_at"`
	AvatarURL       *string `json:"avatar_url"`
	CreatedAt       string  `json:"created_at"`
	UpdatedAt       string  `json:"updated_at"`
}

func (s *Server) presentUser(c *fiber.Ctx, u domain.User) userJSON {
	return userJSON{
		ID:              u.ID,
		Name:            u.Name,
		Email:           u.Email,
		EmailVerifiedAt: formatTimePtr(u.EmailVerifiedAt),
		AvatarURL:       s.storageURL(c, u.AvatarPath),
		CreatedAt:       formatTime(u.CreatedAt),
		UpdatedAt:       formatTime(u.UpdatedAt),
	}
}

// tokenJSON describes a personal token without its secret.
type tokenJSON struct {
	ID         int64    `json:"id"`
	Name       string   `json:"name"`
	Abilities  []string `json:"abilities"`
	LastUsedAt *string  `json:"last_used_at"`
	ExpiresAt  *string  `json:"expires_at"`
	CreatedAt  string   `json:"created_at"`
	UpdatedAt  string   `json:"updated_at"`
}

func presentToken(t domain.Token) tokenJSON {
	return tokenJSON{
		ID:         t.ID,
		Name:       t.Name,
		Abilities:  t.Abilities,
		LastUsedAt: formatTimePtr(t.LastUsedAt),
		ExpiresAt:  formatTimePtr(t.ExpiresAt),
		CreatedAt:  formatTime(t.CreatedAt),
		UpdatedAt:  formatTime(t.UpdatedAt),
	}
}

// baseURL is APP_URL, or the scheme and host the request came to, as far
// as the connection or a trusted proxy tells them.
func (s *Server) baseURL(c *fiber.Ctx) string {
	if s.cfg.AppURL != "" {
		return strings.TrimRight(s.cfg.AppURL, "/")
	}
	return s.proxies.Origin(c)
}

// storageURL is the absolute URL of a stored file, or nil for none: the
// file store's public URL when it has one, else the file under /storage/.
func (s *Server) storageURL(c *fiber.Ctx, path string) *string {
	return storageURLOf(s.linksOf(c), path)
}

// links is what the absolute URLs of a body start from: the base URL of
// the API, and the file store's own public URLs when it has them. The
// streams and webhooks render bodies away from any request, so they carry
// both together.
type links struct {
	base   string
	public ports.PublicFiles
}

// linksOf gives the links of bodies answering c.
func (s *Server) linksOf(c *fiber.Ctx) links {
	return links{base: s.baseURL(c), public: s.public}
}

// storageURLOf is storageURL with the links given.
func storageURLOf(l links, path string) *string {
	if path == "" {
		return nil
	}
	if l.public != nil {
		if u, ok := l.public.PublicURL(path); ok {
			return &u
		}
	}
	u := l.base + "/storage/" + path
	return &u
}

// message is the body of responses that only say what happened.
type message struct {
	Message string `json:"message"`
}
