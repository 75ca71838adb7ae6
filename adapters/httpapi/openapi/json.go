package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// yamlToJSON converts one YAML document to compact JSON. Unlike decoding
// into a map and marshalling it, it keeps the keys in their written order,
// so that the served document reads like the source (info first, paths in
// the order of the API).
//
// Only what JSON can represent is accepted: mapping keys must be strings
// and unique, and infinities and NaN are refused. Anchors and aliases are
// refused too; the document spells everything out or uses $ref, which
// every OpenAPI tool understands.
func yamlToJSON(src []byte) ([]byte, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) || doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, errors.New("want exactly one YAML document")
	}
	var buf bytes.Buffer
	if err := writeJSON(&buf, doc.Content[0]); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeJSON(buf *bytes.Buffer, n *yaml.Node) error {
	if n.Anchor != "" {
		return fmt.Errorf("line %d: anchors are not supported", n.Line)
	}
	switch n.Kind {
	case yaml.MappingNode:
		buf.WriteByte('{')
		seen := make(map[string]bool, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
				return fmt.Errorf("line %d: mapping keys must be strings", k.Line)
			}
			if seen[k.Value] {
				return fmt.Errorf("line %d: duplicate key %q", k.Line, k.Value)
			}
			seen[k.Value] = true
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeString(buf, k.Value); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := writeJSON(buf, v); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, item := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, item); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		return writeScalar(buf, n)
	case yaml.AliasNode:
		return fmt.Errorf("line %d: aliases are not supported", n.Line)
	default:
		return fmt.Errorf("line %d: unexpected YAML node", n.Line)
	}
	return nil
}

// writeScalar writes a scalar as the JSON value YAML's core schema gives it.
// Timestamps stay strings: JSON has no such type, and OpenAPI wants the
// text as written.
func writeScalar(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!str", "!!timestamp":
		return writeString(buf, n.Value)
	case "!!null":
		buf.WriteString("null")
		return nil
	case "!!bool", "!!int", "!!float":
		var v any
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		out, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		buf.Write(out)
		return nil
	default:
		return fmt.Errorf("line %d: unsupported tag %s", n.Line, n.ShortTag())
	}
}

// writeString writes s as a JSON string without escaping <, > and &, which
// the document's Markdown uses and JSON does not require escaping.
func writeString(buf *bytes.Buffer, s string) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return err
	}
	// Encode ends the value with a newline.
	buf.Truncate(buf.Len() - 1)
	return nil
}
