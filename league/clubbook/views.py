"""Pages of the club book: upload the two CSV files, see the dry run (what would be created,
or every bad row), confirm the import; download the export.

Secretary only. The import and export are league/clubbook/services.py; the views parse the
upload, keep a checked upload until it is confirmed, and render.
"""

import hashlib
import secrets
import shutil
import time
from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from league.club.access import ClubRequest, secretary_required
from league.club.body_limits import body_limit
from league.club.errors import BooksError
from league.clubbook.selectors import (
    club_book_export,
)
from league.clubbook.serializers import MAX_UPLOAD_BODY_BYTES, MAX_UPLOAD_BYTES
from league.clubbook.services import (
    club_book_import,
)


class ClubBookForm(forms.Form):
    attendance = forms.FileField(label=gettext_lazy("Attendance (club-book-attendance.csv)"))
    games = forms.FileField(label=gettext_lazy("Games (club-book-games.csv)"))

    def clean(self) -> dict:
        files = [self.cleaned_data.get(name) for name in ("attendance", "games")]
        if any(f is not None and f.size > MAX_UPLOAD_BYTES for f in files):
            raise forms.ValidationError(_("A file is too large (at most 20 MB)."))
        return self.cleaned_data


# A dry run's files wait in MEDIA_ROOT/club-book-uploads/<token>/ for the confirmation, so
# that the secretary confirms exactly the files the dry run checked. The folder names the
# club and the login that checked them (owner.txt): only that login, for that club, may
# confirm, whoever else learns the token.


def _upload_dir(token: str) -> Path:
    if not token.isalnum():
        raise Http404
    return Path(settings.MEDIA_ROOT) / "club-book-uploads" / token


def _forget_old_uploads(max_age_hours: int = 24) -> None:
    """Remove dry-run uploads that were never confirmed (older than a day)."""
    root = Path(settings.MEDIA_ROOT) / "club-book-uploads"
    if not root.is_dir():
        return
    limit = time.time() - max_age_hours * 3600
    for folder in root.iterdir():
        if folder.is_dir() and folder.stat().st_mtime < limit:
            shutil.rmtree(folder, ignore_errors=True)


def _owner(request: ClubRequest) -> str:
    """Who may confirm an upload: "<club id>:<user id>"."""
    return f"{request.club.pk}:{request.user.pk}"


def _keep_upload(request: ClubRequest, attendance: bytes, games: bytes, names: list[str]) -> str:
    """Store a checked upload until it is confirmed, bound to the request's club and login;
    its token."""
    _forget_old_uploads()
    token = secrets.token_hex(16)
    folder = _upload_dir(token)
    folder.mkdir(parents=True)
    (folder / "owner.txt").write_text(_owner(request), encoding="utf-8")
    (folder / "attendance.csv").write_bytes(attendance)
    (folder / "games.csv").write_bytes(games)
    (folder / "names.txt").write_text("\n".join(names), encoding="utf-8")
    return token


def _upload_is_theirs(request: ClubRequest, token: str) -> bool:
    """Whether the upload kept under `token` was checked by this login for this club (an
    expired upload is nobody's business: True, and _kept_upload says it is gone)."""
    owner = _upload_dir(token) / "owner.txt"
    if not owner.is_file():
        return not _upload_dir(token).is_dir()
    return owner.read_text(encoding="utf-8") == _owner(request)


def _kept_upload(token: str) -> tuple[bytes, bytes, list[str]] | None:
    """The files and their names kept under `token`; None when it has expired."""
    folder = _upload_dir(token)
    if not folder.is_dir():
        return None
    names = (folder / "names.txt").read_text(encoding="utf-8").split("\n")
    return (folder / "attendance.csv").read_bytes(), (folder / "games.csv").read_bytes(), names


@body_limit(MAX_UPLOAD_BODY_BYTES)
@secretary_required
def club_book_upload(request: ClubRequest) -> HttpResponse:
    """Upload the two files; a dry run shows what would be created and the recomputed
    totals per season (or every bad row); the files wait for the confirmation."""
    form = ClubBookForm(request.POST or None, request.FILES or None)
    context: dict = {"form": form}
    if request.method == "POST" and form.is_valid():
        files = form.cleaned_data["attendance"], form.cleaned_data["games"]
        attendance, games = (f.read() for f in files)
        names = [f.name for f in files]
        try:
            result = club_book_import(
                club_name=request.club.name,
                attendance=attendance,
                games=games,
                dry_run=True,
                attendance_name=names[0],
                games_name=names[1],
            )
        except BooksError as exc:  # e.g. `season_closed`: a season of the book is closed
            messages.error(request, exc.message)
            return render(request, "league/ledger/import.html", context)
        context["result"] = result
        if result.ok and result.changed:
            context["token"] = _keep_upload(request, attendance, games, names)
            context["digest"] = hashlib.sha256(attendance + games).hexdigest()[:12]
    return render(request, "league/ledger/import.html", context)


@secretary_required
@require_POST
def club_book_confirm(request: ClubRequest, token: str) -> HttpResponse:
    """Import the files of a dry run (all or nothing) and show what was created. Only the
    login that ran the dry run, for its club, may confirm it: anyone else gets a German
    refusal and nothing is imported (the upload stays for its owner)."""
    if not _upload_is_theirs(request, token):
        messages.error(
            request,
            _(
                "This check was made by another login or for another club. Please upload "
                "the files yourself."
            ),
        )
        return redirect("club_book_upload")
    upload = _kept_upload(token)
    if upload is None:
        messages.error(request, _("The upload has expired. Please upload the files again."))
        return redirect("club_book_upload")
    attendance, games, names = upload
    try:
        result = club_book_import(
            club_name=request.club.name,
            attendance=attendance,
            games=games,
            user=request.user,
            attendance_name=names[0],
            games_name=names[1],
        )
    except BooksError as exc:  # e.g. `season_closed`: a season of the book is closed
        messages.error(request, exc.message)
        return redirect("club_book_upload")
    shutil.rmtree(_upload_dir(token), ignore_errors=True)
    if result.ok:
        messages.success(request, _("The club book was imported."))
    return render(request, "league/ledger/import.html", {"result": result, "form": ClubBookForm()})


@secretary_required
def club_book_download(request: ClubRequest, which: str) -> HttpResponse:
    """Download the club book: `which` is "anwesenheit" or "spiele" (import format)."""
    attendance, games = club_book_export(club=request.club)
    files = {
        "anwesenheit": (attendance, "club-book-attendance.csv"),
        "spiele": (games, "club-book-games.csv"),
    }
    if which not in files:
        raise Http404
    data, filename = files[which]
    response = HttpResponse(data, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
