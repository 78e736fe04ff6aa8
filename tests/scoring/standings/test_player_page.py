"""The player's page and the club's ratings page (issue 19): ratings with their history chart,
record, hundreds and money over time, partnerships, recent rubbers; both languages."""

from __future__ import annotations

import datetime
import itertools
import re

import pytest

from games.models import Rubber
from scoring.standings import ratings, services
from scoring.standings.models import PlayerRating
from tests.factories import UserFactory, acting, add_player, make_club, make_session
from tests.scoring.standings.conftest import down_one, win_rubber
from tests.scoring.standings.test_ladders import two_games  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, table_of_four, director):
    """A pivot table of four: North partners South, then East... (RULES 6): four rubbers, one of
    them a draw closed unfinished, one in play."""
    session = make_session(club, [list(table_of_four.values())])
    rubber = session.rubbers.get()
    rubber = win_rubber(rubber, "NS", by=director)
    rubber = win_rubber(rubber, "NS", by=director)
    down_one(rubber, 1, declarer="N", by=director)
    down_one(rubber, 2, declarer="E", by=director)
    rubber.close_unfinished()
    rubber = Rubber.objects.start_next(table=rubber.table)
    rubber = win_rubber(rubber, "EW", by=director)
    rubber.record_deal(
        number=1, contract="2H", declarer="E", tricks=8, actor=acting(rubber, director)
    )
    services.standings_refresh(session_id=session.pk)
    ratings.ratings_refresh(club_id=club.pk)
    return session


def partner_counts(session, player):
    """(won, lost, drawn) with each partner, from the rubbers' own seats and scoresheets."""
    counts = {}
    for rubber in session.rubbers.exclude(status="in_play"):
        seats = rubber.seat_ids
        side = next(s for s, pid in seats.items() if pid == player.pk)
        partner = seats[{"N": "S", "S": "N", "E": "W", "W": "E"}[side]]
        totals = rubber.scoresheet().result.totals  # by place: NS, EW
        mine, theirs = (totals[0], totals[1]) if side in "NS" else (totals[1], totals[0])
        won, lost, drawn = counts.get(partner, (0, 0, 0))
        counts[partner] = (won + (mine > theirs), lost + (mine < theirs), drawn + (mine == theirs))
    return counts


def test_the_player_page_shows_rating_record_partnerships_and_recent_rubbers(
    client, night, table_of_four
):
    north = table_of_four["north"]
    html = client.get(f"/players/{north.pk}/").content.decode()
    rating = PlayerRating.objects.get(player=north, pool="bridge")
    assert f"{rating.ordinal:.1f}" in html
    assert 'data-chart="rating-bridge"' in html and 'class="band"' in html
    assert 'data-chart="hundreds"' in html and 'data-chart="money"' in html
    assert "1 session played" in html
    ended = night.rubbers.exclude(status="in_play").count()
    assert f"{ended} rubbers" in html
    counts = partner_counts(night, north)
    names = {p.pk: p.name for p in table_of_four.values()}
    for partner, (won, lost, drawn) in counts.items():
        played = won + lost + drawn
        assert re.search(
            rf">{names[partner]}</a></td><td class=\"num\"[^>]*>{played}</td>\s*"
            rf"<td class=\"num\"[^>]*>{won}</td><td class=\"num\"[^>]*>{lost}</td>"
            rf"<td class=\"num\"[^>]*>{drawn}</td>",
            html,
        ), names[partner]
    best = max((c[0], -c[1], partner) for partner, c in counts.items() if c[0])
    assert f"Wins most with <strong>{names[best[2]]}</strong>: {best[0]} of" in html
    for rubber in night.rubbers.all():
        assert f'href="/rubbers/{rubber.pk}/"' in html  # recent rubbers link to their pads


