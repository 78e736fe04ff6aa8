"""A rubber's API answer: served from the cache under what it is made of, and the written-out
serializers equal to DRF's generic output (games/api.py, docs/benchmarks.md). The cache is on
with Redis; here it is forced on with the local one."""

from __future__ import annotations

import datetime
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db.models import F
from rest_framework import serializers

from games.models import Deal, Rubber
from games.serializers import DealSerializer, RubberSerializer
from games.sessions import lifecycle
from scoring.shared.cache import cache_seconds
from tests.factories import acting, make_session
from tests.games.conftest import SIX_DEALS, seated_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def cached(settings: Any) -> Any:
    settings.RUBBER_CACHE_SECONDS = 60
    cache.clear()
    yield
    cache.clear()


def _url(rubber: Any) -> str:
    return f"/api/v1/rubbers/{rubber.pk}/"


def _fresh(rubber: Any) -> dict[str, Any]:
    """The answer as computed with no cache."""
    found = Rubber.objects.with_deals().get(pk=rubber.pk)
    found.fetch_players()
    return RubberSerializer(found).data


def test_off_without_a_shared_cache(api: Any, rubber: Any, enter: Any, settings: Any) -> None:
    assert "locmem" in settings.CACHES["default"]["BACKEND"].lower()
    assert cache_seconds("RUBBER_CACHE_SECONDS") == 0
    enter(SIX_DEALS[:2])
    api.force_authenticate(None)
    assert api.get(_url(rubber)).json() == _fresh(rubber)


def test_a_cached_rubber_costs_one_query_and_is_the_same_answer(
    api: Any, rubber: Any, enter: Any, cached: Any, django_assert_num_queries: Any
) -> None:
    enter(SIX_DEALS)
    api.force_authenticate(None)
    first = api.get(_url(rubber))
    with django_assert_num_queries(1):
        again = api.get(_url(rubber))
    assert again.content == first.content
    assert again["Content-Type"] == "application/json"
    assert again.json() == _fresh(rubber)


def test_every_change_shows_at_once(
    api: Any, rubber: Any, enter: Any, club: Any, north: Any, cached: Any
) -> None:
    club.confirm_entries = True
    club.save()
    enter(SIX_DEALS[:2])
    api.force_authenticate(None)
    assert [d["number"] for d in api.get(_url(rubber)).json()["deals"]] == [1, 2]

    enter(SIX_DEALS[2:3], start=3)  # a new deal
    api.force_authenticate(None)
    assert [d["number"] for d in api.get(_url(rubber)).json()["deals"]] == [1, 2, 3]

    deal = rubber.deals.get(number=1)
    api.force_authenticate(north)  # a correction
    patched = api.patch(f"/api/v1/deals/{deal.pk}/", {"version": 1, "tricks": 8}, format="json")
    assert patched.status_code == 200
    api.force_authenticate(None)
    body = api.get(_url(rubber)).json()
    assert (body["deals"][0]["tricks"], body["deals"][0]["version"]) == (8, 2)

    api.force_authenticate(seated_user(rubber, "E"))  # a confirmation
    assert api.post(f"/api/v1/deals/{deal.pk}/confirm").status_code == 200
    api.force_authenticate(None)
    assert api.get(_url(rubber)).json()["deals"][0]["confirmed_by"] == rubber.east_id

    rubber.close_unfinished()  # the rubber's own row
    api.force_authenticate(None)
    body = api.get(_url(rubber)).json()
    assert body["status"] == "unfinished"
    assert body == _fresh(rubber)


def _changes_the_cached_answer(api: Any, rubber: Any, write: Any) -> dict[str, Any]:
    """Cache the rubber's answer, `write()`, and check the answer served next is the new one
    (equal to one made with no cache, unlike the cached one); return it."""
    api.force_authenticate(None)
    before = api.get(_url(rubber)).json()
    assert api.get(_url(rubber)).json() == before  # served from the cache
    version = Rubber.objects.answer_state(rubber.pk)
    write()
    api.force_authenticate(None)
    after = api.get(_url(rubber)).json()
    assert Rubber.objects.answer_state(rubber.pk) != version
    assert after == _fresh(rubber)
    assert after != before
    return after


# Every write verb that changes a rubber's answer gives it a new version (docs/architecture.md,
# "The read boundary"): entry, correction, confirmation above; these the others.


def test_a_dispute_changes_the_cached_answer(
    api: Any, rubber: Any, enter: Any, club: Any, cached: Any
) -> None:
    club.confirm_entries = True
    club.save()
    enter(SIX_DEALS[:1])
    deal = rubber.deals.get(number=1)
    after = _changes_the_cached_answer(
        api, rubber, lambda: deal.dispute(actor=acting(deal, seated_user(rubber, "E")))
    )
    assert Deal.objects.get(pk=deal.pk).disputed
    assert after["deals"][0]["version"] == 1  # only the time of the write tells


