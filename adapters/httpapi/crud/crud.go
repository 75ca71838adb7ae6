// Package crud is area B of the service: the generic CRUD routes of users and
// products, their response envelope and their error rendering.
//
// Area B's users are directory records (domain.Person), not accounts. Every
// response, errors included, is the envelope {success, message, data}.
package crud

import (
	"context"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/adapters/httpapi/conditional"
	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Deps is what area B's routes need.
type Deps struct {
	// People and Products are the use cases of the two record kinds.
	People   ports.People
	Products ports.Products
	// Authenticate resolves a bearer token; it is used only when
	// RequireToken is set.
	Authenticate func(ctx context.Context, bearer string) (domain.Actor, error)
	// RequireToken makes every write (POST, PUT, PATCH, DELETE) need a
	// bearer token that Authenticate accepts; reads stay open.
	RequireToken bool
	// BaseURL returns the scheme and host, with no trailing slash, that
	// prefix the links of a request's Link and Location headers: the
	// server's public URL, or what it makes of the request's.
	BaseURL func(c *fiber.Ctx) string
	// Cached runs first on every read, to serve it from the cache of
	// anonymous reads (respcache); nil: no cache.
	Cached fiber.Handler
}

// Mount paths of area B. The users and products routers are mounted twice,
// as the specification lists them; the second users implementation only
// under v2.
var (
	usersMounts    = []string{"/users", "/api/v1/users"}
	productsMounts = []string{"/products", "/api/v1/products"}
	usersV2Mount   = "/api/v2/users"
)

// Mount registers every route of area B on r.
func Mount(r fiber.Router, d Deps) {
	write := func(c *fiber.Ctx) error { return c.Next() }
	if d.RequireToken {
		if d.Authenticate == nil {
			panic("crud: RequireToken needs Authenticate")
		}
		write = requireToken(d.Authenticate)
	}
	if d.BaseURL == nil {
		panic("crud: Deps.BaseURL is required")
	}
	cached := d.Cached
	if cached == nil {
		cached = func(c *fiber.Ctx) error { return c.Next() }
	}
	u := newUsers(d.People, d.BaseURL)
	p := newProducts(d.Products, d.BaseURL)

	for _, m := range usersMounts {
		r.Get(m, cached, u.list)
		r.Post(m, write, u.create)
		r.Get(m+"/:id", cached, conditional.Tag, u.read)
		r.Put(m+"/:id", write, conditional.Tag, u.replace)
		r.Delete(m+"/:id", write, u.delete)
	}
	for _, m := range productsMounts {
		r.Get(m, cached, p.list)
		r.Post(m, write, p.create)
		r.Get(m+"/:id", cached, conditional.Tag, p.read)
		r.Put(m+"/:id", write, conditional.Tag, p.replace)
		r.Delete(m+"/:id", write, p.delete)
	}
	r.Get(usersV2Mount, cached, u.listV2)
	r.Post(usersV2Mount, write, u.createV2)
	r.Get(usersV2Mount+"/:id", cached, conditional.Tag, u.read)
	r.Put(usersV2Mount+"/:id", write, conditional.Tag, u.replace)
	r.Patch(usersV2Mount+"/:id", write, conditional.Tag, u.patch)
	r.Delete(usersV2Mount+"/:id", write, u.delete)
}

// areaAOutsideAPI are area A's routes that live outside /api: the browser
// session endpoints and the root routes of Breeze's front ends. Their
// errors keep area A's shape.
var areaAOutsideAPI = []string{
	"/sanctum", "/login", "/logout",
	// The routes of Laravel Breeze's front ends.
	"/register", "/forgot-password", "/reset-password", "/verify-email", "/email/verification-notification",
}

// Owns reports whether errors on path are rendered in area B's envelope: the
// paths of area B's mounts and every other path outside /api, for which the
// envelope's 404 "Not Found" is the answer to an unknown route.
func Owns(path string) bool {
	if resourceOf(path) != "" {
		return true
	}
	if under(path, "/api") {
		return false
	}
	for _, p := range areaAOutsideAPI {
		if under(path, p) {
			return false
		}
	}
	return true
}

// resourceOf names the record kind a path of area B addresses, "" for paths
// that are not area B's mounts.
func resourceOf(path string) string {
	if under(path, usersV2Mount) {
		return "User"
	}
	for _, m := range usersMounts {
		if under(path, m) {
			return "User"
		}
	}
	for _, m := range productsMounts {
		if under(path, m) {
			return "Product"
		}
	}
	return ""
}

// under reports whether path is prefix or below it, in any letter case, as
// Fiber routes paths.
func under(path, prefix string) bool {
	return len(path) >= len(prefix) && strings.EqualFold(path[:len(prefix)], prefix) &&
		(len(path) == len(prefix) || path[len(prefix)] == '/')
}

// requireToken refuses a request without a bearer token that authenticate
// accepts, before its body is read, and keeps the actor for the use case,
// which checks the same gate (domain.Actor.CheckTokenPresented). Area B
// has no ownership, only this gate.
func requireToken(authenticate func(context.Context, string) (domain.Actor, error)) fiber.Handler {
	return func(c *fiber.Ctx) error {
		scheme, token, ok := strings.Cut(c.Get(fiber.HeaderAuthorization), " ")
		token = strings.TrimSpace(token)
		if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
			return domain.ErrUnauthenticated
		}
		actor, err := authenticate(c.UserContext(), token)
		if err != nil {
			return err
		}
		c.Locals(localWriter, actor)
		return c.Next()
	}
}

// localWriter is the key under which requireToken keeps the actor.
const localWriter = "crud.writer"

// writerOf is the actor of a write: the token's holder when requireToken
// ran, the zero actor on an open area B.
func writerOf(c *fiber.Ctx) domain.Actor {
	a, _ := c.Locals(localWriter).(domain.Actor)
	return a
}
