"""REST API v1 routes for clubs, players, sessions and tables (included under /api/v1/)."""

from django.urls import path

from . import club_api as api

urlpatterns = [
    path("clubs/", api.ClubListView.as_view(), name="api-clubs"),
    path("clubs/<slug:slug>/", api.ClubDetailView.as_view(), name="api-club"),
    path("clubs/<slug:slug>/players/", api.PlayerListView.as_view(), name="api-club-players"),
    path("clubs/<slug:slug>/sessions/", api.SessionListView.as_view(), name="api-club-sessions"),
    path("invitations/", api.InvitationListView.as_view(), name="api-invitations"),
    path(
        "invitations/<int:pk>/accept",
        api.InvitationAcceptView.as_view(),
        name="api-invitation-accept",
    ),
    path(
        "invitations/<int:pk>/decline",
        api.InvitationDeclineView.as_view(),
        name="api-invitation-decline",
    ),
    path("sessions/<int:pk>/", api.SessionDetailView.as_view(), name="api-session"),
    path("sessions/<int:pk>/start", api.SessionStartView.as_view(), name="api-session-start"),
    path("sessions/<int:pk>/close", api.SessionCloseView.as_view(), name="api-session-close"),
    path("sessions/<int:pk>/reopen", api.SessionReopenView.as_view(), name="api-session-reopen"),
    path(
        "sessions/<int:pk>/tables/<int:number>/rotation",
        api.TableRotationView.as_view(),
        name="api-table-rotation",
    ),
    path(
        "sessions/<int:pk>/tables/<int:number>/players",
        api.TablePlayersView.as_view(),
        name="api-table-players",
    ),
    path(
        "sessions/<int:pk>/tables/<int:number>/substitute",
        api.TableSubstituteView.as_view(),
        name="api-table-substitute",
    ),
    path(
        "sessions/<int:pk>/tables/<int:number>/leave",
        api.TableLeaveView.as_view(),
        name="api-table-leave",
    ),
    path(
        "sessions/<int:pk>/arrivals", api.SessionArrivalsView.as_view(), name="api-session-arrivals"
    ),
]