def test_the_player_page_speaks_the_clubs_language(client, club, night, table_of_four):
    club.language = "it"  # a club page speaks the club's language, whatever the browser says
    club.save(update_fields=["language"])
    html = client.get(
        f"/players/{table_of_four['north'].pk}/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Valutazione" in html and "Sodalizi" in html and "Rubber recenti" in html


@pytest.mark.parametrize(
    ("language", "date"), [("en", "Nov. 30, 2026"), ("it", "30 novembre 2026")]
)
def test_the_player_page_writes_its_dates_as_every_page_does(
    client, club, night, table_of_four, language, date
):
    """Outside probe: the recent rubbers and the charts wrote "11/30/2026" where the rest of
    the site writes "Nov. 30, 2026" (docs/i18n.md, "Dates and money")."""
    club.language = language
    club.save(update_fields=["language"])
    html = client.get(f"/players/{table_of_four['north'].pk}/").content.decode()
    recent = html[html.index('class="data recent') :]
    assert f"<td>{date}</td>" in recent
    assert f'data-chart-dates="hundreds">{date}</p>' in html  # one night: its date, under it
    assert not re.findall(r"\d{1,2}/\d{1,2}/\d{2,4}", html)


def test_a_player_with_no_results_has_an_empty_page_not_an_error(client, club):
    newcomer = add_player(club, "Newcomer")
    page = client.get(f"/players/{newcomer.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "No rated match yet" in html and "<svg" not in html


def test_the_old_history_url_still_answers_and_links_to_the_page(client, night, table_of_four):
    north = table_of_four["north"]
    page = client.get(f"/players/{north.pk}/history/")
    assert page.status_code == 200
    assert f'href="/players/{north.pk}/"' in page.content.decode()


def test_a_hidden_players_page_is_404_like_a_missing_one(client, outsider):
    hidden = make_club(director=UserFactory(username="boss"), slug="hidden", public=False)
    player = add_player(hidden, "Secret")
    client.force_login(outsider)
    assert client.get(f"/players/{player.pk}/").status_code == 404
    assert client.get("/players/999999/").status_code == 404
    assert client.get(f"/clubs/{hidden.slug}/ratings/").status_code == 404


def test_the_club_ratings_page_lists_the_pool_best_first(client, club, night):
    board = client.get(f"/clubs/{club.slug}/leaderboard/").content.decode()
    assert f'href="/clubs/{club.slug}/ratings/"' in board  # linked from the leaderboard
    page = client.get(f"/clubs/{club.slug}/ratings/")
    assert page.status_code == 200
    html = page.content.decode()
    rows = PlayerRating.objects.filter(club=club, pool="bridge").order_by("-ordinal")
    positions = [html.index(f'href="/players/{r.player_id}/"') for r in rows]
    assert positions == sorted(positions) and len(positions) == 4
    assert "How ratings work" in html
    empty = client.get(f"/clubs/{club.slug}/ratings/?pool=misery").content.decode()
    assert "No rated match in this pool yet." in empty


def test_an_unknown_pool_on_the_page_is_a_form_error(client, club):
    page = client.get(f"/clubs/{club.slug}/ratings/?pool=chess")
    assert page.status_code == 400
    assert 'class="field-error"' in page.content.decode()


def test_the_ratings_page_in_italian(client, club, night):
    club.language = "it"  # a club page speaks the club's language (docs/i18n.md)
    club.save(update_fields=["language"])
    html = client.get(f"/clubs/{club.slug}/ratings/").content.decode()
    assert "Come funzionano le valutazioni" in html


def test_the_player_page_reads_a_constant_number_of_queries(
    client, club, night, table_of_four, director, django_assert_num_queries
):
    north = table_of_four["north"]
    client.get(f"/players/{north.pk}/")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as before:
        client.get(f"/players/{north.pk}/")
    # Another day: one player sits in one running session of a day (issue 18).
    more = make_session(club, [list(table_of_four.values())], date=datetime.date(2026, 12, 7))
    win_rubber(more.rubbers.get(), "EW", by=director)
    services.standings_refresh(session_id=more.pk)
    ratings.ratings_refresh(club_id=club.pk)
    with django_assert_num_queries(len(before)):
        client.get(f"/players/{north.pk}/")


# --- issue 31: on a phone, "Points" explained, the chart dated by the matches, games apart ------


def test_the_points_are_called_the_sides_and_explained(client, night, table_of_four):
    html = client.get(f"/players/{table_of_four['north'].pk}/").content.decode()
    recent = html[html.index('class="data recent') :]
    assert "Side's points</th>" in recent.replace("&#x27;", "'") and ">Points<" not in recent
    assert 'id="points-note"' in html and "not a score of their own" in html
    # The rubber in play is marked so; the others say how they ended.
    (in_play,) = re.findall(r"<tr data-in-play>.*?</tr>", recent, flags=re.S)
    assert 'class="badge in_play"' in in_play


def test_the_rating_chart_is_dated_by_the_matches_days(client, club, table_of_four, director):
    """Score sheets typed in on one day for nights weeks apart: the chart's axis reads the
    nights' dates, not the day they were typed."""
    for day in (2, 16):
        session = make_session(
            club, [list(table_of_four.values())], date=datetime.date(2026, 11, day)
        )
        win_rubber(session.rubbers.get(), "NS", by=director)
        services.standings_refresh(session_id=session.pk)
    ratings.ratings_refresh(club_id=club.pk)
    html = client.get(f"/players/{table_of_four['north'].pk}/").content.decode()
    # Under the chart as text that wraps (issue 31 probe 3: two labels drawn in the chart ran
    # into each other at a phone's width).
    dates = re.search(r'data-chart-dates="rating-bridge">([^<]+)</p>', html)
    assert dates is not None and dates.group(1) == "from Nov. 2, 2026 to Nov. 16, 2026"


def test_tick_labels_never_run_into_each_other():
    """0 next to the lowest value is left unlabelled rather than drawn over it."""
    from scoring.standings.charts import TICK_GAP, Point, line_chart

    close = line_chart([Point(12.0, "a"), Point(-0.5, "b")])
    assert close is not None and [t.value for t in close.ticks] == [12.0, -0.5]
    apart = line_chart([Point(12.0, "a"), Point(-6.0, "b")])
    assert apart is not None and [t.value for t in apart.ticks] == [12.0, 0.0, -6.0]
    ys = [t.y for t in apart.ticks]
    assert all(b - a >= TICK_GAP for a, b in itertools.pairwise(ys))


def test_a_players_history_keeps_each_game_apart(client, two_games, table_of_four):  # noqa: F811
    rubber_night, two_night = two_games
    north = table_of_four["north"]
    html = client.get(f"/players/{north.pk}/history/").content.decode()
    sections = re.findall(r'<section class="player-game" data-ladder="(\w+)">', html)
    assert sections == ["bridge", "bridge_for_two"]
    bridge, two_player = html.split('data-ladder="bridge_for_two"')
    rubber = rubber_night.rubbers.get(number=1)
    match = two_night.rubbers.get(table__number=1, number=1)
    assert (
        f'href="/rubbers/{rubber.pk}/"' in bridge and f'href="/rubbers/{match.pk}/"' not in bridge
    )
    assert (
        f'href="/rubbers/{match.pk}/"' in two_player
        and f'href="/rubbers/{rubber.pk}/"' not in two_player
    )
    # The recent rubbers on the player's page name the game of each.
    page = client.get(f"/players/{north.pk}/").content.decode()
    assert "Bridge for Two</td>" in page and "Rubber bridge</td>" in page
