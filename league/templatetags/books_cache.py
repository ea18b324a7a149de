"""`{% books_cache "name" vary... %} ... {% endbooks_cache %}`: a fragment of a page of the
books rendered once per books version (issue 15 item 1: half the standings page's cost was
its template).

The fragment is kept under the club's books version the page's view left on the request
(`league.club.caching.books_page` sets `request.books_version`), the active language, the
name and the `vary` values (whatever else the fragment shows: the season, the role).
Without a books version on the request the fragment is rendered as it is; inside a
transaction it is rendered and not kept (`books_cached`).

Unlike Django's `{% cache %}`, the key moves with the books by itself (no timeout to wait
for) and the fragment is never kept from a transaction that may roll back.
"""

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import SafeString, mark_safe

from league.club.caching import books_cached

register = template.Library()


class BooksCacheNode(template.Node):
    def __init__(self, nodelist: NodeList, name: FilterExpression, vary: list[FilterExpression]):
        self.nodelist = nodelist
        self.name = name
        self.vary = vary

    def render(self, context: template.Context) -> SafeString:
        request = context.get("request")
        version = getattr(request, "books_version", None)
        if not version:
            return self.nodelist.render(context)
        parts = [self.name.resolve(context), *(v.resolve(context) for v in self.vary)]
        key = ("fragment", version, *(str(p) if p is not None else "" for p in parts))
        return mark_safe(books_cached(*key, build=lambda: str(self.nodelist.render(context))))


@register.tag("books_cache")
def books_cache(parser: Parser, token: Token) -> BooksCacheNode:
    """{% books_cache "standings" season.pk is_secretary %} ... {% endbooks_cache %}"""
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("books_cache needs a fragment name")
    nodelist = parser.parse(("endbooks_cache",))
    parser.delete_first_token()
    return BooksCacheNode(
        nodelist, parser.compile_filter(bits[1]), [parser.compile_filter(b) for b in bits[2:]]
    )
