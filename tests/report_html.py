"""Reading a rendered HTML report back in tests: its tags, the text of each <section>, its style text."""

from html.parser import HTMLParser
from pathlib import Path


class Page(HTMLParser):
    """Collects tags with their attributes, the text inside each <section>, and style text."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.sections: dict[str, list[str]] = {}
        self.section_imgs: dict[str, list[str]] = {}
        self.style = ""
        self._stack: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "section":
            self._stack.append(attrs.get("id", ""))
            self.sections.setdefault(self._stack[-1], [])
            self.section_imgs.setdefault(self._stack[-1], [])
        if tag == "img" and self._stack:
            self.section_imgs[self._stack[-1]].append(attrs.get("src", ""))
        if tag == "span" and "badge" in attrs.get("class", "") and self._stack:
            self.sections[self._stack[-1]].append(f"<badge {attrs['class']}>")
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        if tag == "section" and self._stack:
            self._stack.pop()
        if tag == "style":
            self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.style += data
        elif self._stack:
            self.sections[self._stack[-1]].append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page
