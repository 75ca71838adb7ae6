package domain

import (
	"bytes"
	"encoding/binary"
	"image"

	// The decoders of the accepted formats register themselves with
	// image.DecodeConfig; WebP, which the standard library lacks, is read
	// by webpSize.
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"
)

// MaxImageSide bounds the width and height of an uploaded image, so that
// whoever decodes a stored image in full never allocates more than it can
// hold: a few kilobytes of compressed pixels can declare gigapixels.
const MaxImageSide = 10000

// The sizes of the images a user uploads, in kilobytes: a post's image and
// an avatar.
const (
	MaxPostImageKilobytes = 5120
	MaxAvatarKilobytes    = 2048
)

// ImageExtensions maps the accepted formats, as image.DecodeConfig names
// them, to the extension a stored image gets. Only these are accepted.
var ImageExtensions = map[string]string{"jpeg": ".jpg", "png": ".png", "gif": ".gif", "webp": ".webp"}

// ImageMimes is the rule of the accepted formats, named as Laravel's mimes
// rule names them.
var ImageMimes = RuleOf(RuleMimes, "jpeg", "png", "gif", "webp")

// ImageHeader is what an image's header says: its format, the extension it
// is stored under, and its size in pixels.
type ImageHeader struct {
	Format        string
	Ext           string
	Width, Height int
}

// DecodeImageHeader reads the header of data: ok when data is an image of
// an accepted format with a width and height of at least one. Only the
// header is decoded, never the pixels, so a header declaring gigapixels
// costs nothing; whether a file is an image is decided so, never by its
// name or declared type.
func DecodeImageHeader(data []byte) (ImageHeader, bool) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		w, h, ok := webpSize(data)
		if !ok {
			return ImageHeader{}, false
		}
		cfg, format = image.Config{Width: w, Height: h}, "webp"
	}
	ext, ok := ImageExtensions[format]
	if !ok || cfg.Width < 1 || cfg.Height < 1 {
		return ImageHeader{}, false
	}
	return ImageHeader{Format: format, Ext: ext, Width: cfg.Width, Height: cfg.Height}, true
}

// CheckImage returns the header of data and the rules it breaks as an
// uploaded image of at most maxKB kilobytes, as the Laravel rules
// "image|mimes:jpeg,png,gif,webp|max:<maxKB>|dimensions:max_width=10000,max_height=10000"
// would: image and ImageMimes for what is not an image of an accepted
// format, max_kilobytes for a file too large, dimensions for an image wider
// or higher than MaxImageSide.
func CheckImage(data []byte, maxKB int) (ImageHeader, []Rule) {
	var rules []Rule
	h, known := DecodeImageHeader(data)
	if !known {
		rules = append(rules, RuleImage, ImageMimes)
	}
	if len(data) > maxKB*1024 {
		rules = append(rules, RuleN(RuleMaxKilobytes, int64(maxKB)))
	}
	if known && (h.Width > MaxImageSide || h.Height > MaxImageSide) {
		rules = append(rules, RuleDimensions)
	}
	return h, rules
}

// webpSize returns the dimensions of a WebP image, read from its RIFF
// container and its first chunk as the WebP container specification lays
// them out (https://developers.google.com/speed/webp/docs/riff_container):
//
//	"RIFF", file size - 8 (uint32 LE), "WEBP", then a chunk:
//	fourCC, payload size (uint32 LE), payload.
//
// The first chunk is one of
//   - "VP8 " (lossy): a 3-byte frame tag whose lowest bit is 0 on a key
//     frame, the start code 9d 01 2a, then width and height as 16-bit LE
//     values whose low 14 bits are the size;
//   - "VP8L" (lossless): the signature byte 0x2f, then 32 bits LE holding
//     width-1 (14 bits), height-1 (14 bits), an alpha bit and a 3-bit
//     version that must be 0;
//   - "VP8X" (extended): a flags byte, 3 reserved bytes, then canvas
//     width-1 and height-1 as 24-bit LE values.
//
// Only the header is read: the pixels are not decoded, as for the other
// formats, whose image.DecodeConfig stops at the header too. ok is false
// when data is not such a file or is shorter than its header says.
func webpSize(data []byte) (w, h int, ok bool) {
	if len(data) < 20 || string(data[0:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		return 0, 0, false
	}
	riffSize := uint64(binary.LittleEndian.Uint32(data[4:8]))
	if riffSize < 12 || riffSize+8 > uint64(len(data)) {
		return 0, 0, false
	}
	fourCC, size := string(data[12:16]), uint64(binary.LittleEndian.Uint32(data[16:20]))
	if 20+size > riffSize+8 {
		return 0, 0, false
	}
	p := data[20 : 20+size]
	le24 := func(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 }
	switch fourCC {
	case "VP8 ":
		if len(p) < 10 || p[0]&1 != 0 || p[3] != 0x9d || p[4] != 0x01 || p[5] != 0x2a {
			return 0, 0, false
		}
		w = int(binary.LittleEndian.Uint16(p[6:8]) & 0x3fff)
		h = int(binary.LittleEndian.Uint16(p[8:10]) & 0x3fff)
	case "VP8L":
		if len(p) < 5 || p[0] != 0x2f {
			return 0, 0, false
		}
		bits := binary.LittleEndian.Uint32(p[1:5])
		if bits>>29 != 0 {
			return 0, 0, false
		}
		w, h = int(bits&0x3fff)+1, int(bits>>14&0x3fff)+1
	case "VP8X":
		if len(p) < 10 {
			return 0, 0, false
		}
		w, h = le24(p[4:7])+1, le24(p[7:10])+1
	default:
		return 0, 0, false
	}
	return w, h, w > 0 && h > 0
}
