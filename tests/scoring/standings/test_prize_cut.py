"""The cut for a shared prize choice (RULES 6.3): the director records who won it; the prize
list shows the shared place and the winner choosing first; the session's history keeps it."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.conf import settings

from clubs.models import Membership, PrizeCut
from games.permissions import Actor, NotAllowed
from scoring.standings import cuts, services
from tests.scoring.standings.conftest import win_rubber

pytestmark = pytest.mark.django_db


@pytest.fixture
def tie(room: Any, director: Any) -> tuple[Any, Any]:
    """Table 1's NS win a rubber: North and South share the first choice of prize."""
    rubber = room.rubbers.get(table__number=1)
    win_rubber(rubber, "NS", by=director)
    services.standings_refresh(session_id=room.pk)
    return rubber.seats["N"], rubber.seats["S"]


def prizes(api: Any, session: Any) -> list[tuple[str, int, Any]]:
    data = api.get(f"/api/v1/sessions/{session.pk}/standings").json()
    return [(p["place"], p["player"], p["cut"]) for p in data["prizes"]]


def test_a_tie_is_a_shared_place_awaiting_the_cut(api, room, tie):
    first, second = sorted(tie, key=lambda p: p.pk)
    assert prizes(api, room) == [
        ("=1", first.pk, "undecided"),
        ("=1", second.pk, "undecided"),
    ]


def test_the_director_records_the_cut_on_the_page(client, api, room, tie, director):
    first, second = sorted(tie, key=lambda p: p.pk)
    client.force_login(director)
    page = client.get(f"/sessions/{room.pk}/standings/").content.decode()
    assert (
        f"shares this choice with {second.name}: a cut at the table decides who chooses first"
        in html.unescape(page)
    )
    assert f'href="/sessions/{room.pk}/prize-cut/"' in page
    form = client.get(f"/sessions/{room.pk}/prize-cut/")
    assert form.status_code == 200 and second.name in form.content.decode()
    answer = client.post(f"/sessions/{room.pk}/prize-cut/", {"winner": second.pk})
    assert answer.status_code == 302
    # The winner of the cut chooses first; the place stays shared.
    assert prizes(api, room) == [("=1", second.pk, "won"), ("=1", first.pk, "lost")]
    page = html.unescape(client.get(f"/sessions/{room.pk}/standings/").content.decode())
    # Issue 31 probe 4: who chooses before whom, in plain words (and in Italian).
    assert f"{second.name} won the cut, chooses first (before {first.name})" in page
    assert f"{first.name} lost the cut, chooses after {second.name}" in page
    assert "A place shown as =1 is shared" in page and "record-cut" not in page
    room.club.language = "it"
    room.club.save(update_fields=["language"])
    page = html.unescape(client.get(f"/sessions/{room.pk}/standings/").content.decode())
    assert f"{second.name} ha vinto l'alzata, sceglie per primo (prima di {first.name})" in page
    assert f"{first.name} ha perso l'alzata, sceglie dopo {second.name}" in page
    assert "Un posto indicato come =1 è condiviso" in page
    cut = PrizeCut.objects.get()
    assert (cut.choice, cut.players, cut.winner, cut.by) == (
        1,
        {first.pk, second.pk},
        second,
        director,
    )


def test_the_cut_is_kept_in_the_sessions_history(client, room, tie, director):
    first, second = tie
    cuts.prize_cut_record(actor=Actor.system(), session=room, winner=first, by=director)
    client.force_login(director)
    page = html.unescape(client.get(room.get_absolute_url()).content.decode())
    assert 'data-change="cut"' in page
    assert f"Cut for the =1 choice: {first.name} won against {second.name}; recorded" in page


def test_a_cut_is_recorded_once_the_second_is_refused_and_changes_nothing(
    client, room, tie, director
):
    first, second = tie
    cuts.prize_cut_record(actor=Actor.system(), session=room, winner=first, by=director)
    client.force_login(director)
    answer = client.post(f"/sessions/{room.pk}/prize-cut/", {"winner": second.pk})
    assert answer.status_code == 400
    assert PrizeCut.objects.get().winner == first


def test_a_player_sharing_no_choice_is_refused_without_echoing_the_value(
    client, room, tie, director, table_of_four
):
    client.force_login(director)
    answer = client.post(f"/sessions/{room.pk}/prize-cut/", {"winner": "<b>99999</b>"})
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "Choose one of the players who cut." in body and "99999" not in body
    assert not PrizeCut.objects.exists()


def test_only_a_director_records_a_cut(client, room, tie, north):
    first, _ = tie
    assert Membership.objects.filter(club=room.club, user=north).exists()
    client.force_login(north)
    assert client.get(f"/sessions/{room.pk}/prize-cut/").status_code == 403
    assert client.post(f"/sessions/{room.pk}/prize-cut/", {"winner": first.pk}).status_code == 403
    with pytest.raises(NotAllowed):
        cuts.prize_cut_record(
            actor=Actor.in_club(north, room.club), session=room, winner=first, by=north
        )
    assert not PrizeCut.objects.exists()


