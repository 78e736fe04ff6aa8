"""Standings pages: live standings (htmx polling), prizes, settlement sheet, leaderboard, player."""

from __future__ import annotations

import pytest

from scoring.standings import services
from tests.factories import acting
from tests.scoring.standings.conftest import win_rubber

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(room, director):
    win_rubber(room.rubbers.get(table__number=1), "NS", by=director)
    second = win_rubber(room.rubbers.get(table__number=2), "EW", by=director)
    second.record_deal(
        number=1, contract="2H", declarer="E", tricks=8, actor=acting(second, director)
    )
    services.standings_refresh(session_id=room.pk)
    return room


def test_live_standings_poll_a_partial_every_few_seconds(client, played):
    page = client.get(f"/sessions/{played.pk}/standings/")
    html = page.content.decode()
    assert page.status_code == 200
    assert f'hx-get="/sessions/{played.pk}/standings/live/"' in html
    assert 'hx-trigger="every 5s"' in html
    assert "North" in html and "Alice" in html
    partial = client.get(f"/sessions/{played.pk}/standings/live/", HTTP_HX_REQUEST="true")
    assert partial.status_code == 200
    body = partial.content.decode()
    assert body.lstrip().startswith('<div id="standings"') and "<html" not in body


def test_standings_page_shows_tables_prizes_and_provisional_rubbers(client, played):
    html = client.get(f"/sessions/{played.pk}/standings/").content.decode()
    assert "Table 1" in html and "Table 2" in html
    assert "Prizes" in html and 'class="prizes"' in html
    assert "table winner" in html
    assert "Provisional" in html  # the rubber in play at table 2


def test_settlement_sheet_has_one_line_per_payment(client, played):
    from scoring.standings.models import SessionPayment

    html = client.get(f"/sessions/{played.pk}/settlement/").content.decode()
    payments = SessionPayment.objects.filter(session=played).select_related("payer", "payee")
    assert html.count("<tr><td>") == payments.count() > 0
    for p in payments:
        assert f"<tr><td>{p.payer.name}</td><td>{p.payee.name}</td>" in html
        assert str(p.amount) in html


def test_leaderboard_with_a_season_picker(client, club, played):
    page = client.get(f"/clubs/{club.slug}/leaderboard/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'name="from"' in html and 'name="to"' in html
    assert "?from=2026-01-01&amp;to=2026-12-31" in html
    assert "North" in html
    bad = client.get(f"/clubs/{club.slug}/leaderboard/?from=2026-05-01&to=2026-01-01")
    assert bad.status_code == 400 and "field-error" in bad.content.decode()


def test_player_page_has_history_and_a_server_side_svg_chart(client, played, table_of_four):
    player = table_of_four["north"]
    html = client.get(f"/players/{player.pk}/history/").content.decode()
    assert "<svg" in html and "<polyline" in html
    assert "<script" not in html.split("<main", 1)[1].split("</main>", 1)[0]
    assert f"/sessions/{played.pk}/standings/" in html


def test_members_only_pages_are_hidden_from_outsiders(client, club, played, outsider):
    club.public = False
    club.save(update_fields=["public"])
    client.force_login(outsider)
    assert client.get(f"/sessions/{played.pk}/standings/").status_code == 404
    assert client.get(f"/sessions/{played.pk}/settlement/").status_code == 404
    assert client.get(f"/clubs/{club.slug}/leaderboard/").status_code == 404
    assert client.get(f"/players/{club.players.first().pk}/history/").status_code == 404


def test_the_standings_page_reads_a_constant_number_of_queries(
    client, played, django_assert_max_num_queries
):
    # One more than before the cuts (RULES 6.3): the fixture's partners share a prize's choice.
    with django_assert_max_num_queries(6):
        client.get(f"/sessions/{played.pk}/standings/live/")
