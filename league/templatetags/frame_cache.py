"""`{% frame_cache "name" vary... %} ... {% endframe_cache %}`: a part of every page's
frame that shows nothing of the books and nothing of the viewer beyond `vary` (the main
navigation: its links depend only on the role and the language), rendered once per `vary`
values, language and code version and kept in the cache (issue 15 item 2: the navigation's
26 `{% url %}` reversals and translations were about a fifth of a small page's cost).

A `{% csrf_token %}` inside (the logout form) is rendered as a placeholder and replaced by
the request's own token on every use, as in `league.club.caching.books_fragment`: a kept
form never carries another session's token. Inside a transaction the part is rendered and
not kept (`frame_cached`).
"""

from django import template
from django.middleware.csrf import get_token
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import SafeString, mark_safe

from league.club.caching import CSRF_PLACEHOLDER, frame_cached

register = template.Library()


class FrameCacheNode(template.Node):
    def __init__(self, nodelist: NodeList, name: FilterExpression, vary: list[FilterExpression]):
        self.nodelist = nodelist
        self.name = name
        self.vary = vary

    def render(self, context: template.Context) -> SafeString:
        request = context.get("request")
        parts = [self.name.resolve(context), *(v.resolve(context) for v in self.vary)]

        def build() -> str:
            with context.push(csrf_token=CSRF_PLACEHOLDER):
                return str(self.nodelist.render(context))

        html = frame_cached(*(str(p) if p is not None else "" for p in parts), build=build)
        if request is not None and CSRF_PLACEHOLDER in html:
            html = html.replace(CSRF_PLACEHOLDER, get_token(request))
        return mark_safe(html)  # noqa: S308 - our own render


@register.tag("frame_cache")
def frame_cache(parser: Parser, token: Token) -> FrameCacheNode:
    """{% frame_cache "nav" is_secretary user.is_staff %} ... {% endframe_cache %}"""
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("frame_cache needs a fragment name")
    nodelist = parser.parse(("endframe_cache",))
    parser.delete_first_token()
    return FrameCacheNode(
        nodelist, parser.compile_filter(bits[1]), [parser.compile_filter(b) for b in bits[2:]]
    )
