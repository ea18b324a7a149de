"""The API's refusals in the API's shape, also where no API view answered.

Under `/api/`, DRF's views answer every refusal as `{code, message, field}`
(league.club.api_common.api_exception_handler). Two answers come from elsewhere: a path
that matches no route (an unknown path, or an id that is not a number, which the routes'
`[0-9]+` refuse before any view runs) is Django's 404 page, and a method a non-DRF view
refuses (the docs page) is Django's plain-text 405; the schema view negotiates its 405
into YAML. `ApiErrorsMiddleware` answers those 404s and 405s in JSON with DRF's stable
codes, `not_found` and `method_not_allowed` (with the view's `Allow` header). Pages keep
their HTML.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework import exceptions

from league.club.api_common import error_body

API_PREFIX = "/api/"


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


def api_error_response(request: HttpRequest, status: int) -> JsonResponse:
    """The API's JSON body for a 404 (`not_found`) or 405 (`method_not_allowed`, naming
    the request's method) that no API view gave: `{code, message, field: null}`."""
    if status == 405:
        error: exceptions.APIException = exceptions.MethodNotAllowed(request.method or "")
    else:
        error = exceptions.NotFound()
    detail = error.detail
    return JsonResponse(error_body(error.default_code, str(detail)), status=status)


class ApiErrorsMiddleware:
    """Replaces a 404 or 405 answer under /api/ that is not JSON by the API's JSON error
    (see the module). Everything else passes unchanged."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code in (404, 405)
            and request.path.startswith(API_PREFIX)
            and not _is_json(response)
        ):
            replaced = api_error_response(request, response.status_code)
            if "Allow" in response:
                replaced["Allow"] = response["Allow"]
            return replaced
        return response
