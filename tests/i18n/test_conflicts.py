"""409 answers speak the reader's language (issue: Italiano e English)."""

import pytest

from clubs.services import session_close

pytestmark = pytest.mark.django_db


def test_a_deal_for_a_closed_session_is_refused_in_italian(api, director, running_session):
    rubber = running_session.rubbers.get()
    rubber.record_deal(number=1, contract="2S", declarer="N", tricks=8, entered_by=director)
    session_close(session=running_session)
    api.force_authenticate(director)
    response = api.post(
        f"/api/v1/rubbers/{rubber.pk}/deals/",
        {"number": 2, "contract": "3NT", "declarer": "S", "tricks": 9},
        format="json",
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert response.status_code == 409
    assert response.json()["detail"] == "La serata è chiusa: i suoi risultati sono definitivi."
