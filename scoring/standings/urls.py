"""Standings pages (mounted at the site root)."""

from django.urls import path

from . import views, views_accounts, views_cuts, views_mail

app_name = "scoring"

urlpatterns = [
    path("sessions/<int:pk>/standings/", views.session_standings, name="session-standings"),
    path(
        "sessions/<int:pk>/standings/live/",
        views.session_standings_live,
        name="session-standings-live",
    ),
    path("sessions/<int:pk>/prize-cut/", views_cuts.prize_cut, name="session-prize-cut"),
    path("sessions/<int:pk>/settlement/", views.session_settlement, name="session-settlement"),
    path(
        "sessions/<int:pk>/results-sheet/",
        views_accounts.results_sheet,
        name="session-results-sheet",
    ),
    path("clubs/<slug:slug>/leaderboard/", views.club_leaderboard, name="club-leaderboard"),
    path("clubs/<slug:slug>/ratings/", views.club_ratings, name="club-ratings"),
    path("clubs/<slug:slug>/accounts/", views_accounts.club_accounts, name="club-accounts"),
    path(
        "clubs/<slug:slug>/accounts/payments/new/",
        views_accounts.payment_new,
        name="payment-new",
    ),
    path("players/<int:pk>/statement/", views_accounts.player_statement, name="player-statement"),
    path("players/<int:pk>/", views.player_page, name="player"),
    path("players/<int:pk>/history/", views.player_history, name="player-history"),
    path("players/<int:pk>/language/", views.player_language, name="player-language"),
    path("players/<int:pk>/email/", views.player_email, name="player-email"),
    path(
        "mail/unsubscribe/<str:token>/",
        views_mail.results_mail_unsubscribe,
        name="results-mail-unsubscribe",
    ),
]