def test_the_api_records_a_cut_and_answers_the_prizes_in_order(api, room, tie, director):
    first, second = sorted(tie, key=lambda p: p.pk)
    api.force_authenticate(director)
    answer = api.post(f"/api/v1/sessions/{room.pk}/prize-cuts", {"winner": second.pk}, "json")
    assert answer.status_code == 201, answer.content
    assert [(p["player"], p["cut"]) for p in answer.json()["prizes"]] == [
        (second.pk, "won"),
        (first.pk, "lost"),
    ]
    again = api.post(f"/api/v1/sessions/{room.pk}/prize-cuts", {"winner": first.pk}, "json")
    assert again.status_code == 400 and "winner" in again.json()["errors"]
    unknown = api.post(f"/api/v1/sessions/{room.pk}/prize-cuts", {"winner": "x", "y": 1}, "json")
    assert unknown.status_code == 400
    assert PrizeCut.objects.count() == 1


def test_a_cut_stops_deciding_when_the_tie_changes(api, room, tie, director):
    first, second = sorted(tie, key=lambda p: p.pk)
    cuts.prize_cut_record(actor=Actor.system(), session=room, winner=second, by=director)
    # Another tie for the same choice (the standings changed): the old cut decides nothing.
    PrizeCut.objects.update(among=f"{first.pk},{second.pk},999999")
    assert [cut for _, _, cut in prizes(api, room)] == ["undecided", "undecided"]


def test_two_winners_sent_are_refused_on_the_page_and_by_the_api(client, api, room, tie, director):
    first, second = sorted(tie, key=lambda p: p.pk)
    client.force_login(director)
    answer = client.post(f"/sessions/{room.pk}/prize-cut/", {"winner": [first.pk, second.pk]})
    assert answer.status_code == 400
    assert "Choose one player only: one player wins the cut." in answer.content.decode()
    api.force_authenticate(director)
    listed = api.post(
        f"/api/v1/sessions/{room.pk}/prize-cuts", {"winner": [first.pk, second.pk]}, "json"
    )
    assert listed.status_code == 400 and "winner" in listed.json()["errors"]
    assert not PrizeCut.objects.exists()


def test_each_radio_sits_inline_with_its_name_as_the_checkboxes_do() -> None:
    css = (settings.BASE_DIR / "static/css/backscore.css").read_text()
    assert ".form input[type=checkbox], .form input[type=radio] { width: auto; }" in css


def test_the_players_history_writes_a_shared_place_as_the_standings_do(client, tie, director):
    north, _ = tie
    client.force_login(director)
    html = client.get(f"/players/{north.pk}/history/").content.decode()
    assert 'data-label="Rank">=1</td>' in html


def test_a_recorded_cut_is_shown_and_recorded_again_on_the_page_and_by_the_api(
    client, api, room, tie, director
):
    """Issue 31: after a cut is recorded, its page shows it (not "no cut to record") and lets
    the director record it again; the new cut replaces the old, which the history keeps."""
    first, second = sorted(tie, key=lambda p: p.pk)
    cuts.prize_cut_record(actor=Actor.system(), session=room, winner=first, by=director)
    client.force_login(director)
    standings = client.get(f"/sessions/{room.pk}/standings/").content.decode()
    assert 'id="recorded-cut"' in standings and 'id="record-cut"' not in standings
    url = f"/sessions/{room.pk}/prize-cut/"
    page = html.unescape(client.get(url).content.decode())
    assert "there is no cut to record" not in page
    assert f"The =1 choice: {first.name} won the cut, {second.name}" in page
    assert 'id="prize-cut-again-form"' in page
    answer = client.post(url, {"again": "1", "again-winner": second.pk})
    assert answer.status_code == 302
    assert prizes(api, room) == [("=1", second.pk, "won"), ("=1", first.pk, "lost")]
    assert [c.winner for c in PrizeCut.objects.order_by("at", "id")] == [first, second]
    page = html.unescape(client.get(room.get_absolute_url()).content.decode())
    assert f"{first.name} won against {second.name}; recorded" in page
    assert f"{second.name} won against {first.name}; recorded" in page
    api.force_authenticate(director)
    answer = api.post(
        f"/api/v1/sessions/{room.pk}/prize-cuts", {"winner": first.pk, "again": True}, "json"
    )
    assert answer.status_code == 201, answer.content
    assert prizes(api, room) == [("=1", first.pk, "won"), ("=1", second.pk, "lost")]
    # Without `again`, a decided cut is still refused (the slip-proof path).
    answer = api.post(f"/api/v1/sessions/{room.pk}/prize-cuts", {"winner": second.pk}, "json")
    assert answer.status_code == 400
    assert PrizeCut.objects.count() == 3
