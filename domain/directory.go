package domain

import "time"

// Person is an area B user record: an entry in a directory that the generic
// CRUD routes manage. It is not an account; nobody logs in as a Person.
type Person struct {
	ID        int64
	Name      string
	Email     string
	Age       *int
	Address   *Address
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Address is the optional postal address of a Person.
type Address struct {
	Street  string
	City    string
	Zip     string
	Country string
}

// Bounds of a Person's fields: its name and each line of its address in
// characters, its age in years.
const (
	MaxPersonNameLength  = 255
	MaxAddressLineLength = 255
	MaxAge               = 150
)

// Check returns an Invalid error listing every rule the record breaks, field
// by field (name, email, age, then the address's lines as "address.street"
// and so on), or nil. The name and e-mail are required; age and address are
// optional.
func (p Person) Check() error {
	var vs Violations
	vs.Add("name", CheckPersonName(p.Name))
	vs.Add("email", CheckEmail(p.Email))
	if p.Age != nil {
		vs.Add("age", CheckAge(*p.Age))
	}
	if a := p.Address; a != nil {
		vs.Add("address.street", CheckAddressLine(a.Street))
		vs.Add("address.city", CheckAddressLine(a.City))
		vs.Add("address.zip", CheckAddressLine(a.Zip))
		vs.Add("address.country", CheckAddressLine(a.Country))
	}
	return vs.Err()
}

// CheckPersonName returns the rules a Person's name breaks: required, and at
// most MaxPersonNameLength characters.
func CheckPersonName(name string) []Rule {
	return checkText(name, MaxPersonNameLength)
}

// CheckAge returns the rules an age breaks: from 0 to MaxAge years.
func CheckAge(age int) []Rule {
	return checkRange(int64(age), 0, MaxAge)
}

// CheckAddressLine returns the rules a line of an address breaks: at most
// MaxAddressLineLength characters. Every line may be empty.
func CheckAddressLine(line string) []Rule {
	return checkLength(line, MaxAddressLineLength)
}

// Product is an area B product record. Prices are kept in cents so that two
// decimals survive every store exactly.
type Product struct {
	ID          int64
	Name        string
	PriceCents  int64
	Description string
	Stock       int64
	SKU         *string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Bounds of a Product's fields. MaxPrice, in whole units, keeps every price
// in cents below 2^53, so that JavaScript clients read each one exactly;
// MaxStock keeps stock within a 32-bit integer, which every client reads.
// The lengths count characters.
const (
	MaxProductNameLength = 255
	MaxPrice             = 999_999_999_999
	MaxDescriptionLength = 5000
	MaxStock             = 1<<31 - 1
	MaxSKULength         = 255
)

// Check returns an Invalid error listing every rule the product breaks,
// field by field (name, price, description, stock, sku), or nil.
func (p Product) Check() error {
	var vs Violations
	vs.Add("name", CheckProductName(p.Name))
	vs.Add("price", CheckPriceCents(p.PriceCents))
	vs.Add("description", CheckDescription(p.Description))
	vs.Add("stock", CheckStock(p.Stock))
	if p.SKU != nil {
		vs.Add("sku", CheckSKU(*p.SKU))
	}
	return vs.Err()
}

// CheckProductName returns the rules a product's name breaks: required, and
// at most MaxProductNameLength characters.
func CheckProductName(name string) []Rule {
	return checkText(name, MaxProductNameLength)
}

// CheckPriceCents returns the rules a price in cents breaks: at least 0 and
// at most MaxPrice whole units, the bound the rule names.
func CheckPriceCents(cents int64) []Rule {
	switch {
	case cents < 0:
		return []Rule{RuleN(RuleMinValue, 0)}
	case cents > MaxPrice*100:
		return []Rule{RuleN(RuleMaxValue, MaxPrice)}
	}
	return nil
}

// CheckDescription returns the rules a product's description breaks: at
// most MaxDescriptionLength characters. It may be empty.
func CheckDescription(description string) []Rule {
	return checkLength(description, MaxDescriptionLength)
}

// CheckStock returns the rules a stock count breaks: from 0 to MaxStock.
func CheckStock(stock int64) []Rule {
	return checkRange(stock, 0, MaxStock)
}

// CheckSKU returns the rules a given SKU breaks: required, since a product
// without one has a nil SKU rather than a blank one, which would clash with
// every other blank, and at most MaxSKULength characters.
func CheckSKU(sku string) []Rule {
	return checkText(sku, MaxSKULength)
}

// ErrSKUTaken is the conflict of two products with one SKU.
var ErrSKUTaken = &Error{Kind: Conflict, Code: "sku_taken", Fields: []Violation{{"sku", RuleUnique}}}
