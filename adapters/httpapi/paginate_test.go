package httpapi

import (
	"reflect"
	"testing"
)

func TestPageWindow(t *testing.T) {
	for _, tc := range []struct {
		current, last int
		want          []int
	}{
		{1, 1, []int{1}},
		{3, 13, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}},
		{1, 14, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 13, 14}},
		{7, 50, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 49, 50}},
		{8, 50, []int{1, 2, 0, 5, 6, 7, 8, 9, 10, 11, 0, 49, 50}},
		{43, 50, []int{1, 2, 0, 40, 41, 42, 43, 44, 45, 46, 0, 49, 50}},
		{44, 50, []int{1, 2, 0, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50}},
		{45, 50, []int{1, 2, 0, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50}},
		{50, 50, []int{1, 2, 0, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50}},
	} {
		if got := pageWindow(tc.current, tc.last); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("pageWindow(%d, %d): got %v, want %v", tc.current, tc.last, got, tc.want)
		}
	}
}
