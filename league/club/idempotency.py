"""Writes sent twice book once: the `Idempotency-Key` of the API (the IETF httpapi draft
"The Idempotency-Key HTTP Header Field") and the hidden key of a page's form.

A client that may send a write again (a retry after a timeout, a phone replaying what it
entered offline, a double tap on a form) sends a key of its choosing with it. The first
request with a key is processed and, when it succeeds (2xx, or a page's redirect), its
answer is kept with the key, in the same transaction as what it booked. Then, for the same
login and key:

- the same request again (same method, path and body: the fingerprint) answers the kept
  answer again, with the same status and body, and books nothing (header
  `Idempotent-Replayed: true` in the API);
- another request answers 422 `idempotency_key_reused`;
- while the first is still being processed, 409 `idempotency_key_in_use` (a request that
  died without an answer frees its key after `ABANDONED_AFTER`).

A request that fails (an error, or an answer other than 2xx) keeps nothing: what it wrote is
rolled back and the key is free for a corrected request. Keys are kept per login (unique
per user) for at least `KEEP` (a day); older ones are deleted whenever a key is written.
A key is 1 to 255 printable ASCII characters, sent bare or as the draft's quoted string
(`Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`); anything else is 400
`invalid_idempotency_key`.

`idempotent` gives a DRF view method all this, `idempotent_form_post` a page's form (the
payment form); `idempotent_once` is the one path both go through. `league.club.api_schema`'s
schema documents the header on every operation whose method is `idempotent`.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from league.club.api_common import request_club
from league.club.errors import BooksError
from league.club.models import Club, IdempotencyKey

__all__ = [
    "ABANDONED_AFTER",
    "HEADER",
    "IDEMPOTENCY_KEY_PARAMETER",
    "KEEP",
    "Kept",
    "idempotency_key_read",
    "idempotency_new_key",
    "idempotent",
    "idempotent_form_post",
    "idempotent_once",
    "request_fingerprint",
]

HEADER = "Idempotency-Key"
KEY_MAX = 255
KEEP = datetime.timedelta(hours=24)
"""How long a key is kept at least; older ones are deleted when a key is written."""
ABANDONED_AFTER = datetime.timedelta(minutes=2)
"""A key still without an answer after this (longer than any request may run: Gunicorn's
timeout is 30 s) belonged to a request that died; the next request with it takes it over."""

_T = TypeVar("_T")


@dataclass(frozen=True)
class Kept:
    """The kept answer of a write: HTTP `status`, `body` (text: the API's JSON, a page's
    message) and `headers` (ETag, Location)."""

    status: int
    body: str
    headers: dict[str, str] = field(default_factory=dict)


def idempotency_key_read(raw: str) -> str:
    """The key of an `Idempotency-Key` header or a form: bare or a quoted string, 1 to 255
    printable ASCII characters. Raises BooksError `invalid_idempotency_key` (400)."""
    key = raw.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]
    if not 1 <= len(key) <= KEY_MAX or not all(" " <= c <= "~" for c in key) or '"' in key:
        raise BooksError(
            "invalid_idempotency_key",
            _("The Idempotency-Key must be 1 to 255 printable ASCII characters."),
            field=HEADER,
        )
    return key


def _canonical(value: Any) -> Any:
    """A parsed body as plain JSON values: a form's fields as lists, a file by its
    content's sha256 (the file is read and rewound)."""
    if isinstance(value, UploadedFile):
        digest = hashlib.sha256()
        for chunk in value.chunks():
            digest.update(chunk)
        value.seek(0)
        return {"file": digest.hexdigest()}
    if hasattr(value, "lists"):  # a QueryDict (form, multipart)
        return {k: [_canonical(v) for v in vs] for k, vs in sorted(value.lists())}
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return value


