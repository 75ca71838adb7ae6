package app_test

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/inkwell/inkwell/ports"
)

// uploadOf encodes a w×h image as format ("png", "gif" or "jpeg") and
// returns it as an upload with the extension its header gives.
func uploadOf(t *testing.T, format string, w, h int) ports.Image {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, w, h), color.Palette{color.Black, color.White})
	var buf bytes.Buffer
	var err error
	ext := map[string]string{"png": ".png", "gif": ".gif", "jpeg": ".jpg"}[format]
	switch format {
	case "png":
		err = png.Encode(&buf, img)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	case "jpeg":
		err = jpeg.Encode(&buf, img, nil)
	default:
		t.Fatalf("no encoder for %q", format)
	}
	if err != nil {
		t.Fatal(err)
	}
	return ports.Image{Data: buf.Bytes(), Ext: ext}
}
