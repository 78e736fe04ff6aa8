"""THE read policy (clubs/policy.py) and its forms: the Python predicate, the queryset filter, the
id-based check of the cached reads and the selectors all say the same for every kind of user
(docs/api.md, "Permissions"; docs/architecture.md, "The read boundary")."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from clubs.models import Club, Membership
from clubs.permissions import can_read_club, check_club_id_readable
from clubs.policy import DIRECTOR, may_direct, may_read
from clubs.selectors import club_for_reader, club_id_for_reader
from tests.factories import UserFactory, add_player, make_club


def test_the_rule() -> None:
    assert may_read(True, None)
    assert may_read(False, "player") and may_read(False, DIRECTOR)
    assert not may_read(False, None)
    assert may_read(False, None, table_code=True)
    assert may_direct(DIRECTOR) and not may_direct("player") and not may_direct(None)
    assert Membership.Role.DIRECTOR == DIRECTOR


@pytest.mark.django_db
def test_every_form_of_the_rule_agrees(director: Any) -> None:
    """Two clubs (public, members-only) × anonymous, an outsider, a player, a director, a
    director of the other club: each form answers what `may_read` answers."""
    public = make_club(director=director, slug="open", public=True)
    hidden = make_club(director=director, slug="closed", public=False)
    player, outsider, other = UserFactory(), UserFactory(), UserFactory()
    for club in (public, hidden):
        add_player(club, "Pat", user=player)
    make_club(director=other, slug="elsewhere", public=False)
    for user in (AnonymousUser(), outsider, player, director, other):
        visible = set(Club.objects.visible_to(user).values_list("slug", flat=True))
        for club in (public, hidden):
            expected = may_read(club.public, club.role_of(user))
            assert (club.slug in visible) is expected
            assert can_read_club(user, club) is expected
            readable = _answers(check_club_id_readable, user, club.pk, public=club.public)
            assert readable is expected
            assert _answers(club_for_reader, user, club.slug) is expected
            assert _answers(club_id_for_reader, user, club.slug) is expected
            if not expected:  # hidden answers exactly like missing
                missing = _refusal(club_for_reader, user, "no-such-club")
                assert _refusal(club_for_reader, user, club.slug) == missing
                assert _refusal(club_id_for_reader, user, club.slug) == missing


def _answers(call: Any, *args: Any, **kwargs: Any) -> bool:
    try:
        call(*args, **kwargs)
    except Http404:
        return False
    return True


def _refusal(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(Http404) as refused:
        call(*args, **kwargs)
    return str(refused.value)