def test_the_deal_that_ends_the_rubber_changes_the_cached_answer(
    api: Any, rubber: Any, enter: Any, cached: Any
) -> None:
    enter(SIX_DEALS[:5])
    after = _changes_the_cached_answer(api, rubber, lambda: enter(SIX_DEALS[5:], start=6))
    assert after["status"] == "complete"


def test_a_correction_that_reopens_the_rubber_changes_the_cached_answer(
    api: Any, rubber: Any, enter: Any, north: Any, cached: Any
) -> None:
    enter(SIX_DEALS)
    deal = rubber.deals.get(number=6)

    def reopen() -> None:
        api.force_authenticate(north)
        patched = api.patch(
            f"/api/v1/deals/{deal.pk}/", {"version": 1, "tricks": 11}, format="json"
        )
        assert patched.status_code == 200, patched.json()

    assert _changes_the_cached_answer(api, rubber, reopen)["status"] == "in_play"


def test_moving_the_next_rubbers_deals_changes_the_cached_answer(
    api: Any, club: Any, table_of_four: dict[str, Any], director: Any, enter: Any, cached: Any
) -> None:
    """A director's correction that moves the next rubber's deals into the reopened one
    (tests/games/test_reopening.py): the reopened rubber's answer holds them at once."""
    fixed = make_session(
        club, [list(table_of_four.values())], movement="fixed", date=datetime.date(2026, 12, 1)
    ).rubbers.get(number=1)
    following = Rubber.objects.get(pk=enter(SIX_DEALS, target=fixed).json()["next_rubber"])
    enter([{"contract": "2H", "declarer": "E", "tricks": 8}], target=following)
    deal = fixed.deals.get(number=6)

    def move() -> None:
        api.force_authenticate(director)
        patched = api.patch(
            f"/api/v1/deals/{deal.pk}/",
            {"version": 1, "tricks": 11, "move_next_deals": True},
            format="json",
        )
        assert patched.status_code == 200, patched.json()

    after = _changes_the_cached_answer(api, fixed, move)
    assert [d["number"] for d in after["deals"]] == [1, 2, 3, 4, 5, 6, 7]


def test_closing_the_session_changes_the_cached_answer(
    api: Any, rubber: Any, enter: Any, running_session: Any, cached: Any
) -> None:
    enter(SIX_DEALS[:2])
    after = _changes_the_cached_answer(
        api, rubber, lambda: lifecycle.session_close(session=running_session)
    )
    assert after["status"] == "unfinished"


def test_a_database_made_again_is_not_answered_from_the_old_ones_cache(
    api: Any, rubber: Any, enter: Any, cached: Any
) -> None:
    """The cache outlives the database: a test run makes the same rubber ids again, and a restore
    the same deal ids, with the same numbers and versions but other deals behind them (their ids
    are what a client corrects). CI once answered a run's rubber with the deal ids of the run
    before it, and its corrections met 404."""
    enter(SIX_DEALS[:2])
    api.force_authenticate(None)
    before = api.get(_url(rubber)).json()

    # The same deals, as another incarnation of the database would hold them: new ids.
    deals = list(Deal.objects.filter(rubber=rubber).order_by("number"))
    Deal.objects.filter(rubber=rubber).delete()
    for deal in deals:
        deal.pk = None
    Deal.objects.bulk_create(deals)
    after = api.get(_url(rubber)).json()
    assert [d["id"] for d in after["deals"]] != [d["id"] for d in before["deals"]]
    assert after == _fresh(rubber)

    # The same ids and versions, other content: a deal written at another time (a restore and
    # a new entry), then another rubber row (another start).
    Deal.objects.filter(rubber=rubber, number=1).update(
        tricks=F("tricks") - 1, updated_at=F("updated_at") + timedelta(seconds=1)
    )
    assert api.get(_url(rubber)).json() == _fresh(rubber)
    Deal.objects.filter(rubber=rubber, number=2).update(tricks=F("tricks") - 1)
    Rubber.objects.filter(pk=rubber.pk).update(started_at=F("started_at") + timedelta(seconds=1))
    assert api.get(_url(rubber)).json() == _fresh(rubber)


def test_each_language_has_its_own_answer(api: Any, rubber: Any, enter: Any, cached: Any) -> None:
    enter(SIX_DEALS[:1])
    api.force_authenticate(None)
    english = api.get(_url(rubber), HTTP_ACCEPT_LANGUAGE="en").json()
    italian = api.get(_url(rubber), HTTP_ACCEPT_LANGUAGE="it").json()
    explain = [i["explanation"] for i in english["scoresheet"]["NS"]["below"]]
    spiegare = [i["explanation"] for i in italian["scoresheet"]["NS"]["below"]]
    assert explain and spiegare and explain != spiegare
    assert api.get(_url(rubber), HTTP_ACCEPT_LANGUAGE="en").json() == english


