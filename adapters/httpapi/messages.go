package httpapi

import (
	"strings"

	"github.com/inkwell/inkwell/domain"
)

// laravelRules words each rule code as Laravel 10 and 11 word the rule in
// lang/en/validation.php, with Laravel's placeholders: :attribute is the
// attribute and :params the rule's parameters. The null-byte, UTF-8 and
// control-character lines are Inkwell's own, worded in the same style, because Laravel has no
// rule for values a database cannot store; an object is "an array" because
// PHP calls it one.
var laravelRules = map[string]string{
	string(domain.RuleRequired):        "The :attribute field is required.",
	string(domain.RuleString):          "The :attribute field must be a string.",
	string(domain.RuleInteger):         "The :attribute field must be an integer.",
	string(domain.RuleNumeric):         "The :attribute field must be a number.",
	string(domain.RuleBoolean):         "The :attribute field must be true or false.",
	string(domain.RuleArray):           "The :attribute field must be an array.",
	string(domain.RuleObject):          "The :attribute field must be an array.",
	string(domain.RuleNoNullBytes):     "The :attribute field must not contain null bytes.",
	string(domain.RuleUTF8):            "The :attribute field must be valid UTF-8.",
	string(domain.RuleNoControlChars):  "The :attribute field must not contain control characters.",
	string(domain.RuleEmail):           "The :attribute field must be a valid email address.",
	string(domain.RuleConfirmed):       "The :attribute field confirmation does not match.",
	string(domain.RuleUnique):          "The :attribute has already been taken.",
	string(domain.RuleExists):          "The selected :attribute is invalid.",
	string(domain.RuleCurrentPassword): "The password is incorrect.",
	string(domain.RuleCredentials):     "The provided credentials are incorrect.",
	string(domain.RuleResetToken):      "This password reset token is invalid.",
	string(domain.RuleImage):           "The :attribute field must be an image.",
	string(domain.RuleDimensions):      "The :attribute field has invalid image dimensions.",
	string(domain.RulePublicURL):       "The :attribute field must be a public http or https URL; loopback, private and other non-public addresses need WEBHOOKS_ALLOW_PRIVATE=true.",
	domain.RuleMin:                     "The :attribute field must be at least :params characters.",
	domain.RuleMax:                     "The :attribute field must not be greater than :params characters.",
	domain.RuleMaxBytes:                "The :attribute field must not be greater than :params bytes.",
	domain.RuleMinValue:                "The :attribute field must be at least :params.",
	domain.RuleMaxValue:                "The :attribute field must not be greater than :params.",
	domain.RuleMinItems:                "The :attribute field must have at least :params items.",
	domain.RuleMaxItems:                "The :attribute field must not have more than :params items.",
	domain.RuleMaxKilobytes:            "The :attribute field must not be greater than :params kilobytes.",
	domain.RuleDecimal:                 "The :attribute field must have :params decimal places.",
	domain.RuleIn:                      "The selected :attribute is invalid.",
	domain.RuleMimes:                   "The :attribute field must be a file of type: :params.",
	domain.RuleMaxWebhooks:             "No more than :params webhooks may be registered; delete one first.",
}

// laravelParamSeparator joins a rule's parameters where Laravel does not
// join them with ", ": decimal:0,2 reads "0-2".
var laravelParamSeparator = map[string]string{domain.RuleDecimal: "-"}

// laravelMessage words one violation. The attribute is the field's key with
// underscores as spaces ("current password"), as Laravel displays it; a
// rule missing from the table still gets a sentence rather than a code.
func laravelMessage(v domain.Violation) string {
	name := v.Rule.Name()
	format, ok := laravelRules[name]
	if !ok {
		format = "The :attribute field is invalid."
	}
	sep, ok := laravelParamSeparator[name]
	if !ok {
		sep = ", "
	}
	return strings.NewReplacer(":attribute", strings.ReplaceAll(v.Field, "_", " "), ":params", strings.Join(v.Rule.Params(), sep)).Replace(format)
}

// laravelFields is the errors object of a validation failure: each field's
// messages in the order its rules were checked. It is nil when there are
// none, so that the body leaves the object out.
func laravelFields(vs []domain.Violation) map[string][]string {
	if len(vs) == 0 {
		return nil
	}
	out := make(map[string][]string)
	for _, v := range vs {
		out[v.Field] = append(out[v.Field], laravelMessage(v))
	}
	return out
}
