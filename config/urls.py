"""Backscore URLs: pages, the REST API v1, its schema, the admin and the health check."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from clubs import views as club_views

from .health import healthz

api_v1 = [
    path("", include("clubs.api_urls")),
    path("", include("games.api_urls")),
    path("", include("scoring.api_urls")),
]

urlpatterns = [
    path("", club_views.home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("clubs/", include("clubs.urls")),
    path("", include("games.urls")),
    path("", include("scoring.urls")),
]
