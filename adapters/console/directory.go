package console

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/inkwell/inkwell/domain"
	"github.com/inkwell/inkwell/ports"
)

// Area B's records in the console: people (its user records, not
// accounts) and products, listed newest first, searched and paged, each
// with an edit page whose form saves through the use case the API's PUT
// calls (People.Replace, Products.Replace) by admin right, which audits
// it as person.update or product.update.

// directoryList is the data of people.html and products.html.
type directoryList[T any] struct {
	Q     string
	Rows  []T
	Pager pager
}

func personPage(id int64) string  { return prefix + "/people/" + strconv.FormatInt(id, 10) }
func productPage(id int64) string { return prefix + "/products/" + strconv.FormatInt(id, 10) }

func (k *Console) people(c *fiber.Ctx) error {
	n, pg, q, err := searchPageOf(c)
	if err != nil {
		return err
	}
	rows, total, err := k.admin.People(c.UserContext(), caller(c), ports.AdminDirectoryQuery{Search: q, Page: pg})
	if err != nil {
		return err
	}
	return k.show(c, "people", "People", directoryList[domain.Person]{q, rows, newPager(prefix+"/people", url.Values{"q": {q}}, n, total, false)})
}

func (k *Console) products(c *fiber.Ctx) error {
	n, pg, q, err := searchPageOf(c)
	if err != nil {
		return err
	}
	rows, total, err := k.admin.Products(c.UserContext(), caller(c), ports.AdminDirectoryQuery{Search: q, Page: pg})
	if err != nil {
		return err
	}
	return k.show(c, "products", "Products", directoryList[domain.Product]{q, rows, newPager(prefix+"/products", url.Values{"q": {q}}, n, total, false)})
}

// personForm is the data of person.html: the record as stored and the
// edit form's values, the record's own or what a refused form sent, with
// a sentence per broken rule.
type personForm struct {
	Person                     domain.Person
	Name, Email, Age           string
	Street, City, Zip, Country string
	Version                    string
	Errors                     []string
}

// productForm is the data of product.html, as personForm is person.html's.
type productForm struct {
	Product                              domain.Product
	Name, Price, Description, Stock, SKU string
	Version                              string
	Errors                               []string
}

func (k *Console) person(c *fiber.Ctx) error {
	id, err := idOf(c)
	if err != nil {
		return err
	}
	p, err := k.admin.Person(c.UserContext(), caller(c), id)
	if err != nil {
		return err
	}
	form := personForm{Person: p, Name: p.Name, Email: p.Email, Version: formatVersion(p.UpdatedAt)}
	if p.Age != nil {
		form.Age = strconv.Itoa(*p.Age)
	}
	if a := p.Address; a != nil {
		form.Street, form.City, form.Zip, form.Country = a.Street, a.City, a.Zip, a.Country
	}
	return k.show(c, "person", p.Name, form)
}

func (k *Console) product(c *fiber.Ctx) error {
	id, err := idOf(c)
	if err != nil {
		return err
	}
	p, err := k.admin.Product(c.UserContext(), caller(c), id)
	if err != nil {
		return err
	}
	form := productForm{Product: p, Name: p.Name, Price: formatCents(p.PriceCents), Description: p.Description,
		Stock: strconv.FormatInt(p.Stock, 10), Version: formatVersion(p.UpdatedAt)}
	if p.SKU != nil {
		form.SKU = *p.SKU
	}
	return k.show(c, "product", p.Name, form)
}

// editPerson saves the edit form through People.Replace by admin right
// and goes back to the page the form came from; a form the use case, or
// the reading of its numbers, refuses is shown again with its values and
// a sentence per field, with 422.
func (k *Console) editPerson(c *fiber.Ctx) error {
	id, pre, err := editOf(c)
	if err != nil {
		return err
	}
	form := personForm{
		Name: formValue(c, "name"), Email: formValue(c, "email"), Age: formValue(c, "age"),
		Street: formValue(c, "street"), City: formValue(c, "city"), Zip: formValue(c, "zip"), Country: formValue(c, "country"),
		Version: formValue(c, "version"),
	}
	in := ports.PersonInput{Name: form.Name, Email: form.Email}
	var unread []domain.Violation
	if raw := strings.TrimSpace(form.Age); raw != "" {
		age, err := strconv.Atoi(raw)
		if err != nil {
			unread = append(unread, domain.Violation{Field: "age", Rule: domain.RuleInteger})
		}
		in.Age = &age
	}
	if form.Street != "" || form.City != "" || form.Zip != "" || form.Country != "" {
		in.Address = &domain.Address{Street: form.Street, City: form.City, Zip: form.Zip, Country: form.Country}
	}
	ac := caller(c)
	if unread != nil {
		err = alongside(unread, domain.Person{Name: in.Name, Email: in.Email, Age: in.Age, Address: in.Address}.Check())
	} else {
		_, err = k.owners.people.Replace(c.UserContext(), byAdminRight(ac), id, in, pre)
		if err == nil {
			return k.done(c, "person.update", backTo(c, personPage(id)))
		}
	}
	var refused bool
	if form.Errors, refused = recordErrors(err, "person"); !refused {
		return err
	}
	if form.Person, err = k.admin.Person(c.UserContext(), ac, id); err != nil {
		return err
	}
	return k.render(c, http.StatusUnprocessableEntity, "person", page{
		Title: form.Person.Name, CSRF: csrfToken(c), Admin: ac.Actor.User.Email, Data: form,
	})
}

