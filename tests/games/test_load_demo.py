"""`manage.py load_demo` loads the demo club once, through the services (deterministic)."""

from __future__ import annotations

from django.core.management import call_command

from clubs.models import Club, Session
from games.models import Deal, Rubber


def test_load_demo_once(db, settings):
    call_command("load_demo")
    club = Club.objects.get(slug="riverside-demo")
    assert club.name == "Riverside Bridge Club" and club.public
    assert 8 <= club.players.count() <= 10
    assert club.is_director(club.memberships.get(role="director").user)
    closed, running = club.sessions.order_by("date")
    assert closed.status == Session.Status.CLOSED
    assert running.status == Session.Status.RUNNING
    assert not Rubber.objects.filter(session=closed, status=Rubber.Status.IN_PLAY).exists()
    assert Rubber.objects.filter(session=closed, status=Rubber.Status.COMPLETE).count() >= 4
    in_play = Rubber.objects.filter(session=running, status=Rubber.Status.IN_PLAY)
    assert in_play.count() == 2 and all(r.deals.exists() for r in in_play)
    deals = Deal.objects.count()
    call_command("load_demo")
    assert Deal.objects.count() == deals
    assert Club.objects.filter(slug="riverside-demo").count() == 1
