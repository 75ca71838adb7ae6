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

// comments lists every post's comments, newest first (sort= for oldest
// first), by post (post=, or title= for the posts whose title holds it)
// and by author (user=, or email= for the author's address). Each row's
// delete comes back here.
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
	// So is a title domain.CheckSearch refuses (checkQuery has refused it
	// already); the use case asks again.
	title := strings.TrimSpace(c.Query("title"))
	if domain.CheckSearch(title) != nil {
		return errBadQuery
	}
	sort, err := sortOf(c, ports.AdminCommentSorts, "")
	if err != nil {
		return err
	}
	q := ports.AdminCommentQuery{PostID: postID, UserID: userID, AuthorEmail: email, PostTitle: title, Sort: sort, Page: pg}
	comments, err := k.admin.Comments(c.UserContext(), caller(c), q)
	if err != nil {
		return err
	}
	query := url.Values{}
	if postID > 0 {
		query.Set("post", strconv.FormatInt(postID, 10))
	}
	if title != "" {
		query.Set("title", title)
	}
	if userID > 0 {
		query.Set("user", strconv.FormatInt(userID, 10))
	}
	if email != "" {
		query.Set("email", email)
	}
	if s := sortParam(sort, ports.AdminCommentSorts); s != "" {
		query.Set("sort", s)
	}
	columns := sortColumns(prefix+"/comments", query, sort, commentSortColumns)
	if n > 1 {
		query.Set("page", strconv.Itoa(n))
	}
	back := prefix + "/comments"
	if len(query) > 0 {
		back += "?" + query.Encode()
	}
	return k.show(c, "comments", "Comments", struct {
		PostID, UserID int64
		Email, Title   string
		Sort           string
		TitlePosts     int
		Comments       []ports.AdminComment
		Columns        map[string]sortColumn
		Back           string
		Pager          pager
	}{postID, userID, email, title, sortParam(sort, ports.AdminCommentSorts), comments.TitlePosts, comments.Rows, columns, back,
		countedPager(prefix+"/comments", query, n, comments.Counted)})
}
