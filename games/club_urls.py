"""Club pages, under /clubs/ (namespace "clubs")."""

from django.urls import path

from . import login_views
from .club import console, home, room, session_page, setup
from .push import views as push_views
from .sessions import views, views_changes

app_name = "clubs"

urlpatterns = [
    path("new/", setup.club_create, name="create"),
    path("invitations/<int:pk>/accept/", home.invitation_accept, name="invitation_accept"),
    path("invitations/<int:pk>/decline/", home.invitation_decline, name="invitation_decline"),
    path("<slug:slug>/", home.club_home, name="home"),
    path("<slug:slug>/players/", setup.players, name="players"),
    path(
        "<slug:slug>/players/<int:pk>/reset-link/",
        login_views.player_reset_link,
        name="player_reset_link",
    ),
    path("<slug:slug>/settings/", setup.club_settings, name="settings"),
    path("<slug:slug>/console/", console.console, name="console"),
    path("<slug:slug>/console/suggest/", console.suggest, name="suggest"),
    path("<slug:slug>/console/live/", console.console_live, name="console_live"),
    path("<slug:slug>/room/", room.room, name="room"),
    path("<slug:slug>/room/live/", room.room_live, name="room_live"),
    path("<slug:slug>/console/events/", push_views.console_events, name="console_events"),
    path(
        "<slug:slug>/console/confirmation/",
        console.confirmation_setting,
        name="confirmation_setting",
    ),
    path("<slug:slug>/sessions/<int:pk>/", session_page.session_detail, name="session"),
    path("<slug:slug>/sessions/<int:pk>/cards/", session_page.session_cards, name="session_cards"),
    path("<slug:slug>/sessions/<int:pk>/start/", views.session_start, name="session_start"),
    path("<slug:slug>/sessions/<int:pk>/close/", views.session_close, name="session_close"),
    path("<slug:slug>/sessions/<int:pk>/reopen/", views.session_reopen, name="session_reopen"),
    path("<slug:slug>/sessions/<int:pk>/seat/", views.session_reseat, name="session_reseat"),
    path("<slug:slug>/sessions/<int:pk>/delete/", views.session_delete, name="session_delete"),
    path("<slug:slug>/sessions/<int:pk>/codes/", views.session_codes, name="session_codes"),
    path(
        "<slug:slug>/sessions/<int:pk>/tables/<int:number>/add/",
        views.table_add_player,
        name="table_add_player",
    ),
    path(
        "<slug:slug>/sessions/<int:pk>/tables/<int:number>/remove/",
        views.table_remove_player,
        name="table_remove_player",
    ),
    path(
        "<slug:slug>/sessions/<int:pk>/tables/<int:number>/leaver/",
        views_changes.table_leaver,
        name="table_leaver",
    ),
    path(
        "<slug:slug>/sessions/<int:pk>/arrivals/",
        views_changes.session_arrivals,
        name="session_arrivals",
    ),
    path(
        "<slug:slug>/sessions/<int:pk>/arrivals/suggest/",
        views_changes.arrivals_suggest,
        name="arrivals_suggest",
    ),
]
