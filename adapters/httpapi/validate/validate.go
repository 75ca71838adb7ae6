// Package validate checks a decoded request body against declared rules and
// turns the failures into one domain error, whose fields carry rule codes
// (domain.Rule) and no words: each HTTP area words them in its own table.
//
// A handler declares each field with the method of its type and the field's
// rules, reads the typed values, and then asks for the error:
//
//	v := validate.New(body)
//	title := v.String("title", validate.Required, validate.Check(domain.CheckTitle))
//	email := v.String("email", validate.Required, validate.Check(domain.CheckEmail))
//	if err := v.Err(); err != nil {
//		return err
//	}
//
// The body is what encoding/json produces with UseNumber (nil, bool,
// json.Number, string, []any, map[string]any) or what a form decoder
// produces (strings, lists and objects). Every rule copes with every such
// value: a value of the wrong type fails the field's type rule and never
// panics.
//
// The semantics follow Laravel's validator, because area A promises
// Laravel's responses and area B's users expect the same things of an
// Express API:
//   - strings are trimmed of white space (including Unicode spaces and the
//     zero-width characters Laravel's TrimStrings removes) unless NoTrim is
//     given, and sizes count characters (runes), not bytes;
//   - a field that is absent and not Required is skipped;
//   - Required fails on an absent field, null, a blank string, an empty list
//     or an empty object, and then skips the field's other rules;
//   - null or a blank string in a field that is not Required fails the
//     field's type rule unless the field is Nullable, as Laravel's
//     ConvertEmptyStringsToNull makes it do;
//   - a value of the wrong type fails the type rule only; otherwise every
//     failing rule is listed, in the order the rules were given;
//   - a string containing a NUL byte or invalid UTF-8 fails, since no store
//     keeps such text faithfully;
//   - numbers, integers and booleans may arrive as strings (form bodies and
//     query strings carry nothing else) and are converted, except that a
//     validator made with NewTyped refuses numbers written as strings.
package validate

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/inkwell/inkwell/domain"
)

// Validator checks the fields of one object and collects the failures of
// the whole body. The zero value is not usable; call New.
type Validator struct {
	body   map[string]any
	prefix string
	// inert marks the validator of an object that was not given: its fields
	// are neither checked nor reported.
	inert bool
	// typed makes Int and Cents refuse a string (see NewTyped).
	typed    bool
	failures *failures
}

// failures is shared by a validator and the validators of its objects, so
// the outermost one reports the whole body.
type failures struct {
	list []domain.Violation
}

// New returns a validator of body. A nil body is an empty one.
func New(body map[string]any) *Validator {
	return &Validator{body: body, failures: &failures{}}
}

// NewTyped returns a validator of a JSON body that must send numbers as
// JSON numbers: Int and Cents, in body and in its objects, fail a string
// with their type rule, where New's validator converts it. A blank string
// still counts as missing. It is for an API that promises JSON types, whose
// forms, carrying nothing but strings, are read by New's.
func NewTyped(body map[string]any) *Validator {
	return &Validator{body: body, typed: true, failures: &failures{}}
}

// Err returns nil when every check passed, and otherwise a *domain.Error of
// Kind domain.Invalid whose Fields lists each broken rule with its field's
// key (nested keys are dotted: "address.city", "tags.0"), in the order the
// checks ran: field by field, and within a field in rule order. The error
// is a copy: later checks do not change it.
//
// Err returns the error interface, not *domain.Error, so that a nil result
// compares equal to nil in the caller.
func (v *Validator) Err() error {
	if len(v.failures.list) == 0 {
		return nil
	}
	return domain.InvalidFields(slices.Clone(v.failures.list)...)
}

// Has reports whether the body holds field, whatever its value, null
// included. Update handlers use it to change only the fields a request
// names, as Laravel's "sometimes" does.
func (v *Validator) Has(field string) bool {
	if v.inert {
		return false
	}
	_, ok := v.body[field]
	return ok
}

// Filled reports whether the body holds field with a value that Required
// accepts: not null, not a blank string, not an empty list or object.
func (v *Validator) Filled(field string) bool {
	if v.inert {
		return false
	}
	raw, ok := v.body[field]
	return ok && !blank(raw, true)
}

// Fail records that field broke rule, after any failures already recorded
// for it. Handlers use it for checks the rules cannot make, such as whether
// an upload is an image. A rule already recorded for the field is not
// repeated.
func (v *Validator) Fail(field string, rule domain.Rule) {
	v.record(v.key(field), rule)
}

