package console

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// filterID reads an optional id filter of the query: 0 when absent or
// empty, a 400 page when it is no positive id.
func filterID(c *fiber.Ctx, key string) (int64, error) {
	raw := c.Query(key)
	if raw == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id < 1 {
		return 0, errBadQuery
	}
	return id, nil
}

// comments lists every post's comments, newest first, by post (post=) and
// by author (user=, or email= for the author's address). Each row's delete
// comes back here.
func (k *Console) comments(c *fiber.Ctx) error {
	n, pg, err := pageOf(c)
	if err != nil {
		return err
	}
	postID, err := filterID(c, "post")
	if err != nil {
		return err
	}
	userID, err := filterID(c, "user")
	if err != nil {
		return err
	}
	// An address the use case would refuse is a query the console cannot
	// read; the use case asks domain.CheckEmail again.
	email := strings.TrimSpace(c.Query("email"))
	if email != "" && domain.CheckEmail(email) != nil {
		return errBadQuery
	}
	q := ports.AdminCommentQuery{PostID: postID, UserID: userID, AuthorEmail: email, Page: pg}
	comments, err := k.admin.Comments(c.UserContext(), caller(c), q)
	if err != nil {
		return err
	}
	query := url.Values{}
	if postID > 0 {
		query.Set("post", strconv.FormatInt(postID, 10))
	}
	if userID > 0 {
		query.Set("user", strconv.FormatInt(userID, 10))
	}
	if email != "" {
		query.Set("email", email)
	}
	if n > 1 {
		query.Set("page", strconv.Itoa(n))
	}
	back := prefix + "/comments"
	if len(query) > 0 {
		back += "?" + query.Encode()
	}
	return k.show(c, "comments", "Comments", struct {
		PostID, UserID int64
		Email          string
		Comments       []ports.AdminComment
		Back           string
		Pager          pager
	}{postID, userID, email, comments.Rows, back, countedPager(prefix+"/comments", query, n, comments.Counted)})
}
