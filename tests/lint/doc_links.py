#!/usr/bin/env python3
"""doc_links.py: every link of the documentation resolves.

In README.md and every .md file under docs/ (docs/lab/ too):
- a Markdown link or image [text](path#anchor): the path exists, relative
  to the file, and the anchor is a heading of the target (GitHub's ids);
- a mention of docs/NAME.md (plain or in backticks): the file exists;
- docs/NAME.md, "Heading": NAME.md has a heading, or a bold term, that
  starts with that text (case aside);
- docs/design.md's "Contents" lists every one of its "##" sections.
Links to http(s) and mailto are not checked.  Each fault is one line
naming the file, the line and the link; exit 1 when there is one.

    python3 tests/lint/doc_links.py [SOURCE_DIR]
"""
import os
import re
import sys

LINK = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)\)')
MENTION = re.compile(r'(?<![\w./-])(docs/[\w./-]*\w\.md)\b(?:,?\s+\(?"([^"]+)")?')
FENCE = re.compile(r'^\s*(```|~~~)')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
BOLD = re.compile(r'\*\*([^*]+)\*\*')


def body_lines(path):
    """(number, text) of the lines outside fenced code blocks."""
    fenced = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield n, line.rstrip('\n')


def slug(text, seen):
    """GitHub's id of a heading: lower case, punctuation dropped, spaces
    to hyphens, -1, -2 ... for repeats."""
    s = re.sub(r'[^\w\- ]', '', text.strip().lower()).replace(' ', '-')
    n = seen.get(s, 0)
    seen[s] = n + 1
    return s if n == 0 else '%s-%d' % (s, n)


class Doc:
    """A Markdown file's headings: (level, text, id), and bold terms."""

    def __init__(self, path):
        self.headings = []
        self.terms = []
        seen = {}
        for _, line in body_lines(path):
            m = HEADING.match(line)
            if m:
                text = m.group(2)
                self.headings.append((len(m.group(1)), text,
                                      slug(text, seen)))
            self.terms += BOLD.findall(line)

    def ids(self):
        return {h[2] for h in self.headings}

    def names(self, quoted):
        """True when a heading or bold term starts with quoted."""
        q = quoted.lower()
        for t in [h[1] for h in self.headings] + self.terms:
            t = t.replace('`', '').lower()
            if t.startswith(q) or t.startswith('the ' + q):
                return True
        return False


class Checker:
    def __init__(self, src):
        self.src = src
        self.docs = {}
        self.faults = []

    def doc(self, path):
        path = os.path.normpath(path)
        if path not in self.docs:
            self.docs[path] = Doc(path)
        return self.docs[path]

    def fault(self, path, n, what):
        self.faults.append('%s:%d: %s' % (os.path.relpath(path, self.src),
                                          n, what))

    def link(self, path, n, target):
        if re.match(r'[a-z]+:', target):
            return
        file, _, anchor = target.partition('#')
        dest = os.path.join(os.path.dirname(path), file) if file else path
        if not os.path.exists(dest):
            self.fault(path, n, 'link %s: no file %s' % (
                target, os.path.relpath(dest, self.src)))
        elif anchor and dest.endswith('.md'):
            if anchor not in self.doc(dest).ids():
                self.fault(path, n, 'link %s: no heading #%s in %s' % (
                    target, anchor, os.path.relpath(dest, self.src)))

    def mention(self, path, n, name, quoted):
        dest = os.path.join(self.src, name)
        if not os.path.exists(dest):
            self.fault(path, n, 'mention of %s: no such file' % name)
        elif quoted and not self.doc(dest).names(quoted):
            self.fault(path, n, '%s, "%s": no such heading there' % (
                name, quoted))

    def file(self, path):
        for n, line in body_lines(path):
            for m in LINK.finditer(re.sub(r'`[^`]*`', '', line)):
                self.link(path, n, m.group(1))
            for m in MENTION.finditer(line):
                self.mention(path, n, m.group(1), m.group(2))

    def contents(self, path):
        """Every ## section of path is linked from its ## Contents."""
        listed = set()
        for _, line in body_lines(path):
            for m in LINK.finditer(line):
                listed.add(m.group(1))
        for level, text, hid in self.doc(path).headings:
            if level == 2 and text != 'Contents' and '#' + hid not in listed:
                self.fault(path, 1, 'Contents lacks section "%s" (#%s)' % (
                    text, hid))


def main():
    src = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                          os.path.join(os.path.dirname(__file__), '../..'))
    files = [os.path.join(src, 'README.md')]
    for root, _, names in os.walk(os.path.join(src, 'docs')):
        files += [os.path.join(root, f) for f in sorted(names)
                  if f.endswith('.md')]
    c = Checker(src)
    for f in files:
        c.file(f)
    c.contents(os.path.join(src, 'docs/design.md'))
    for f in c.faults:
        print(f)
    print('doc_links: %d files, %d broken' % (len(files), len(c.faults)))
    return 1 if c.faults else 0


if __name__ == '__main__':
    sys.exit(main())
