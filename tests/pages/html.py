"""Reading a rendered page as text, the way a person reads it."""

import re


def page_text(response) -> str:
    """The page's text without tags, runs of spaces and newlines collapsed to one space
    (non-breaking spaces kept, as in "15,50 €")."""
    html = response.content.decode()
    return re.sub(r"[ \t\r\n]+", " ", re.sub(r"<[^>]+>", " ", html))