// Invalid records that field names nothing: Laravel's exists rule, for an
// id that names no record or a cursor that names no position.
func (v *Validator) Invalid(field string) {
	v.record(v.key(field), domain.RuleExists)
}

// Elem returns the key of the element of list at index, "tags.0", as
// messages and Fields name it.
func Elem(list string, index int) string {
	return list + "." + strconv.Itoa(index)
}

func (v *Validator) key(field string) string { return v.prefix + field }

// record adds the failure unless the field has it already. The failures of
// one field are recorded together, since each field is checked in one go,
// so appending keeps them field by field.
func (v *Validator) record(key string, rule domain.Rule) {
	f := v.failures
	failure := domain.Violation{Field: key, Rule: rule}
	if slices.Contains(f.list, failure) {
		return
	}
	f.list = append(f.list, failure)
}

// String checks a string field and returns its value, trimmed unless NoTrim
// is given. It returns "" when the field is absent, null, blank or fails.
func (v *Validator) String(field string, rules ...StringRule) string {
	s := specOf(rules)
	key, raw, ok := v.scalar(field, s, domain.RuleString)
	if !ok {
		return ""
	}
	confirmation := func() (any, bool) {
		c, ok := v.body[field+"_confirmation"]
		return c, ok
	}
	str, ok := v.text(key, raw, s, confirmation)
	if !ok {
		return ""
	}
	return str
}

// Int checks an integer field: a JSON number with a whole value (42, 42.0,
// 4e1) or a string written as an integer ("42"), that fits int64. It
// returns nil when the field is absent, null, blank or fails.
func (v *Validator) Int(field string, rules ...IntRule) *int64 {
	s := specOf(rules)
	key, raw, ok := v.scalar(field, s, domain.RuleInteger)
	if !ok {
		return nil
	}
	if v.refuses(raw) {
		v.record(key, domain.RuleInteger)
		return nil
	}
	n, ok := v.integer(key, raw, s)
	if !ok {
		return nil
	}
	return &n
}

// Cents checks a price: a JSON number or numeric string of at least 0 with
// at most two decimals, and returns it in cents, computed from the decimal
// text so that no binary rounding creeps in ("19.99" is 1999, and so is
// 19.990). Max bounds it in whole units. Without a Max, or with a larger
// one, the bound is the largest whole number of units whose cents fit
// int64. Its checks run in the order: number, at least 0, two decimals,
// bound. It returns nil when the field is absent, null, blank or fails.
func (v *Validator) Cents(field string, rules ...CentsRule) *int64 {
	s := specOf(rules)
	key, raw, ok := v.scalar(field, s, domain.RuleNumeric)
	if !ok {
		return nil
	}
	if v.refuses(raw) {
		v.record(key, domain.RuleNumeric)
		return nil
	}
	d, ok := numberOf(trimmed(raw, false))
	if !ok {
		v.record(key, domain.RuleNumeric)
		return nil
	}
	if d.neg && !d.isZero() {
		v.record(key, domain.RuleN(domain.RuleMinValue, 0))
		ok = false
	}
	if d.decimals() > 2 {
		v.record(key, domain.RuleOf(domain.RuleDecimal, "0", "2"))
		ok = false
	}
	limit := int64(maxCentsUnits)
	for _, r := range s.checks {
		if r.op == opMax {
			limit = max(0, min(limit, r.n))
		}
	}
	if !d.neg && cmpAbs(d, decimalOf(limit)) > 0 {
		v.record(key, domain.RuleN(domain.RuleMaxValue, limit))
		ok = false
	}
	if !ok {
		return nil
	}
	// The checks above leave a value of at most two decimals within int64
	// cents, so the conversion cannot fail.
	cents, _ := d.scaled(2)
	return &cents
}

// refuses reports whether raw is a number written as a string that a typed
// validator refuses.
func (v *Validator) refuses(raw any) bool {
	_, isText := raw.(string)
	return v.typed && isText
}

// maxCentsUnits is the largest whole number of units whose cents fit int64.
const maxCentsUnits = (1<<63 - 1) / 100

