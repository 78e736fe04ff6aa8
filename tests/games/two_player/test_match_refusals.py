"""An entry refused in a two-player match says "match" and cites the game's own rule (issue 29:
a Turnover deal after the match's end answered "Rubber 1 is complete: … (RULES 8.1)."), from
the registry's words (`GameWords.after_end`, `end_rule`, `seated_only`; games/refusals.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.models import Conflict
from tests.factories import acting
from tests.games.two_player.conftest import post_deal

pytestmark = pytest.mark.django_db

#: Each game's deal that ends its match on its own where one does, and the rule cited.
AFTER_END = {
    "en": "Match 1 is complete: a deal after the end of a match belongs to the next match "
    "(RULES 7.3).",
    "it": "L'incontro 1 è concluso: una smazzata dopo la fine di un incontro appartiene "
    "all'incontro successivo (REGOLE 7.3).",
}


@pytest.mark.parametrize("language", ["en", "it"])
def test_a_turnover_deal_after_the_match_is_refused_in_match_words(
    api: Any, two_player_session: Any, north: Any, language: str
) -> None:
    match = two_player_session("turnover").rubbers.get(north__user=north)
    assert post_deal(api, match, 1, {"tricks": [14, 10]}, as_user=north).status_code == 201
    match.refresh_from_db()
    with translation.override(language), pytest.raises(Conflict) as refused:
        match.record_deal(number=2, data={"tricks": [14, 3]}, actor=acting(match, north))
    assert str(refused.value) == AFTER_END[language]


def test_the_offline_queue_says_it_in_match_words_too(
    client: Any, two_player_session: Any, north: Any, outsider: Any
) -> None:
    match = two_player_session("turnover").rubbers.get(north__user=north)
    match.record_deal(number=1, data={"tricks": [14, 10]}, actor=acting(match, north))
    client.force_login(north)
    body = {"number": 2, "tricks_0": "14", "tricks_1": "3"}
    answer = client.post(f"/rubbers/{match.pk}/deals/queued", body).json()
    assert answer["detail"] == AFTER_END["en"]
    client.force_login(outsider)
    answer = client.post(f"/rubbers/{match.pk}/deals/queued", body).json()
    assert answer["detail"] == "Only the players of this match or a director enter."


def test_a_rubber_still_says_rubber(rubber: Any, enter: Any, north: Any) -> None:
    from tests.games.conftest import SIX_DEALS

    enter(SIX_DEALS)
    rubber.refresh_from_db()
    with pytest.raises(Conflict) as refused:
        rubber.record_deal(
            number=7, contract="1C", declarer="N", tricks=7, actor=acting(rubber, north)
        )
    assert str(refused.value) == (
        "Rubber 1 is complete: a deal after the end of a rubber belongs to the next rubber "
        "(RULES 8.1)."
    )
