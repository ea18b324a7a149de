"""The installable web app's shell: the web app manifest and the service
worker, both served from the site root.

The service worker's code lives in static/js/sw.js; it is served here at /sw.js because a
worker only controls the pages under the folder it is served from (a file under /static/
could never keep /abende/ available offline). Neither response depends on a login: the
manifest names the app, the worker caches what the logged-in browser itself reads.
"""

from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"
THEME = "#8a1c1c"


@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest (application/manifest+json): name, start page, colours and
    the icons of static/icons/ (192 and 512 px, plain and maskable)."""
    icons = [
        {"src": static(f"icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ] + [
        {
            "src": static(f"icons/icon-maskable-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "maskable",
        }
        for size in (192, 512)
    ]
    data = {
        "name": "Schockclub",
        "short_name": "Schockclub",
        "description": _("The books of the dice club: evenings, standings, kitty."),
        "lang": "de",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f4f1ea",
        "theme_color": THEME,
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js at the site root, so that its scope is the whole site. Never cached
    by the browser's HTTP cache (a new version must reach the phones at once)."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response
