package validate

import "github.com/inkwell/inkwell/domain"

// op names the check a rule performs.
type op int

const (
	opRequired op = iota + 1
	opNullable
	opNoTrim
	opMin
	opMax
	opMaxBytes
	opEmail
	opIn
	opConfirmed
	opMinItems
	opMaxItems
	opCheck
)

// rule is the data every rule carries. The exported rule values wrap it in
// small types whose marker methods say which field kinds accept them, so that
// a misplaced rule (Email on an integer) fails to compile instead of being
// silently ignored.
type rule struct {
	op     op
	n      int64
	values []string
	// check is a domain check of a string, checkInt one of an integer.
	check    func(string) []domain.Rule
	checkInt func(int64) []domain.Rule
}

// spec returns the rule's data; the wrapping types inherit it.
func (r rule) spec() rule { return r }

// StringRule is a rule that String accepts.
type StringRule interface {
	spec() rule
	forString()
}

// IntRule is a rule that Int accepts.
type IntRule interface {
	spec() rule
	forInt()
}

// CentsRule is a rule that Cents accepts.
type CentsRule interface {
	spec() rule
	forCents()
}

// BoolRule is a rule that Bool accepts.
type BoolRule interface {
	spec() rule
	forBool()
}

// ObjectRule is a rule that Object accepts.
type ObjectRule interface {
	spec() rule
	forObject()
}

// StringsRule is a rule that Strings accepts. Required, Nullable, MinItems
// and MaxItems apply to the list; every other rule applies to each element.
type StringsRule interface {
	spec() rule
	forStrings()
}

// IntsRule is a rule that Ints accepts. Required, Nullable, MinItems and
// MaxItems apply to the list; Min, Max and CheckInt apply to each element.
type IntsRule interface {
	spec() rule
	forInts()
}

// presenceRule decides what a missing or empty value means; every kind of
// field accepts it.
type presenceRule struct{ rule }

func (presenceRule) forString()  {}
func (presenceRule) forInt()     {}
func (presenceRule) forCents()   {}
func (presenceRule) forBool()    {}
func (presenceRule) forObject()  {}
func (presenceRule) forStrings() {}
func (presenceRule) forInts()    {}

// textRule applies to a string, alone or as an element of a list.
type textRule struct{ rule }

func (textRule) forString()  {}
func (textRule) forStrings() {}

// confirmedRule compares a field with its _confirmation sibling, which only
// a named field has.
type confirmedRule struct{ rule }

func (confirmedRule) forString() {}

// minRule is a lower bound: characters for strings, the value for integers.
type minRule struct{ rule }

func (minRule) forString()  {}
func (minRule) forInt()     {}
func (minRule) forStrings() {}
func (minRule) forInts()    {}

// maxRule is an upper bound: characters for strings, the value for integers,
// whole currency units for Cents.
type maxRule struct{ rule }

func (maxRule) forString()  {}
func (maxRule) forInt()     {}
func (maxRule) forCents()   {}
func (maxRule) forStrings() {}
func (maxRule) forInts()    {}

// itemsRule bounds the length of a list.
type itemsRule struct{ rule }

func (itemsRule) forStrings() {}
func (itemsRule) forInts()    {}

var (
	// Required fails a field that is absent, null, an empty or blank string,
	// an empty list or an empty object, and then skips the field's other
	// rules. Without it an absent field is skipped.
	Required = presenceRule{rule{op: opRequired}}

	// Nullable lets a present field be null or a blank string: the field is
	// then skipped and yields no value. Without it such a value fails the
	// field's type rule, as Laravel's ConvertEmptyStringsToNull makes it do.
	Nullable = presenceRule{rule{op: opNullable}}

	// NoTrim keeps surrounding white space, as Laravel's TrimStrings does
	// for passwords, whose every character counts.
	NoTrim = textRule{rule{op: opNoTrim}}

	// Email requires an address a person can receive mail at; see
	// domain.IsEmail for what that accepts.
	Email = textRule{rule{op: opEmail}}

	// Confirmed requires the field's value to equal the string in the field
	// named field+"_confirmation", trimmed the same way.
	Confirmed = confirmedRule{rule{op: opConfirmed}}
)

// Min is a lower bound: at least n characters (runes) for a string, at
// least n for an integer.
func Min(n int64) minRule { return minRule{rule{op: opMin, n: n}} }

// Max is an upper bound: at most n characters (runes) for a string, at most
// n for an integer, at most n whole units for Cents.
func Max(n int64) maxRule { return maxRule{rule{op: opMax, n: n}} }

// MaxBytes bounds a string's length in bytes of UTF-8, for stores and
// algorithms (bcrypt reads 72 bytes) that count bytes rather than
// characters.
func MaxBytes(n int64) textRule { return textRule{rule{op: opMaxBytes, n: n}} }

// In requires a string to equal one of values exactly.
func In(values ...string) textRule { return textRule{rule{op: opIn, values: values}} }

// Check applies a domain rule check to a string once it has passed the
// type checks: the rules check returns are recorded as the field's
// failures, in their order. It lets a request report a domain invariant
// (domain.CheckTitle) together with its other failures, from the one place
// that states the invariant.
func Check[T ~string](check func(T) []domain.Rule) textRule {
	return textRule{rule{op: opCheck, check: func(s string) []domain.Rule { return check(T(s)) }}}
}

// checkIntRule applies a domain check to an integer, alone or as an
// element of a list.
type checkIntRule struct{ rule }

func (checkIntRule) forInt()  {}
func (checkIntRule) forInts() {}

// CheckInt applies a domain rule check to an integer once it has passed the
// type check, as Check does to a string (domain.CheckAge, domain.CheckStock).
func CheckInt[T ~int | ~int64](check func(T) []domain.Rule) checkIntRule {
	return checkIntRule{rule{op: opCheck, checkInt: func(n int64) []domain.Rule { return check(T(n)) }}}
}

// MinItems requires a list to hold at least n elements.
func MinItems(n int64) itemsRule { return itemsRule{rule{op: opMinItems, n: n}} }

// MaxItems requires a list to hold at most n elements.
func MaxItems(n int64) itemsRule { return itemsRule{rule{op: opMaxItems, n: n}} }

// spec is a field's rules sorted into the presence flags and the ordered
// checks that run once the value has the right type.
type spec struct {
	required bool
	nullable bool
	noTrim   bool
	checks   []rule
}

// specOf sorts the rules a field was declared with.
func specOf[R interface{ spec() rule }](rules []R) spec {
	var s spec
	for _, r := range rules {
		switch r := r.spec(); r.op {
		case opRequired:
			s.required = true
		case opNullable:
			s.nullable = true
		case opNoTrim:
			s.noTrim = true
		default:
			s.checks = append(s.checks, r)
		}
	}
	return s
}

// split separates a list's own rules (presence and item counts) from the
// rules its elements must pass.
func (s spec) split() (list, elem spec) {
	list = spec{required: s.required, nullable: s.nullable}
	elem = spec{noTrim: s.noTrim}
	for _, r := range s.checks {
		if r.op == opMinItems || r.op == opMaxItems {
			list.checks = append(list.checks, r)
		} else {
			elem.checks = append(elem.checks, r)
		}
	}
	return list, elem
}