def request_fingerprint(*, method: str, path: str, body: Any) -> str:
    """sha256 (hex) of the method, the path (with its query) and the parsed body (keys
    sorted, so the same JSON written otherwise is the same request)."""
    text = json.dumps(
        [method.upper(), path, _canonical(body)], sort_keys=True, cls=JSONEncoder, default=str
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _claim(*, user, club: Club | None, key: str, fingerprint: str) -> IdempotencyKey | Kept:
    """The key's row, new or taken over (the caller processes the request), or the kept
    answer of the same request. Raises BooksError 422 / 409 (see the module)."""
    now = timezone.now()
    IdempotencyKey.objects.filter(created_at__lt=now - KEEP).delete()
    row = None
    while row is None:
        try:
            # Its own transaction, committed at once: a concurrent request with the same
            # key sees the row and is refused with 409 while this one is processed.
            with transaction.atomic():
                return IdempotencyKey.objects.create(
                    user=user, club=club, key=key, fingerprint=fingerprint, created_at=now
                )
        except IntegrityError:
            # Taken; unless its request failed and freed it meanwhile (then claim again).
            row = IdempotencyKey.objects.filter(user=user, key=key).first()
    if row.fingerprint != fingerprint:
        raise BooksError(
            "idempotency_key_reused",
            _("This Idempotency-Key was sent with another request. Use a new key."),
            field=HEADER,
            status=422,
        )
    if row.status is not None:
        return Kept(status=row.status, body=row.body, headers=row.headers)
    taken_over = IdempotencyKey.objects.filter(
        pk=row.pk,
        status__isnull=True,
        created_at=row.created_at,
        created_at__lt=now - ABANDONED_AFTER,
    ).update(created_at=now)
    if taken_over:
        row.created_at = now
        return row
    raise BooksError(
        "idempotency_key_in_use",
        _("A request with this Idempotency-Key is still being processed. Try again shortly."),
        field=HEADER,
        status=409,
    )


def idempotent_once(
    *,
    user,
    club: Club | None,
    key: str,
    fingerprint: str,
    run: Callable[[], tuple[_T, Kept | None]],
) -> _T | Kept:
    """Run a write at most once per login and key (see the module).

    `run()` does the write and returns (its result, the answer to keep, or None to keep
    nothing). It runs in one transaction with the keeping of its answer, so a write is
    never booked without its key's answer. An error raised by `run` rolls the write back
    and frees the key; so does None to keep (an answer that is no success). Returns run's
    result, or the Kept answer of an earlier identical request.
    Raises BooksError `idempotency_key_reused` (422), `idempotency_key_in_use` (409)."""
    claimed = _claim(user=user, club=club, key=key, fingerprint=fingerprint)
    if isinstance(claimed, Kept):
        return claimed
    try:
        with transaction.atomic():
            result, kept = run()
            if kept is not None:
                claimed.status, claimed.body, claimed.headers = kept.status, kept.body, kept.headers
                claimed.save(update_fields=["status", "body", "headers"])
    except BaseException:
        IdempotencyKey.objects.filter(pk=claimed.pk, status__isnull=True).delete()
        raise
    if kept is None:
        IdempotencyKey.objects.filter(pk=claimed.pk).delete()
    return result


def idempotency_new_key() -> str:
    """A new key for a page's form (a random UUID's 32 hex digits)."""
    return uuid.uuid4().hex


PAGE_WAIT = 5.0
"""Seconds a page's second submit waits for the first one's answer (a double tap: the
browser shows the answer to the second)."""


def idempotent_form_post(request, *, key: str, run: Callable[[], tuple[Any, Kept]]) -> Kept:
    """A page's form write at most once per its hidden `key` (see the module): `run()`
    does the write and returns (anything, the answer to keep: a redirect's Location and
    the message shown). Returns that answer, or the kept answer of the same form sent
    before (a second submit while the first is processed waits up to PAGE_WAIT seconds
    for it). A form without a key (rendered before keys) runs as before.

    Raises BooksError with a German message: `idempotency_key_reused` (the form was sent
    before with other values: reload it), `idempotency_key_in_use` (still processed after
    the wait), `invalid_idempotency_key`; and whatever `run` raises."""
    if not key:
        return run()[1]
    key = idempotency_key_read(key)
    body = {name: values for name, values in request.POST.lists() if name != "csrfmiddlewaretoken"}
    fingerprint = request_fingerprint(method="POST", path=request.get_full_path(), body=body)

    def write() -> tuple[Kept, Kept]:
        kept = run()[1]
        return kept, kept

    deadline = time.monotonic() + PAGE_WAIT
    while True:
        try:
            return idempotent_once(
                user=request.user,
                club=getattr(request, "club", None),
                key=key,
                fingerprint=fingerprint,
                run=write,
            )
        except BooksError as exc:
            if exc.code == "idempotency_key_reused":
                raise BooksError(
                    exc.code,
                    _("This form was sent before with other values. Reload the page."),
                ) from exc
            if exc.code != "idempotency_key_in_use" or time.monotonic() > deadline:
                raise
        time.sleep(0.2)


_KEPT_HEADERS = ("ETag", "Location")


def idempotent(handler: Callable[..., Response]) -> Callable[..., Response]:
    """Decorate a DRF view method that writes (create, an action): with an
    `Idempotency-Key` header, a 2xx answer is kept and answered again to the same request
    (see the module); without one the method runs as before. Put it innermost, right on
    the method (under @action and extend_schema)."""

    @functools.wraps(handler)
    def wrapper(view, request, *args, **kwargs) -> Response:
        raw = request.headers.get(HEADER)
        if raw is None or not request.user.is_authenticated:  # keys are kept per login
            return handler(view, request, *args, **kwargs)
        key = idempotency_key_read(raw)
        fingerprint = request_fingerprint(
            method=request.method, path=request.get_full_path(), body=request.data
        )

        def run() -> tuple[Response, Kept | None]:
            response = handler(view, request, *args, **kwargs)
            if not 200 <= response.status_code < 300:
                return response, None
            headers = {h: response[h] for h in _KEPT_HEADERS if response.has_header(h)}
            body = json.dumps(response.data, cls=JSONEncoder, ensure_ascii=False)
            return response, Kept(status=response.status_code, body=body, headers=headers)

        outcome = idempotent_once(
            user=request.user, club=request_club(request), key=key, fingerprint=fingerprint, run=run
        )
        if isinstance(outcome, Kept):
            data = json.loads(outcome.body) if outcome.body else None
            headers = {**outcome.headers, "Idempotent-Replayed": "true"}
            return Response(data, status=outcome.status, headers=headers)
        return outcome

    wrapper.idempotent = True  # type: ignore[attr-defined]  # read by the API schema
    return wrapper


IDEMPOTENCY_KEY_PARAMETER = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Optional, any 1 to 255 printable ASCII characters, e.g. a UUID (IETF "
    'httpapi draft "The Idempotency-Key HTTP Header Field"; bare or quoted). Send the same '
    "key when you send the same write again (a retry, an offline replay): the first "
    "successful answer is answered again with the same status and body "
    "(`Idempotent-Replayed: true`) and nothing is booked twice. The same key with another "
    "request: 422 `idempotency_key_reused`; while the first is still processed: 409 "
    "`idempotency_key_in_use`. Keys are kept per login for at least 24 hours; a failed "
    "request keeps nothing.",
)
