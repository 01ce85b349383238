package kit

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"sync"

	"github.com/tablehand/tablehand/db"
)

// A slice's read-only web pages (the faction campaign's, the fight's)
// plug in here: the slice adds a Page at Mount (Router.AddPage), and
// bot/web.go serves what the router hands it. bot looks up a token,
// finds the Page that serves the token's scope, and writes what it
// renders; a LivePage's readers keep an event stream open that tells
// them when it changed. What every page shares (its head, the stylesheet
// and script it links, the page of a link that opens nothing) is here.

// A Page is one kind of read-only page.
type Page interface {
	// Serves reports whether the pages of scope (db.Page.Scope) are
	// this one's.
	Serves(scope string) bool
	// Render writes to b, as HTML, the page p opens as p's audience may
	// read it. What p opens no longer (no campaign) is an error wrapping
	// db.ErrNotFound; b then holds nothing of use. What p was made for
	// and is over (a fight that has ended) is an error wrapping ErrGone,
	// with the page that says so in b.
	Render(ctx context.Context, b *bytes.Buffer, p db.Page) error
}

// ErrGone is a page's subject that is over (a fight that has ended):
// Render has written the page that says so, which the edge serves as
// 410 Gone.
var ErrGone = errors.New("what the page shows is over")

// A LivePage is a Page that follows what it shows.
type LivePage interface {
	Page
	// Seq names what the page p opens shows now: it moves with every
	// change. Its subject gone or over is an error wrapping
	// db.ErrNotFound.
	Seq(ctx context.Context, p db.Page) (int64, error)
}

// AddPage adds a kind of page the edges serve.
func (r *Router) AddPage(p Page) { r.pages = append(r.pages, p) }

// Pages returns the pages the slices added, in the order they did.
func (r *Router) Pages() []Page { return r.pages }

//go:embed web
var pageFiles embed.FS

// pageBase is the templates every page is parsed with: "head" and
// "notfound".
var pageBase = template.Must(template.New("web").ParseFS(pageFiles, "web/*.html"))

// PageTemplates returns the templates of a slice's pages: those of fsys
// that patterns name, parsed with funcs beside "head", which each page
// begins with (its argument is the page's title).
func PageTemplates(funcs template.FuncMap, fsys fs.FS, patterns ...string) *template.Template {
	t := template.Must(pageBase.Clone())
	return template.Must(t.Funcs(funcs).ParseFS(fsys, patterns...))
}

// RenderNotFound writes the one page of every link that opens nothing.
func RenderNotFound(b *bytes.Buffer) error { return pageBase.ExecuteTemplate(b, "notfound", nil) }

// PageAsset is a file every page links: the stylesheet, and the one
// script, which shows the times in the reader's own zone and keeps a live
// page up to date, saying when it stops (the page is right without it).
type PageAsset struct {
	Path, Type string
	Body       []byte
}

// PageAssets are the files the pages link ("head" names their paths).
var PageAssets = []PageAsset{
	{Path: "/static/page.css", Type: "text/css; charset=utf-8", Body: mustReadPage("web/page.css")},
	{Path: "/static/page.js", Type: "text/javascript; charset=utf-8", Body: mustReadPage("web/page.js")},
}

func mustReadPage(name string) []byte {
	b, err := pageFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return b
}

// ExecutePart is the template name of t executed with data, in a string
// of its own size: a part of a page kept to be served again.
func ExecutePart(t *template.Template, name string, data any) (template.HTML, error) {
	b := PageBuffer()
	defer PutPageBuffer(b)
	if err := t.ExecuteTemplate(b, name, data); err != nil {
		return "", fmt.Errorf("render %s: %w", name, err)
	}
	return template.HTML(b.String()), nil
}

// pageBuffers are the buffers pages are rendered in, used again: a
// campaign page of 100 factions is half a megabyte, which a new buffer
// would grow to by copying it a dozen times.
var pageBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPageBuffer is the largest buffer kept for the next page (4 MB); a
// larger one goes to the collector.
const maxPageBuffer = 4 << 20

// PageBuffer returns an empty buffer to render a page in; PutPageBuffer
// gives it back once its bytes are written.
func PageBuffer() *bytes.Buffer { return pageBuffers.Get().(*bytes.Buffer) }

// PutPageBuffer gives b back for the next page.
func PutPageBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPageBuffer {
		return
	}
	b.Reset()
	pageBuffers.Put(b)
}
