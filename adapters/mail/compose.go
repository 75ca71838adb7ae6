// Package mail holds the mail adapters: the Composer that renders mails
// from the templates embedded here, and the Mailers that hand them to a mail
// server (SMTP), to the log, or to a test's inbox.
package mail

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"

	"github.com/inkwell/inkwell/ports"
)

// templates holds three files per mail: NAME.subject.txt and NAME.txt
// (text/template) and NAME.html (html/template, which escapes what the
// data puts into the page).
//
//go:embed templates
var templates embed.FS

// Composer implements ports.MailComposer with the embedded templates. The
// application's name, given at construction, is in every mail as "app".
type Composer struct {
	app  string
	text *texttemplate.Template
	html *htmltemplate.Template
}

var _ ports.MailComposer = (*Composer)(nil)

// NewComposer parses the embedded templates; cfg.AppName names the
// application in the mails.
func NewComposer(cfg Config) (*Composer, error) {
	text, err := texttemplate.New("").Option("missingkey=error").ParseFS(templates, "templates/*.txt")
	if err != nil {
		return nil, fmt.Errorf("mail templates: %w", err)
	}
	html, err := htmltemplate.New("").Option("missingkey=error").ParseFS(templates, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("mail templates: %w", err)
	}
	return &Composer{app: cfg.AppName, text: text, html: html}, nil
}

// Compose implements ports.MailComposer.
func (c *Composer) Compose(name string, data map[string]string) (ports.MailContent, error) {
	values := map[string]string{"app": c.app}
	for k, v := range data {
		values[k] = v
	}
	var subject, text, html bytes.Buffer
	if err := c.text.ExecuteTemplate(&subject, name+".subject.txt", values); err != nil {
		return ports.MailContent{}, fmt.Errorf("mail %s: subject: %w", name, err)
	}
	if err := c.text.ExecuteTemplate(&text, name+".txt", values); err != nil {
		return ports.MailContent{}, fmt.Errorf("mail %s: text: %w", name, err)
	}
	if err := c.html.ExecuteTemplate(&html, name+".html", values); err != nil {
		return ports.MailContent{}, fmt.Errorf("mail %s: html: %w", name, err)
	}
	// A subject is one line: a line break would end the header early.
	s := strings.Join(strings.Fields(subject.String()), " ")
	return ports.MailContent{Subject: s, Text: text.String(), HTML: html.String()}, nil
}
