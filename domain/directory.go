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

// ErrSKUTaken is the conflict of two products with one SKU.
var ErrSKUTaken = &Error{Kind: Conflict, Code: "sku_taken", Fields: []Violation{{"sku", RuleUnique}}}
