package console

import (
	"bufio"
	"context"
	"encoding/csv"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// exportTimeout bounds one export once its answer has begun; the request's
// own deadline has ended with its handler by then.
const exportTimeout = 30 * time.Minute

// flushEvery is how many rows go out per flush of an export.
const flushEvery = 500

// neutralise keeps a spreadsheet from reading a cell as a formula: a cell
// that begins with =, +, -, @ (or a tab or carriage return, which some
// spreadsheets skip before one) gets a leading apostrophe.
func neutralise(cell string) string {
	if cell == "" {
		return cell
	}
	switch cell[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + cell
	}
	return cell
}

// csvTime writes an optional time as RFC 3339, or nothing.
func csvTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// exportCSV answers a CSV file streamed from export: the rights are asked
// for before the status line goes out (a refusal is the console's error
// page), then rows are written as the use case reads them in batches, so
// memory stays the same however many there are. A failure once rows have
// gone out can only cut the file short; it is logged.
func (k *Console) exportCSV(c *fiber.Ctx, name string, header []string, export func(context.Context, ports.AdminCaller, *csv.Writer) error) error {
	ac := caller(c)
	if _, err := k.admin.Users(c.UserContext(), ac, ports.AdminUserQuery{Page: ports.Page{Limit: 1}}); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	ctx := context.WithoutCancel(c.UserContext())
	path := c.Path()
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		ctx, cancel := context.WithTimeout(ctx, exportTimeout)
		defer cancel()
		cw := csv.NewWriter(w)
		err := cw.Write(header)
		if err == nil {
			err = export(ctx, ac, cw)
		}
		cw.Flush()
		if err == nil {
			err = cw.Error()
		}
		if err != nil {
			k.log.ErrorContext(ctx, "export cut short", "path", path, "error", err.Error())
		}
	})
	return nil
}

// rowWriter writes a row and flushes every flushEvery rows, so that the
// file goes out as it is read.
type rowWriter struct {
	cw *csv.Writer
	n  int
}

func (r *rowWriter) write(cells ...string) error {
	for i := range cells {
		cells[i] = neutralise(cells[i])
	}
	if err := r.cw.Write(cells); err != nil {
		return err
	}
	if r.n++; r.n%flushEvery == 0 {
		r.cw.Flush()
		return r.cw.Error()
	}
	return nil
}

func (k *Console) usersCSV(c *fiber.Ctx) error {
	header := []string{"id", "name", "email", "email_verified_at", "is_admin", "created_at"}
	return k.exportCSV(c, "users.csv", header, func(ctx context.Context, ac ports.AdminCaller, cw *csv.Writer) error {
		rw := &rowWriter{cw: cw}
		return k.admin.ExportUsers(ctx, ac, func(u domain.User) error {
			return rw.write(strconv.FormatInt(u.ID, 10), u.Name, u.Email, csvTime(u.EmailVerifiedAt),
				strconv.FormatBool(u.IsAdmin), csvTime(&u.CreatedAt))
		})
	})
}

func (k *Console) postsCSV(c *fiber.Ctx) error {
	header := []string{"id", "author_id", "title", "slug", "status", "published_at", "created_at"}
	return k.exportCSV(c, "posts.csv", header, func(ctx context.Context, ac ports.AdminCaller, cw *csv.Writer) error {
		rw := &rowWriter{cw: cw}
		return k.admin.ExportPosts(ctx, ac, func(p domain.Post) error {
			created := p.CreatedAt()
			return rw.write(strconv.FormatInt(p.ID(), 10), strconv.FormatInt(p.AuthorID(), 10), p.Title(), p.Slug(),
				string(p.Status()), csvTime(p.PublishedAt()), csvTime(&created))
		})
	})
}
