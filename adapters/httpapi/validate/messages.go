package validate

import (
	"fmt"
	"strings"
)

// Dialect selects the wording of messages and the envelope message of the
// resulting error. Both dialects check the same rules the same way.
type Dialect int

const (
	// Laravel words messages as Laravel 10 and 11 do ("The name field is
	// required."), for area A. The error's Message is "Validation failed.".
	Laravel Dialect = iota + 1
	// Plain words messages as an Express API would ("name is required"),
	// for area B. The error's Message is the first failure.
	Plain
)

// String names the dialect, for panics and test output.
func (d Dialect) String() string {
	switch d {
	case Laravel:
		return "laravel"
	case Plain:
		return "plain"
	}
	return fmt.Sprintf("dialect(%d)", int(d))
}

// msg identifies a message independently of its wording.
type msg int

const (
	msgRequired msg = iota + 1
	msgString
	msgInteger
	msgNumber
	msgBoolean
	msgObject
	msgArray
	msgNulByte
	msgUTF8
	msgMinChars
	msgMaxChars
	msgMaxBytes
	msgMinValue
	msgMaxValue
	msgDecimals
	msgMinItems
	msgMaxItems
	msgEmail
	msgIn
	msgConfirmed
	msgSelected
)

// laravelText holds Laravel's lang/en/validation.php lines that the rules
// use; %[1]s is the attribute and %[2]s the rule's parameter. The null-byte
// and UTF-8 lines are Inkwell's own, worded in the same style, because
// Laravel has no rule for values a database cannot store.
var laravelText = map[msg]string{
	msgRequired:  "The %[1]s field is required.",
	msgString:    "The %[1]s field must be a string.",
	msgInteger:   "The %[1]s field must be an integer.",
	msgNumber:    "The %[1]s field must be a number.",
	msgBoolean:   "The %[1]s field must be true or false.",
	msgObject:    "The %[1]s field must be an array.",
	msgArray:     "The %[1]s field must be an array.",
	msgNulByte:   "The %[1]s field must not contain null bytes.",
	msgUTF8:      "The %[1]s field must be valid UTF-8.",
	msgMinChars:  "The %[1]s field must be at least %[2]s characters.",
	msgMaxChars:  "The %[1]s field must not be greater than %[2]s characters.",
	msgMaxBytes:  "The %[1]s field must not be greater than %[2]s bytes.",
	msgMinValue:  "The %[1]s field must be at least %[2]s.",
	msgMaxValue:  "The %[1]s field must not be greater than %[2]s.",
	msgDecimals:  "The %[1]s field must have 0-2 decimal places.",
	msgMinItems:  "The %[1]s field must have at least %[2]s items.",
	msgMaxItems:  "The %[1]s field must not have more than %[2]s items.",
	msgEmail:     "The %[1]s field must be a valid email address.",
	msgIn:        "The selected %[1]s is invalid.",
	msgConfirmed: "The %[1]s field confirmation does not match.",
	msgSelected:  "The selected %[1]s is invalid.",
}

// plainText holds area B's messages: the field's key, then the rule, with
// no final period, as Express validators word them.
var plainText = map[msg]string{
	msgRequired:  "%[1]s is required",
	msgString:    "%[1]s must be a string",
	msgInteger:   "%[1]s must be an integer",
	msgNumber:    "%[1]s must be a number",
	msgBoolean:   "%[1]s must be a boolean",
	msgObject:    "%[1]s must be an object",
	msgArray:     "%[1]s must be an array",
	msgNulByte:   "%[1]s must not contain null bytes",
	msgUTF8:      "%[1]s must be valid UTF-8",
	msgMinChars:  "%[1]s must be at least %[2]s characters",
	msgMaxChars:  "%[1]s must be at most %[2]s characters",
	msgMaxBytes:  "%[1]s must be at most %[2]s bytes",
	msgMinValue:  "%[1]s must be at least %[2]s",
	msgMaxValue:  "%[1]s must be at most %[2]s",
	msgDecimals:  "%[1]s must have at most two decimals",
	msgMinItems:  "%[1]s must have at least %[2]s items",
	msgMaxItems:  "%[1]s must have at most %[2]s items",
	msgEmail:     "%[1]s must be a valid email address",
	msgIn:        "%[1]s must be one of %[2]s",
	msgConfirmed: "%[1]s confirmation does not match",
	msgSelected:  "%[1]s is invalid",
}

// text words message m for the field with key, arg being the rule's
// parameter. Laravel shows a key with its underscores as spaces ("current
// password"), as its displayable-attribute rule does; Plain shows the key.
func (d Dialect) text(m msg, key, arg string) string {
	if d == Plain {
		return fmt.Sprintf(plainText[m], key, arg)
	}
	return fmt.Sprintf(laravelText[m], strings.ReplaceAll(key, "_", " "), arg)
}
