"""The installable app: the web app manifest and the service worker (docs/offline.md).

The service worker is a plain static file (static/sw.js), served here from the site's root so its
scope is the whole site: a worker controls only the pages under the path it is served from. Its
answer is never cached by the browser's HTTP cache, so a new version is picked up on the next
visit. The manifest is a view because its names are translated and its icons are static files
(hashed names in production).
"""

from functools import cache

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

#: The app's colours: the header's ink and the page background (static/css/backscore.css).
THEME_COLOR = "#1d2430"
BACKGROUND_COLOR = "#f6f7f9"


@cache
def _service_worker_source() -> bytes:
    path = finders.find("sw.js")
    if not path:  # a deployment without static/ (never in this repository)
        raise Http404("No service worker.")
    with open(str(path), "rb") as source:
        return source.read()


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_service_worker_source(), content_type="text/javascript")
    # Served from the root already; the header says so explicitly for proxies that mount us lower.
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {
            "name": "Backscore",
            "short_name": "Backscore",
            "description": _("Rubber bridge scores, entered at the table."),
            "lang": get_language(),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME_COLOR,
            "background_color": BACKGROUND_COLOR,
            "icons": [
                {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
                {
                    "src": static("icons/icon-maskable-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
                {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            ],
        },
        content_type="application/manifest+json",
    )