// Bool checks a boolean field: true or false, the numbers 0 and 1, or the
// strings "true", "false", "1" and "0" (in any case), which is how forms
// and query strings send booleans. It returns nil when the field is
// absent, null, blank or fails.
func (v *Validator) Bool(field string, rules ...BoolRule) *bool {
	key, raw, ok := v.scalar(field, specOf(rules), domain.RuleBoolean)
	if !ok {
		return nil
	}
	var b bool
	switch x := trimmed(raw, false).(type) {
	case bool:
		b = x
	case string:
		switch strings.ToLower(x) {
		case "true", "1":
			b = true
		case "false", "0":
			b = false
		default:
			v.record(key, domain.RuleBoolean)
			return nil
		}
	default:
		d, isNumber := numberOf(x)
		if n, whole := d.scaled(0); !isNumber || !whole || (n != 0 && n != 1) {
			v.record(key, domain.RuleBoolean)
			return nil
		}
		b = !d.isZero()
	}
	return &b
}

// Object checks a field that must hold an object and returns a validator of
// its fields, whose keys are prefixed with the field's ("address.city"),
// and whether the object was given. The returned validator is never nil;
// when the object is absent, null or not an object, its fields are neither
// checked nor reported, so Required on a sub-field means "required in a
// given object". Its failures are part of v's error, and its Err, like v's,
// reports the whole body.
func (v *Validator) Object(field string, rules ...ObjectRule) (*Validator, bool) {
	key := v.key(field)
	sub := &Validator{prefix: key + ".", inert: true, typed: v.typed, failures: v.failures}
	if v.inert {
		return sub, false
	}
	s := specOf(rules)
	raw, present := v.body[field]
	if !v.present(key, raw, present, s, domain.RuleObject) {
		return sub, false
	}
	m, ok := raw.(map[string]any)
	if !ok {
		v.record(key, domain.RuleObject)
		return sub, false
	}
	sub.body, sub.inert = m, false
	return sub, true
}

// Strings checks a list of strings. Required, Nullable, MinItems and
// MaxItems apply to the list; the other rules apply to each element, whose
// failures are keyed "abilities.0". It returns nil when the field is
// absent, null or fails, and an empty list for [].
func (v *Validator) Strings(field string, rules ...StringsRule) []string {
	return listOf(v, field, specOf(rules), domain.RuleString, func(key string, item any, elem spec) (string, bool) {
		return v.text(key, item, elem, nil)
	})
}

// Ints checks a list of integers, such as tag ids. Required, Nullable,
// MinItems and MaxItems apply to the list; Min and Max to each element,
// whose failures are keyed "tags.0". Whether the ids name records is the
// caller's check, reported with Invalid(Elem("tags", i)). It returns nil
// when the field is absent, null or fails, and an empty list for [].
func (v *Validator) Ints(field string, rules ...IntsRule) []int64 {
	return listOf(v, field, specOf(rules), domain.RuleInteger, v.integer)
}

// listOf checks a list field with the list's own rules of s, then each
// element with the others: a blank element breaks blankRule, and each
// reads any other, keyed "field.i". It returns nil when the field is
// absent, null or fails, and an empty list for [].
func listOf[T any](v *Validator, field string, s spec, blankRule domain.Rule, each func(key string, item any, elem spec) (T, bool)) []T {
	if v.inert {
		return nil
	}
	key := v.key(field)
	list, elem := s.split()
	items, isList, ok := v.list(key, field, list)
	if !isList {
		return nil
	}
	out := make([]T, len(items))
	for i, item := range items {
		k := Elem(key, i)
		if blank(item, false) {
			v.record(k, blankRule)
			ok = false
			continue
		}
		x, good := each(k, item, elem)
		out[i], ok = x, ok && good
	}
	if !ok {
		return nil
	}
	return out
}

// list runs the presence, type and item-count checks of a list field. It
// returns the elements and whether there is a list whose elements should be
// checked, which a list with too many items still is, so that every failure
// is listed; ok is false when a check failed.
func (v *Validator) list(key, field string, s spec) (items []any, isList, ok bool) {
	raw, present := v.body[field]
	if !v.present(key, raw, present, s, domain.RuleArray) {
		return nil, false, false
	}
	items, isList = raw.([]any)
	if !isList {
		v.record(key, domain.RuleArray)
		return nil, false, false
	}
	ok = true
	n := int64(len(items))
	for _, r := range s.checks {
		switch {
		case r.op == opMinItems && n < r.n:
			v.record(key, domain.RuleN(domain.RuleMinItems, r.n))
			ok = false
		case r.op == opMaxItems && n > r.n:
			v.record(key, domain.RuleN(domain.RuleMaxItems, r.n))
			ok = false
		}
	}
	return items, true, ok
}

