"""Bounds on the size of a request's body, checked before anything reads it.

Every request may carry at most `API_MAX_BODY_BYTES` (settings, 256 KiB unless the
environment says otherwise): a JSON body of the API, a form of a page. A view that takes
files names its own bound with `body_limit` (the club-book import: two files of at most
20 MB; a bank statement: 2 MB). `RequestBodyLimitMiddleware` compares the request's
`Content-Length` with the view's bound before any middleware or view reads the body (it
sits before the CSRF check, which reads a page's form), so a body past it costs nothing
but the refusal: 400 `body_too_large` in the API's error shape under /api/, a German page
otherwise. Without a `Content-Length` Django reads no body at all; the API's JSON parser
(league/club/parsers.py) keeps its own bound for what it reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

__all__ = ["RequestBodyLimitMiddleware", "body_limit", "body_too_large_message", "max_body_bytes"]

MIB = 1024 * 1024

_View = TypeVar("_View")


def max_body_bytes() -> int:
    """The bound of a request's body without a view's own (`API_MAX_BODY_BYTES`, bytes)."""
    return int(getattr(settings, "API_MAX_BODY_BYTES", MIB // 4))


def body_too_large_message() -> str:
    """The German refusal of a body past its bound."""
    return _("The request is too large.")


def body_limit(limit: int) -> Callable[[_View], _View]:
    """Decorate a view function or class that takes uploads: its requests may carry up to
    `limit` bytes (instead of `API_MAX_BODY_BYTES`). Put it outermost on a function."""

    def mark(view: _View) -> _View:
        view.max_body_bytes = limit  # type: ignore[attr-defined]
        return view

    return mark


def _view_limit(view_func: Any) -> int:
    """The bound of the view behind `view_func`: its own (`body_limit` on the function, on
    a Django view class or on a DRF view class) or the default."""
    for holder in (
        view_func,
        getattr(view_func, "cls", None),
        getattr(view_func, "view_class", None),
    ):
        limit = getattr(holder, "max_body_bytes", None)
        if isinstance(limit, int):
            return limit
    return max_body_bytes()


def _content_length(request: HttpRequest) -> int:
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:  # Django reads such a body as empty too
        return 0


class RequestBodyLimitMiddleware:
    """Refuses a request whose declared body is larger than its view's bound (see the
    module), before the body is read."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view_func: Callable, view_args: tuple, view_kwargs: dict
    ) -> HttpResponse | None:
        if _content_length(request) <= _view_limit(view_func):
            return None
        message = body_too_large_message()
        if request.path.startswith("/api/"):
            body = {"code": "body_too_large", "message": message, "field": None}
            return JsonResponse(body, status=400)
        return render(request, "body_too_large.html", {"message": message}, status=400)