def test_a_members_only_rubber_stays_hidden_when_cached(
    api: Any, rubber: Any, enter: Any, club: Any, north: Any, outsider: Any, cached: Any
) -> None:
    club.public = False
    club.save()
    enter(SIX_DEALS[:1])
    api.force_authenticate(north)
    assert api.get(_url(rubber)).status_code == 200
    api.force_authenticate(outsider)
    assert api.get(_url(rubber)).status_code == 404
    api.force_authenticate(None)
    assert api.get(_url(rubber)).status_code == 404


def test_the_browsable_api_is_rendered_not_served_from_the_cache(
    api: Any, rubber: Any, enter: Any, cached: Any
) -> None:
    enter(SIX_DEALS[:1])
    api.force_authenticate(None)
    api.get(_url(rubber))
    page = api.get(_url(rubber), HTTP_ACCEPT="text/html")
    assert page.status_code == 200
    assert page["Content-Type"].startswith("text/html")
    indented = api.get(_url(rubber), HTTP_ACCEPT="application/json; indent=2")
    assert b"\n  " in indented.content


def test_an_unknown_or_out_of_range_rubber_is_404(api: Any, cached: Any) -> None:
    assert api.get("/api/v1/rubbers/999999/").status_code == 404
    assert api.get(f"/api/v1/rubbers/{2**70}/").status_code == 404


def test_the_entry_answer_is_the_rubber_as_get_shows_it(
    api: Any, rubber: Any, enter: Any, cached: Any
) -> None:
    """API.md: `rubber` in the answer is the updated rubber (as GET), completion included."""
    for number in range(1, 7):
        answer = enter(SIX_DEALS[number - 1 : number], start=number).json()
        api.force_authenticate(None)
        assert answer["rubber"] == api.get(_url(rubber)).json()
    assert answer["rubber"]["status"] == "complete"
    retried = api.post(
        f"/api/v1/rubbers/{rubber.pk}/deals/", {"number": 6, **SIX_DEALS[5]}, format="json"
    )
    assert retried.status_code == 401  # signed out above; as North it is a 200 retry:
    api.force_authenticate(seated_user(rubber, "N"))
    retried = api.post(
        f"/api/v1/rubbers/{rubber.pk}/deals/", {"number": 6, **SIX_DEALS[5]}, format="json"
    )
    assert retried.status_code == 200
    assert retried.json()["rubber"] == answer["rubber"]
    assert retried.json()["next_rubber"] == answer["next_rubber"]


def test_the_written_out_serializers_equal_drfs_generic_output(
    rubber: Any, enter: Any, club: Any, running_session: Any
) -> None:
    club.confirm_entries = True
    club.save()
    enter(SIX_DEALS)  # honours, a pass, a doubled contract
    deal = rubber.deals.get(number=2)
    deal.confirm(actor=acting(deal, player=rubber.east))  # entered by North: an opponent confirms
    lifecycle.session_close(session=running_session)
    Deal.objects.filter(rubber=rubber, number=3).update(entered_by=None)
    found = Rubber.objects.with_deals().get(pk=rubber.pk)
    found.fetch_players()
    for one in found.ordered_deals():
        generic = serializers.ModelSerializer.to_representation(DealSerializer(), one)
        assert DealSerializer().to_representation(one) == dict(generic)
    for each in Rubber.objects.with_deals().filter(session=running_session):
        each.fetch_players()
        generic = serializers.Serializer.to_representation(RubberSerializer(), each)
        assert RubberSerializer().to_representation(each) == dict(generic)


@pytest.mark.parametrize("zone", ["Europe/London", "Europe/Rome", "UTC", "America/St_Johns"])
def test_an_answers_times_are_written_as_drf_writes_them(zone: str) -> None:
    """`answer_times` reads the time zone once per answer; each time it writes is DRF's."""
    from zoneinfo import ZoneInfo

    from django.utils import timezone

    from games.serializers import _DATETIME, answer_times

    winter = datetime.datetime(2026, 1, 5, 19, 30, 1, 250, tzinfo=datetime.UTC)
    summer = datetime.datetime(2026, 7, 5, 23, 59, 59, tzinfo=ZoneInfo("Asia/Tokyo"))
    naive = datetime.datetime(2026, 3, 29, 0, 30)
    with timezone.override(zone):
        times = answer_times()
        for value in (winter, summer, naive, winter.replace(microsecond=0), None):
            assert times(value) == _DATETIME.to_representation(value), value


def test_a_seated_player_renamed_changes_the_cached_answer(
    api: Any, rubber: Any, enter: Any, cached: Any
) -> None:
    """Names are facts of the rubber's state (games/models/state.py): a rename in the admin
    is answered at once, not after the cache's seconds."""
    from clubs.models import Player

    enter(SIX_DEALS[:1])

    def rename() -> None:
        Player.objects.filter(pk=rubber.north_id).update(name="Renamed Nora")

    after = _changes_the_cached_answer(api, rubber, rename)
    assert "Renamed Nora" in str(after)
