#!/usr/bin/env python3
"""Turns one page of docs/ into a manual page, so the two never differ.

usage: md2man.py PAGE.md SECTION > NAME.SECTION

The page's first line, "# NAME — what it is", gives the manual's name and NAME line; "## "
headings become sections; "- `key` — text" items become tagged paragraphs; fenced blocks are
shown as written; `code` is bold, **strong** bold, [text](link) its text. HTML comments (the
markers the documentation tests read) are left out. Nothing else of Markdown is used in the
pages it is run on.
"""

import re
import sys


def escape(text):
    """Backslashes, and every character outside ASCII as groff's \\[uXXXX]."""
    text = text.replace("\\", "\\e")
    return "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in text)


def inline(text):
    text = escape(text)
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text)
    text = re.sub(r"\*\*([^*]+)\*\*", r"\\fB\1\\fR", text)
    text = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)
    return text


def line(text):
    """A roff text line: one starting with . or ' would be read as a request."""
    text = inline(text)
    return "\\&" + text if text[:1] in (".", "'") else text


def convert(markdown, section):
    lines = markdown.splitlines()
    title = re.match(r"# (\S+) — (.*)", lines[0])
    if not title:
        sys.exit("md2man: the first line must be '# NAME — what it is'")
    name, summary = title.groups()
    out = [f'.TH "{name.upper()}" "{section}" "" "window-banner" "window-banner manual"',
           ".SH NAME", f"{name} \\- {inline(summary)}"]
    paragraph = []
    in_code = False
    in_comment = False

    def flush():
        if paragraph:
            out.append(".PP")
            out.extend(line(text) for text in paragraph)
            paragraph.clear()

    for text in lines[1:]:
        if in_code:
            if text.startswith("```"):
                out.extend([".fi", ".RE"])
                in_code = False
            else:
                out.append("\\&" + escape(text))
            continue
        if in_comment or text.startswith("<!--"):
            in_comment = "-->" not in text
            continue
        if text.startswith("```"):
            flush()
            out.extend([".RS 4", ".nf"])
            in_code = True
        elif text.startswith("## "):
            flush()
            out.append(f".SH {inline(text[3:]).upper()}")
        elif re.match(r"- `[^`]+` — ", text):
            flush()
            key, rest = re.match(r"- `([^`]+)` — (.*)", text).groups()
            out.extend([".TP", f"\\fB{key}\\fR", line(rest)])
        elif text.startswith("  ") and out and not paragraph:
            out.append(line(text.strip()))
        elif not text.strip():
            flush()
        else:
            paragraph.append(text.strip())
    flush()
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    with open(sys.argv[1], encoding="utf-8") as page:
        sys.stdout.write(convert(page.read(), sys.argv[2]))
