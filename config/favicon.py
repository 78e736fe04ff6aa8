"""`GET /favicon.ico`: browsers ask for it whatever a page links, so it is answered (not a 404)."""

from django.http import HttpRequest, HttpResponseRedirect
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """A permanent redirect to the static icon (hashed and long-cached by whitenoise)."""
    return HttpResponseRedirect(static("favicon.ico"), status=301)
