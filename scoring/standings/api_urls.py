"""REST API v1 routes for standings (included under /api/v1/)."""

from django.urls import path

from scoring.shared.cache import cached_or_drf

from . import api, api_accounts

urlpatterns = [
    path(
        "sessions/<int:pk>/standings",
        api.SessionStandingsView.as_view(),
        name="api-session-standings",
    ),
    path(
        "sessions/<int:pk>/prize-cuts",
        api.PrizeCutsView.as_view(),
        name="api-session-prize-cuts",
    ),
    path(
        "sessions/<int:pk>/settlement",
        api.SessionSettlementView.as_view(),
        name="api-session-settlement",
    ),
    path(
        "clubs/<slug:slug>/leaderboard",
        # A stranger's cached board is answered without DRF (scoring/shared/cache.py).
        cached_or_drf(api.ClubLeaderboardView.as_view(), api.leaderboard_answer_key),
        name="api-club-leaderboard",
    ),
    path(
        "clubs/<slug:slug>/accounts",
        api_accounts.ClubAccountsView.as_view(),
        name="api-club-accounts",
    ),
    path(
        "clubs/<slug:slug>/accounts/payments",
        api_accounts.PaymentsView.as_view(),
        name="api-club-payments",
    ),
    path(
        "players/<int:pk>/statement",
        api_accounts.PlayerStatementView.as_view(),
        name="api-player-statement",
    ),
    path(
        "clubs/<slug:slug>/ratings",
        api.ClubRatingsView.as_view(),
        name="api-club-ratings",
    ),
]
