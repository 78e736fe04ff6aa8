"""Migration clubs.0007 (docs/operations.md): each pending invitation is bound to the one login
matching its username, ignoring case, that existed when it was made; any other stays inert
(a login created after the invitation may be a squatter's, issue 14 probe item 1)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("clubs", "0006_drop_plain_text_api_tokens")]
AFTER = [("clubs", "0007_invitation_bound_to_login_names_ci")]


def test_pending_invitations_are_bound_to_the_login_that_existed_when_made() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    User = apps.get_model("auth", "User")
    Club = apps.get_model("clubs", "Club")
    Player = apps.get_model("clubs", "Player")
    Invitation = apps.get_model("clubs", "Invitation")
    then = datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC)
    User.objects.create(username="alice", date_joined=then - datetime.timedelta(days=1))
    User.objects.create(username="carol", date_joined=then + datetime.timedelta(days=1))
    club = Club.objects.create(slug="c", name="C")
    for name, username in (("A", "Alice"), ("C", "carol"), ("N", "nobody")):
        player = Player.objects.create(club=club, name=name)
        Invitation.objects.create(player=player, username=username, created_at=then)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    Invitation = apps.get_model("clubs", "Invitation")
    bound = {i.username: i.user.username if i.user else None for i in Invitation.objects.all()}
    assert bound == {"Alice": "alice", "carol": None, "nobody": None}
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