// scalar reads field for the check of one value: its key, its value, and
// whether there is a value to check, which present decides (recording
// what s says of a missing, null or blank one, typeRule for null). An
// inert validator checks nothing.
func (v *Validator) scalar(field string, s spec, typeRule domain.Rule) (string, any, bool) {
	if v.inert {
		return "", nil, false
	}
	key := v.key(field)
	raw, present := v.body[field]
	return key, raw, v.present(key, raw, present, s, typeRule)
}

// present applies the presence rules and reports whether the field's value
// should go on to its type check. typeRule is the failure for null or a
// blank string in a field that is neither Required nor Nullable.
func (v *Validator) present(key string, raw any, present bool, s spec, typeRule domain.Rule) bool {
	switch {
	case !present:
		if s.required {
			v.record(key, domain.RuleRequired)
		}
		return false
	case blank(raw, false):
		switch {
		case s.required:
			v.record(key, domain.RuleRequired)
		case !s.nullable:
			v.record(key, typeRule)
		}
		return false
	case s.required && blank(raw, true):
		v.record(key, domain.RuleRequired)
		return false
	}
	return true
}

// text checks a string value. confirmation, when not nil, looks up the
// value Confirmed compares with.
func (v *Validator) text(key string, raw any, s spec, confirmation func() (any, bool)) (string, bool) {
	str, ok := raw.(string)
	if !ok {
		v.record(key, domain.RuleString)
		return "", false
	}
	if !s.noTrim {
		str = trim(str)
	}
	if strings.IndexByte(str, 0) >= 0 {
		v.record(key, domain.RuleNoNullBytes)
		ok = false
	}
	if !utf8.ValidString(str) {
		v.record(key, domain.RuleUTF8)
		ok = false
	}
	for _, r := range s.checks {
		switch r.op {
		case opCheck:
			for _, broken := range r.check(str) {
				v.record(key, broken)
				ok = false
			}
		case opMin:
			if int64(utf8.RuneCountInString(str)) < r.n {
				v.record(key, domain.RuleN(domain.RuleMin, r.n))
				ok = false
			}
		case opMax:
			if int64(utf8.RuneCountInString(str)) > r.n {
				v.record(key, domain.RuleN(domain.RuleMax, r.n))
				ok = false
			}
		case opMaxBytes:
			if int64(len(str)) > r.n {
				v.record(key, domain.RuleN(domain.RuleMaxBytes, r.n))
				ok = false
			}
		case opEmail:
			if !domain.IsEmail(str) {
				v.record(key, domain.RuleEmail)
				ok = false
			}
		case opIn:
			if !slices.Contains(r.values, str) {
				v.record(key, domain.RuleOf(domain.RuleIn, r.values...))
				ok = false
			}
		case opConfirmed:
			if confirmation == nil {
				break
			}
			other, present := confirmation()
			if c, isString := other.(string); !present || !isString || trimmed(c, s.noTrim) != str {
				v.record(key, domain.RuleConfirmed)
				ok = false
			}
		}
	}
	return str, ok
}

// integer checks an integer value against Min and Max.
func (v *Validator) integer(key string, raw any, s spec) (int64, bool) {
	n, ok := integerOf(trimmed(raw, false))
	if !ok {
		v.record(key, domain.RuleInteger)
		return 0, false
	}
	for _, r := range s.checks {
		switch {
		case r.op == opCheck:
			for _, broken := range r.checkInt(n) {
				v.record(key, broken)
				ok = false
			}
		case r.op == opMin && n < r.n:
			v.record(key, domain.RuleN(domain.RuleMinValue, r.n))
			ok = false
		case r.op == opMax && n > r.n:
			v.record(key, domain.RuleN(domain.RuleMaxValue, r.n))
			ok = false
		}
	}
	return n, ok
}

// blank reports whether raw is null or a string of nothing but white space
// (which Laravel's middleware turns into null); with containers, also
// whether it is an empty list or object, which Required refuses too.
func blank(raw any, containers bool) bool {
	switch x := raw.(type) {
	case nil:
		return true
	case string:
		return trim(x) == ""
	case []any:
		return containers && len(x) == 0
	case map[string]any:
		return containers && len(x) == 0
	}
	return false
}

// trimmed returns raw trimmed when it is a string and keep is false, and raw
// unchanged otherwise.
func trimmed(raw any, keep bool) any {
	if s, ok := raw.(string); ok && !keep {
		return trim(s)
	}
	return raw
}

// trim removes what Laravel's TrimStrings middleware removes: leading and
// trailing white space, Unicode spaces included, and the byte-order mark,
// zero-width space and left-to-right mark.
func trim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '\uFEFF' || r == '\u200B' || r == '\u200E'
	})
}
