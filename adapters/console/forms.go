package console

import (
	"strings"

	"github.com/inkwell/inkwell/domain"
)

// fieldNames are how the forms' sentences name their fields.
var fieldNames = map[string]string{
	"name":     "name",
	"email":    "e-mail address",
	"password": "password",
	"token":    "reset link",
	"title":    "title",
	"body":     "body",
	"status":   "status",
	"tags":     "tags",
	// Area B's records.
	"age":             "age",
	"address.street":  "street",
	"address.city":    "city",
	"address.zip":     "postal code",
	"address.country": "country",
	"price":           "price",
	"description":     "description",
	"stock":           "stock",
	"sku":             "SKU",
}

// fieldName is how the forms' sentences name field: by its own name, else
// an item of a list (tags.2) as its list.
func fieldName(field string) string {
	if name := fieldNames[field]; name != "" {
		return name
	}
	name, _, _ := strings.Cut(field, ".")
	if n := fieldNames[name]; n != "" {
		return n
	}
	return strings.ReplaceAll(name, "_", " ")
}

// formSentence words one broken rule of a field of the console's forms
// (the password reset, the first admin, a post): the rule codes come from
// the domain, the sentences are the pages' own. An item of a list (tags.2)
// is worded as its list.
func formSentence(v domain.Violation) string {
	field := fieldName(v.Field)
	name, param, _ := strings.Cut(string(v.Rule), ":")
	switch name {
	case string(domain.RuleRequired):
		if v.Field == "token" {
			return resetTokenSentence
		}
		return "Enter the " + field + "."
	case string(domain.RuleEmail):
		return "Enter a valid e-mail address."
	case domain.RuleMin:
		return "The " + field + " must be at least " + param + " characters long."
	case domain.RuleMax:
		return "The " + field + " must be at most " + param + " characters long."
	case domain.RuleMaxBytes:
		return "The " + field + " must be at most " + param + " bytes long."
	case string(domain.RuleUnique):
		return "An account already uses this " + field + "."
	case string(domain.RuleConfirmed):
		return "The " + field + " and its confirmation differ."
	case string(domain.RuleResetToken):
		return resetTokenSentence
	case domain.RuleMaxItems:
		return "Choose at most " + param + " " + field + "."
	case domain.RuleMinValue:
		return "The " + field + " must be at least " + param + "."
	case domain.RuleMaxValue:
		return "The " + field + " must be at most " + param + "."
	case string(domain.RuleInteger):
		return "The " + field + " must be a whole number."
	case string(domain.RuleNumeric):
		return "The " + field + " must be a number."
	case domain.RuleDecimal:
		return "The " + field + " takes at most two decimals."
	case string(domain.RuleExists):
		return "One of the " + field + " chosen no longer exists."
	case string(domain.RuleNoNullBytes), string(domain.RuleUTF8):
		return "The " + field + " holds characters it may not."
	}
	return "The " + field + " is not valid."
}

// resetTokenSentence is the refusal of a reset link that is wrong, used,
// expired or another address's.
const resetTokenSentence = "This password reset link is invalid or has expired, or is for another e-mail address. Ask for a new one."

// formErrors words every rule err broke, field by field; ok is false when
// err is not a refusal of the form's input (an Invalid or Conflict error
// naming fields), which the caller then answers as any other error.
func formErrors(err error) ([]string, bool) {
	de, ok := domain.AsError(err)
	if !ok || len(de.Fields) == 0 || (de.Kind != domain.Invalid && de.Kind != domain.Conflict) {
		return nil, false
	}
	sentences := make([]string, 0, len(de.Fields))
	for _, v := range de.Fields {
		sentences = append(sentences, formSentence(v))
	}
	return sentences, true
}

// confirmationErrors checks, before any use case runs, that a form's
// password and its confirmation are the same, as the API's "confirmed"
// rule does; with the password's own rules, so that every refusal shows at
// once.
func confirmationErrors(password, confirmation string) []string {
	if password == confirmation {
		return nil
	}
	out := []string{formSentence(domain.Violation{Field: "password", Rule: domain.RuleConfirmed})}
	for _, r := range domain.CheckPassword(password) {
		out = append(out, formSentence(domain.Violation{Field: "password", Rule: r}))
	}
	return out
}
