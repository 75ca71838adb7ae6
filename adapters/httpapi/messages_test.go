package httpapi

import (
	"reflect"
	"strings"
	"testing"

	"github.com/inkwell/inkwell/domain"
)

// everyRule holds one rule of each name the domain and the validator
// record, so that a name missing from a table shows.
var everyRule = []domain.Rule{
	domain.RuleRequired, domain.RuleString, domain.RuleInteger, domain.RuleNumeric, domain.RuleBoolean,
	domain.RuleArray, domain.RuleObject, domain.RuleNoNullBytes, domain.RuleUTF8, domain.RuleNoControlChars, domain.RuleEmail,
	domain.RuleConfirmed, domain.RuleUnique, domain.RuleExists, domain.RuleCurrentPassword,
	domain.RuleCredentials, domain.RuleImage, domain.RuleDimensions, domain.RulePublicURL,
	domain.RuleN(domain.RuleMin, 8), domain.RuleN(domain.RuleMax, 255), domain.RuleN(domain.RuleMaxBytes, 72),
	domain.RuleN(domain.RuleMinValue, 1), domain.RuleN(domain.RuleMaxValue, 100), domain.RuleN(domain.RuleMinItems, 1),
	domain.RuleN(domain.RuleMaxItems, 100), domain.RuleN(domain.RuleMaxKilobytes, 2048),
	domain.RuleOf(domain.RuleDecimal, "0", "2"), domain.RuleOf(domain.RuleIn, "draft", "published"),
	domain.RuleOf(domain.RuleMimes, "jpeg", "png"), domain.RuleN(domain.RuleMaxWebhooks, 20),
}

func TestLaravelMessages(t *testing.T) {
	for _, tc := range []struct {
		field string
		rule  domain.Rule
		want  string
	}{
		{"title", domain.RuleRequired, "The title field is required."},
		{"title", domain.RuleN(domain.RuleMax, 255), "The title field must not be greater than 255 characters."},
		{"password", domain.RuleN(domain.RuleMin, 8), "The password field must be at least 8 characters."},
		{"password", domain.RuleN(domain.RuleMaxBytes, 72), "The password field must not be greater than 72 bytes."},
		{"password", domain.RuleConfirmed, "The password field confirmation does not match."},
		{"current_password", domain.RuleRequired, "The current password field is required."},
		{"current_password", domain.RuleCurrentPassword, "The password is incorrect."},
		{"email", domain.RuleEmail, "The email field must be a valid email address."},
		{"email", domain.RuleUnique, "The email has already been taken."},
		{"email", domain.RuleCredentials, "The provided credentials are incorrect."},
		{"name", domain.RuleUnique, "The name has already been taken."},
		{"status", domain.RuleOf(domain.RuleIn, domain.Statuses...), "The selected status is invalid."},
		{"tags", domain.RuleArray, "The tags field must be an array."},
		{"tags.0", domain.RuleExists, "The selected tags.0 is invalid."},
		{"tags.0", domain.RuleInteger, "The tags.0 field must be an integer."},
		{"tags", domain.RuleN(domain.RuleMaxItems, 100), "The tags field must not have more than 100 items."},
		{"tags", domain.RuleN(domain.RuleMinItems, 1), "The tags field must have at least 1 items."},
		{"address", domain.RuleObject, "The address field must be an array."},
		{"per_page", domain.RuleN(domain.RuleMinValue, 1), "The per page field must be at least 1."},
		{"expires_in_minutes", domain.RuleN(domain.RuleMaxValue, 525600), "The expires in minutes field must not be greater than 525600."},
		{"price", domain.RuleOf(domain.RuleDecimal, "0", "2"), "The price field must have 0-2 decimal places."},
		{"price", domain.RuleNumeric, "The price field must be a number."},
		{"remove_image", domain.RuleBoolean, "The remove image field must be true or false."},
		{"title", domain.RuleNoNullBytes, "The title field must not contain null bytes."},
		{"title", domain.RuleUTF8, "The title field must be valid UTF-8."},
		{"title", domain.RuleString, "The title field must be a string."},
		{"image", domain.RuleImage, "The image field must be an image."},
		{"image", imageMimes, "The image field must be a file of type: jpeg, png, gif, webp."},
		{"image", domain.RuleN(domain.RuleMaxKilobytes, 5120), "The image field must not be greater than 5120 kilobytes."},
		{"image", domain.RuleDimensions, "The image field has invalid image dimensions."},
		{"cursor", domain.RuleExists, "The selected cursor is invalid."},
		{"f", "unheard_of", "The f field is invalid."},
	} {
		if got := laravelMessage(domain.Violation{Field: tc.field, Rule: tc.rule}); got != tc.want {
			t.Errorf("%s %s: got %q, want %q", tc.field, tc.rule, got, tc.want)
		}
	}
	for _, r := range everyRule {
		if _, ok := laravelRules[r.Name()]; !ok {
			t.Errorf("rule %q has no Laravel wording", r)
		}
		if got := laravelMessage(domain.Violation{Field: "f", Rule: r}); strings.Contains(got, ":attribute") || strings.Contains(got, ":params") {
			t.Errorf("rule %q: placeholder left in %q", r, got)
		}
	}
}

func TestLaravelFields(t *testing.T) {
	got := laravelFields([]domain.Violation{
		{Field: "title", Rule: domain.RuleNoNullBytes},
		{Field: "status", Rule: domain.RuleRequired},
		{Field: "title", Rule: domain.RuleN(domain.RuleMax, 255)},
	})
	want := map[string][]string{
		"title":  {"The title field must not contain null bytes.", "The title field must not be greater than 255 characters."},
		"status": {"The status field is required."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := laravelFields(nil); got != nil {
		t.Errorf("no violations: got %q, want nil", got)
	}
}
