package shorttitle

import (
	"slices"
	"testing"
)

func TestGrams(t *testing.T) {
	tests := []struct {
		title string
		want  []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"aaa", []string{"a", "aa"}},
		{"été", []string{"é", "t", "ét", "té"}},
		{"a 日本", []string{"a", " ", "a ", "日", " 日", "本", "日本"}},
		{"%_\\", []string{"%", "_", "%_", "\\", "_\\"}},
		{"a\xffb\u00e9", []string{"a", "b", "\u00e9", "b\u00e9"}},
		{"\ufffd\ufffd", []string{"\ufffd", "\ufffd\ufffd"}},
	}
	for _, tt := range tests {
		if got := Grams(tt.title); !slices.Equal(got, tt.want) {
			t.Errorf("Grams(%q) = %q, want %q", tt.title, got, tt.want)
		}
	}
}

func TestKept(t *testing.T) {
	tests := []struct {
		needle string
		want   bool
	}{
		{"", false},
		{"e", true},
		{"er", true},
		{"日本", true},
		{"ern", false},
		{"\xff", false},
		{"a\xff", false},
	}
	for _, tt := range tests {
		if got := Kept(tt.needle); got != tt.want {
			t.Errorf("Kept(%q) = %v, want %v", tt.needle, got, tt.want)
		}
	}
}
