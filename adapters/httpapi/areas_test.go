package httpapi_test

import (
	"net/http"
	"testing"
)

func TestAreaIgnoresLetterCase(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.do("GET", "/API/V1/POSTS/999999999", nil).expect(t, http.StatusNotFound, map[string]any{"success": false, "message": "Resource not found."})
		h.do("GET", "/Api/v1/Nothing-Here", nil).expect(t, http.StatusNotFound, map[string]any{"success": false, "message": "Resource not found."})
		h.do("DELETE", "/API/V1/TAGS", nil).expect(t, http.StatusMethodNotAllowed, map[string]any{"success": false, "message": "Method Not Allowed"})
		h.do("GET", "/API/V1/USERS/999999999", nil).expect(t, http.StatusNotFound, map[string]any{"success": false, "message": "User not found", "data": nil})
		h.do("GET", "/Products/999999999", nil).expect(t, http.StatusNotFound, map[string]any{"success": false, "message": "Product not found", "data": nil})
	})
}
