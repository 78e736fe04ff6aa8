"""409 answers speak the reader's language (issue: Italiano e English)."""

import pytest

from games.sessions.lifecycle import session_close
from tests.conftest import unchanged
from tests.factories import acting

pytestmark = pytest.mark.django_db


def test_a_deal_for_a_closed_session_is_refused_in_italian(api, director, running_session):
    rubber = running_session.rubbers.get()
    rubber.record_deal(
        number=1, contract="2S", declarer="N", tricks=8, actor=acting(rubber, director)
    )
    session_close(session=running_session)
    api.force_authenticate(director)
    with unchanged():
        response = api.post(
            f"/api/v1/rubbers/{rubber.pk}/deals/",
            {"number": 2, "contract": "3NT", "declarer": "S", "tricks": 9},
            format="json",
            HTTP_ACCEPT_LANGUAGE="it",
        )
    assert response.status_code == 409
    assert response.json()["detail"] == "La serata è chiusa: i suoi risultati sono definitivi."


def test_a_deal_already_recorded_is_summed_up_in_italian(api, director, running_session):
    rubber = running_session.rubbers.get()
    rubber.record_deal(
        number=1,
        contract="2S",
        declarer="W",
        tricks=8,
        honours_side="EW",
        honours_points=100,
        actor=acting(rubber, director),
    )
    api.force_authenticate(director)
    with unchanged():
        response = api.post(
            f"/api/v1/rubbers/{rubber.pk}/deals/",
            {"number": 1, "contract": "3NT", "declarer": "S", "tricks": 9},
            format="json",
            HTTP_ACCEPT_LANGUAGE="it",
        )
    assert response.status_code == 409
    assert response.json()["detail"] == (
        "La smazzata 1 di questo rubber è già registrata come 2♠ giocato da O, 8 prese, "
        "onori 100 a EO; correggila invece (PATCH con la sua versione)."
    )


def test_a_two_player_deal_already_recorded_is_summed_up_in_italian(api, director, club):
    from tests.factories import add_player, make_session

    players = [add_player(club, "Anna"), add_player(club, "Bruno")]
    match = make_session(club, [players], kind="misery").rubbers.get()
    match.record_deal(
        number=1,
        data={"declarer": 1, "declaration": "misery", "tricks": 1},
        actor=acting(match, director),
    )
    api.force_authenticate(director)
    with unchanged():
        response = api.post(
            f"/api/v1/rubbers/{match.pk}/deals/",
            {"number": 1, "declarer": 0, "declaration": "ordinary", "strain": "S", "tricks": 9},
            format="json",
            HTTP_ACCEPT_LANGUAGE="it",
        )
    assert response.status_code == 409
    assert (
        "già registrata come miseria: SA giocato dal giocatore 2, 1 presa;"
        in (response.json()["detail"])
    )


@pytest.mark.parametrize(
    ("kind", "fields", "english", "italian"),
    [
        (
            "rubber",
            {"contract": "4S", "declarer": "N", "tricks": 10},
            "4♠ by N, 10 tricks",
            "4♠ giocato da N, 10 prese",
        ),
        ("chicago", {"contract": "pass"}, "passed out", "passata"),
        (
            "bridge_for_two",
            {"data": {"declarer": 0, "strain": "H", "tricks": 9, "doubled": 1}},
            "♥ by player 1, 9 tricks, doubled",
            "♥ giocato dal giocatore 1, 9 prese, contrato",
        ),
        (
            "misery",
            {"data": {"declarer": 1, "declaration": "eight", "strain": "S", "tricks": 7}},
            "eight ♠ by player 2, 7 tricks",
            "otto prese: ♠ giocato dal giocatore 2, 7 prese",
        ),
        ("turnover", {"data": {"tricks": [14, 10]}}, "tricks 14–10", "prese 14–10"),
        (
            "draw_discard",
            {"data": {"contract": "3NT", "declarer": 1, "tricks": 1}},
            "3NT by player 2, 1 trick",
            "3SA giocato dal giocatore 2, 1 presa",
        ),
        ("draw_discard", {"data": {"contract": "pass"}}, "passed", "passata"),
    ],
)
def test_a_deal_summary_speaks_the_active_language(kind, fields, english, italian):
    """Suits are symbols in every language, NT is SA in Italian (issue 18: "1C" reads as
    hearts, Cuori, to an Italian)."""
    from django.utils import translation

    from games.models import Deal, Rubber

    deal = Deal(number=1, rubber=Rubber(kind=kind), **fields)
    with translation.override("en"):
        assert deal.summary() == english
    with translation.override("it"):
        assert deal.summary() == italian