// editProduct is editPerson for a product, through Products.Replace.
func (k *Console) editProduct(c *fiber.Ctx) error {
	id, pre, err := editOf(c)
	if err != nil {
		return err
	}
	form := productForm{
		Name: formValue(c, "name"), Price: formValue(c, "price"), Description: formValue(c, "description"),
		Stock: formValue(c, "stock"), SKU: formValue(c, "sku"), Version: formValue(c, "version"),
	}
	in := ports.ProductInput{Name: form.Name, Description: form.Description}
	var unread []domain.Violation
	cents, rule := centsOf(form.Price)
	if rule != "" {
		unread = append(unread, domain.Violation{Field: "price", Rule: rule})
	}
	in.PriceCents = cents
	if raw := strings.TrimSpace(form.Stock); raw != "" {
		stock, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			unread = append(unread, domain.Violation{Field: "stock", Rule: domain.RuleInteger})
		}
		in.Stock = stock
	}
	if sku := strings.TrimSpace(form.SKU); sku != "" {
		in.SKU = &sku
	}
	ac := caller(c)
	if unread != nil {
		err = alongside(unread, domain.Product{Name: in.Name, PriceCents: in.PriceCents, Description: in.Description, Stock: in.Stock, SKU: in.SKU}.Check())
	} else {
		_, err = k.owners.products.Replace(c.UserContext(), byAdminRight(ac), id, in, pre)
		if err == nil {
			return k.done(c, "product.update", backTo(c, productPage(id)))
		}
	}
	var refused bool
	if form.Errors, refused = recordErrors(err, "product"); !refused {
		return err
	}
	if form.Product, err = k.admin.Product(c.UserContext(), ac, id); err != nil {
		return err
	}
	return k.render(c, http.StatusUnprocessableEntity, "product", page{
		Title: form.Product.Name, CSRF: csrfToken(c), Admin: ac.Actor.User.Email, Data: form,
	})
}

// alongside is the refusal of a form some of whose fields could not be
// read (unread), with what the domain's check of the record, built from
// the fields that could, finds wrong in the others, field by field in the
// check's order, so that every refusal shows at once.
func alongside(unread []domain.Violation, checked error) error {
	seen := map[string]bool{}
	for _, v := range unread {
		seen[v.Field] = true
	}
	vs := append([]domain.Violation{}, unread...)
	if de, ok := domain.AsError(checked); ok {
		for _, v := range de.Fields {
			if !seen[v.Field] {
				vs = append(vs, v)
			}
		}
	}
	return domain.InvalidFields(vs...)
}

// recordErrors is formErrors for a form of one of area B's records, whose
// value another record holds is worded as the record's own ("Another
// product already uses this SKU.").
func recordErrors(err error, record string) ([]string, bool) {
	de, ok := domain.AsError(err)
	if !ok || len(de.Fields) == 0 || (de.Kind != domain.Invalid && de.Kind != domain.Conflict) {
		return nil, false
	}
	sentences := make([]string, 0, len(de.Fields))
	for _, v := range de.Fields {
		if v.Rule == domain.RuleUnique {
			sentences = append(sentences, "Another "+record+" already uses this "+fieldName(v.Field)+".")
			continue
		}
		sentences = append(sentences, formSentence(v))
	}
	return sentences, true
}

// priceText is what the price field may hold: whole units and at most
// two decimals after a point.
var priceText = regexp.MustCompile(`^([0-9]+)(?:\.([0-9]{1,2}))?$`)

// longDecimal is a number with more decimals than a price has.
var longDecimal = regexp.MustCompile(`^[0-9]+\.[0-9]{3,}$`)

// centsOf reads the price field, in whole units with up to two decimals,
// as cents; when it cannot, the rule it breaks: required when blank,
// decimal for more decimals, numeric for what is no number, min_value for
// a negative one and max_value for one too long to be a price. The
// bounds within are domain.CheckPriceCents's, which the use case asks.
func centsOf(raw string) (int64, domain.Rule) {
	s := strings.TrimSpace(raw)
	m := priceText.FindStringSubmatch(s)
	switch {
	case s == "":
		return 0, domain.RuleRequired
	case m == nil && strings.HasPrefix(s, "-") && priceText.MatchString(s[1:]):
		return 0, domain.RuleN(domain.RuleMinValue, 0)
	case m == nil && longDecimal.MatchString(s):
		return 0, domain.RuleOf(domain.RuleDecimal, "0", "2")
	case m == nil:
		return 0, domain.RuleNumeric
	case len(strings.TrimLeft(m[1], "0")) > len(strconv.FormatInt(domain.MaxPrice, 10)):
		return 0, domain.RuleN(domain.RuleMaxValue, domain.MaxPrice)
	}
	units, _ := strconv.ParseInt(m[1], 10, 64)
	frac := m[2] + strings.Repeat("0", 2-len(m[2]))
	cents, _ := strconv.ParseInt(frac, 10, 64)
	return units*100 + cents, ""
}

// formatCents writes a price in cents as whole units and two decimals.
func formatCents(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return sign + strconv.FormatInt(cents/100, 10) + "." + strconv.FormatInt(cents%100/10, 10) + strconv.FormatInt(cents%10, 10)
}
