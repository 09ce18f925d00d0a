package passes

import (
	"fmt"
	"html"
	"io"
	"strings"

	"spv2visa/ir"
)

// HTML collects the IR after each pass and writes one self-contained
// page with a column per pass, in the manner of Go's GOSSAFUNC ssa.html:
// lines that changed since the previous column are highlighted, clicking
// a value or block name highlights it in every column (several at once,
// in different colours), and clicking a column's title folds it. Use
// Observe as Config.Observe.
type HTML struct {
	Title string
	// Func restricts the page to one function ("" for the module).
	Func string
	cols []htmlColumn
}

type htmlColumn struct {
	name string
	text string
}

// Observe records the module after pass (pass "" is the input).
func (h *HTML) Observe(pass string, m *ir.Module) {
	name := pass
	if name == "" {
		name = "start"
	}
	var text string
	if h.Func == "" {
		text = m.String()
	} else if f := m.Func(h.Func); f != nil {
		text = f.String()
	} else {
		text = fmt.Sprintf("; no function @%s\n", h.Func)
	}
	h.cols = append(h.cols, htmlColumn{name, text})
}

// Write writes the page.
func (h *HTML) Write(w io.Writer) error {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>")
	b.WriteString(html.EscapeString(h.Title))
	b.WriteString("</title>\n<style>\n")
	b.WriteString(htmlStyle)
	b.WriteString("</style>\n</head>\n<body>\n<h1>")
	b.WriteString(html.EscapeString(h.Title))
	b.WriteString("</h1>\n<p class=\"help\">Click a value or block name to highlight it in every column (click again to clear); click a column title to fold it. Lines that changed since the previous column are shaded.</p>\n<div class=\"cols\">\n")
	var prev map[string]int
	for i, c := range h.cols {
		lines := strings.Split(strings.TrimRight(c.text, "\n"), "\n")
		count := map[string]int{}
		for _, l := range lines {
			count[l]++
		}
		fmt.Fprintf(&b, "<div class=\"col\" id=\"col%d\">\n<div class=\"title\" onclick=\"fold(%d)\">%s</div>\n<pre>", i, i, html.EscapeString(c.name))
		avail := map[string]int{}
		for k, n := range prev {
			avail[k] = n
		}
		for _, l := range lines {
			cls := "line"
			if prev != nil {
				if avail[l] > 0 {
					avail[l]--
				} else {
					cls += " changed"
				}
			}
			fmt.Fprintf(&b, "<span class=\"%s\">%s</span>\n", cls, linkNames(l))
		}
		b.WriteString("</pre>\n</div>\n")
		prev = count
	}
	b.WriteString("</div>\n<script>\n")
	b.WriteString(htmlScript)
	b.WriteString("</script>\n</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// linkNames escapes a line of IR text and wraps value and block names
// (v12, b3) in spans the script can highlight.
func linkNames(l string) string {
	var b strings.Builder
	i := 0
	for i < len(l) {
		c := l[i]
		if (c == 'v' || c == 'b') && (i == 0 || !isWordByte(l[i-1])) {
			j := i + 1
			for j < len(l) && l[j] >= '0' && l[j] <= '9' {
				j++
			}
			if j > i+1 && (j == len(l) || !isWordByte(l[j])) {
				name := l[i:j]
				fmt.Fprintf(&b, "<span class=\"n %s\" onclick=\"hl('%s')\">%s</span>", name, name, name)
				i = j
				continue
			}
		}
		b.WriteString(html.EscapeString(l[i : i+1]))
		i++
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

const htmlStyle = `body { font-family: sans-serif; margin: 8px; }
h1 { font-size: 16px; margin: 0 0 4px 0; }
.help { font-size: 12px; color: #555; margin: 0 0 8px 0; }
.cols { display: flex; align-items: flex-start; overflow-x: auto; }
.col { border: 1px solid #ccc; margin-right: 4px; flex: none; }
.col.folded pre { display: none; }
.col.folded .title { writing-mode: vertical-lr; }
.title { background: #eee; font-weight: bold; padding: 2px 6px; cursor: pointer; font-size: 13px; }
pre { margin: 0; padding: 4px; font-size: 12px; line-height: 1.3; }
.line { display: inline-block; min-width: 100%; }
.changed { background: #fff3c4; }
.n { cursor: pointer; }
.n:hover { text-decoration: underline; }
.h0 { background: #ffd54f; } .h1 { background: #81d4fa; } .h2 { background: #a5d6a7; }
.h3 { background: #f48fb1; } .h4 { background: #ce93d8; } .h5 { background: #ffab91; }
`

const htmlScript = `var marks = {};
var free = [0, 1, 2, 3, 4, 5];
function hl(name) {
  var els = document.getElementsByClassName(name);
  if (name in marks) {
    var c = marks[name];
    for (var i = 0; i < els.length; i++) els[i].classList.remove('h' + c);
    delete marks[name];
    free.push(c);
    free.sort();
    return;
  }
  if (free.length == 0) return;
  var c = free.shift();
  marks[name] = c;
  for (var i = 0; i < els.length; i++) els[i].classList.add('h' + c);
}
function fold(i) {
  document.getElementById('col' + i).classList.toggle('folded');
}
`
