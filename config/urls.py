"""Backscore URLs: pages, the REST API v1, its schema, the admin and the health check."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.club import home

from . import accounts
from .api import TokenView
from .favicon import favicon
from .health import healthz
from .plain import floor, plain
from .pwa import manifest, service_worker

api_v1: list[URLPattern | URLResolver] = [
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("", include("games.club_api_urls")),
    path("", include("games.api_urls")),
    path("", include("scoring.standings.api_urls")),
]

# The Swagger UI comes from drf-spectacular-sidecar's static files (settings), and the split view
# serves its start-up script as a file: no other origin, no inline script (docs/security.md).
api_docs = SpectacularSwaggerSplitView.as_view(url_name="schema")

urlpatterns = [
    path("", home.home, name="home"),
    path("healthz", healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever the page links; answer with the static icon.
    path("favicon.ico", favicon, name="favicon"),
    path("sw.js", service_worker, name="service-worker"),
    path("manifest.webmanifest", manifest, name="manifest"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", accounts.password_change, name="password_change"),
    path("accounts/password/done/", accounts.password_change_done, name="password_change_done"),
    path("accounts/password/reset/", accounts.password_reset, name="password_reset"),
    path("accounts/password/reset/sent/", accounts.password_reset_done, name="password_reset_done"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        accounts.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path("accounts/reset/done/", accounts.password_reset_complete, name="password_reset_complete"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("clubs/", include("games.club_urls")),
    path("", include("games.urls")),
    path("", include("scoring.standings.urls")),
]

if settings.BENCH_PLAIN:
    urlpatterns.append(path("bench/plain", plain, name="bench-plain"))
    urlpatterns.append(path("bench/floor/<int:pk>/", floor, name="bench-floor"))

handler404 = "config.api.not_found"
handler500 = "config.middleware.server_error"
