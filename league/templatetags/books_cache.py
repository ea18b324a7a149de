"""`{% books_cache "name" vary... %} ... {% endbooks_cache %}`: a fragment of a page of the
books rendered once per books version (half the standings page's cost was
its template).

The fragment is kept under the club's books version the page's view left on the request
(`league.club.caching.books_page` sets `request.books_version`), the active language, the
name and the `vary` values (whatever else the fragment shows: the season, the role).
Without a books version on the request the fragment is rendered as it is; inside a
writer's transaction it is rendered and not kept (`KeptRead.cached`,
`caching.in_writer_transaction`).

Unlike Django's `{% cache %}`, the key moves with the books by itself (no timeout to wait
for) and the fragment is never kept from a transaction that may roll back.

`KeptNode` also serves `{% frame_cache %}` (league/templatetags/frame_cache.py), the part
of the frame kept without a books version. Either way a `{% csrf_token %}` inside is
rendered as a placeholder and replaced by the request's own token on every use, as in
`league.club.caching.KeptRead.fragment`: a kept form never carries another session's token.
"""

from django import template
from django.middleware.csrf import get_token
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import SafeString, mark_safe

from league.club import caching

register = template.Library()


class KeptNode(template.Node):
    """A template fragment kept in the cache under its `caching.KeptRead`: "fragment:" and
    the name, depending on the club's versions (`books=True`), or "frame:" and the name,
    depending on nothing of the club (`books=False`: what it shows never changes with the
    books or the register); the `vary` values are the rest of its key."""

    def __init__(
        self, nodelist: NodeList, name: FilterExpression, vary: list[FilterExpression], *, books
    ):
        self.nodelist = nodelist
        self.name = name
        self.vary = vary
        self.books = books

    def render(self, context: template.Context) -> SafeString:
        request = context.get("request")
        name = str(self.name.resolve(context))
        vary = tuple(
            str(p) if p is not None else "" for p in (v.resolve(context) for v in self.vary)
        )
        if self.books:
            version = getattr(request, "books_version", None)
            if not version:
                return self.nodelist.render(context)
            kept = caching.KeptRead(f"fragment:{name}", ("books",))
        else:
            kept = caching.KeptRead(f"frame:{name}", ())

        def build() -> str:
            with context.push(csrf_token=caching.CSRF_PLACEHOLDER):
                return str(self.nodelist.render(context))

        html = kept.cached(*vary, build=build, request=request)
        if request is not None and caching.CSRF_PLACEHOLDER in html:
            html = html.replace(caching.CSRF_PLACEHOLDER, get_token(request))
        return mark_safe(html)  # our own render


def kept_tag(parser: Parser, token: Token, *, books: bool) -> KeptNode:
    """Parse `{% <tag> "name" vary... %} ... {% end<tag> %}` into a KeptNode."""
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError(f"{bits[0]} needs a fragment name")
    nodelist = parser.parse((f"end{bits[0]}",))
    parser.delete_first_token()
    return KeptNode(
        nodelist,
        parser.compile_filter(bits[1]),
        [parser.compile_filter(b) for b in bits[2:]],
        books=books,
    )


@register.tag("books_cache")
def books_cache(parser: Parser, token: Token) -> KeptNode:
    """{% books_cache "standings" season.pk is_secretary %} ... {% endbooks_cache %}"""
    return kept_tag(parser, token, books=True)
