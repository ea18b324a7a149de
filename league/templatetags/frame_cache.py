"""`{% frame_cache "name" vary... %} ... {% endframe_cache %}`: a part of every page's
frame that shows nothing of the books and nothing of the viewer beyond `vary` (the main
navigation: its links depend only on the role and the language), rendered once per `vary`
values, language and code version and kept in the cache (the navigation's
26 `{% url %}` reversals and translations were about a fifth of a small page's cost).

The node is `{% books_cache %}`'s (league/templatetags/books_cache.py) without the books
version: a `{% csrf_token %}` inside (the logout form) is the request's own on every use;
inside a transaction the part is rendered and not kept.
"""

from django import template
from django.template.base import Parser, Token

from league.templatetags.books_cache import KeptNode, kept_tag

register = template.Library()


@register.tag("frame_cache")
def frame_cache(parser: Parser, token: Token) -> KeptNode:
    """{% frame_cache "nav" is_secretary user.is_staff %} ... {% endframe_cache %}"""
    return kept_tag(parser, token, books=False)
