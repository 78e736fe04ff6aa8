"""Table codes (issue 17): /t/<code> opens a table on any phone, no account, for the session."""

from __future__ import annotations

import pytest

from clubs.models import CODE_ALPHABET, CODE_LENGTH, Table
from games.models import Deal
from games.sessions import lifecycle
from tests.conftest import unchanged
from tests.factories import add_player

TAPS = {"number": 1, "level": "4", "strain": "S", "declarer": "N", "result": "0"}


@pytest.fixture(autouse=True)
def _empty_throttle():
    from django.core.cache import cache, caches

    cache.clear()
    caches["throttle"].clear()


def at_table(client, rubber, seat="S"):
    code = rubber.table.code
    response = client.post(f"/t/{code}", {"seat": seat})
    assert response.status_code == 302
    assert response["Location"] == f"/rubbers/{rubber.pk}/"
    return code


def test_each_table_has_its_own_short_code(running_session):
    codes = [table.code for table in running_session.tables.all()]
    assert all(len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET) for code in codes)
    table = running_session.tables.first()
    old = table.code
    assert table.regenerate_code() != old


def test_a_phone_with_the_code_picks_a_seat_and_enters_with_no_account(client, rubber):
    page = client.get(f"/t/{rubber.table.code.lower()}").content.decode()
    assert "S · South" in page  # the seats, with tonight's names
    at_table(client, rubber, "S")
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert 'id="entry"' in html
    assert client.post(f"/rubbers/{rubber.pk}/deals/", TAPS).status_code == 302
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.entered_by_id) == ("4S", None)
    record = deal.history.get()
    assert record.history_change_reason == "entered · South, table 1 (code), seat S"


def test_the_seat_picker_speaks_the_clubs_language(client, rubber):
    """A code that works opens the club's table in the club's language, as the pad it leads to;
    a visitor's own choice of language wins (docs/i18n.md); an unknown code says nothing more."""
    club = rubber.session.club
    club.language = "it"
    club.save(update_fields=["language"])
    page = client.get(f"/t/{rubber.table.code}").content.decode()
    assert "A quale posto è questo telefono?" in page
    assert "Tavolo 1" in page
    missing = client.get("/t/ZZZZZZZZ")
    assert missing.status_code == 404
    assert "Tavolo" not in missing.content.decode()
    client.cookies["django_language"] = "en"
    assert "Which seat is this phone at?" in client.get(f"/t/{rubber.table.code}").content.decode()


def test_the_history_names_the_code_phone_in_the_clubs_words(client, api, rubber, director):
    """The history line names the phone in the place of a person ("South, table 1 (code), seat S ·
    entered"), in the club's language; the API keeps the documented reason codes (API.md) and
    names the phone in `code_phone`."""
    at_table(client, rubber, "S")
    assert client.post(f"/rubbers/{rubber.pk}/deals/", TAPS).status_code == 302
    deal = Deal.objects.get(rubber=rubber)
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "· South, table 1 (code), seat S · entered:" in html
    assert "(entered" not in html
    api.force_authenticate(director)
    (entry,) = api.get(f"/api/v1/deals/{deal.pk}/history").json()
    assert (entry["kind"], entry["reason"], entry["user"], entry["code_phone"]) == (
        "entered",
        "entered",
        None,
        "South, table 1 (code), seat S",
    )
    # The session's deals name the phone the same way (`entered_by`, the field kept).
    listed = api.get(f"/api/v1/sessions/{rubber.session_id}/deals").json()["deals"]
    assert [row["entered_by"] for row in listed] == ["South, table 1 (code), seat S"]
    club = rubber.session.club
    club.language = "it"
    club.save(update_fields=["language"])
    html = client.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert "· inserita:" in html


def test_the_code_phone_corrects_and_its_side_is_we(client, rubber, enter):
    enter([{"contract": "2H", "declarer": "N", "tricks": 8}])
    deal = rubber.deals.get()
    at_table(client, rubber, "E")
    assert 'data-left="ew"' in client.get(f"/rubbers/{rubber.pk}/").content.decode()
    prefix = f"deal{deal.pk}"
    body = {
        f"{prefix}-{k}": v
        for k, v in {
            "version": 1,
            "level": "2",
            "strain": "H",
            "declarer": "N",
            "result": "1",
        }.items()
    }
    assert client.post(f"/deals/{deal.pk}/correct", body).status_code == 302
    deal.refresh_from_db()
    assert (deal.tricks, deal.version) == (9, 2)
    assert deal.history.order_by("-history_id").first().history_change_reason == (
        "correction · East, table 1 (code), seat E"
    )


def test_the_code_stops_working_when_the_session_closes(client, rubber, running_session):
    code = at_table(client, rubber)
    assert client.post(f"/rubbers/{rubber.pk}/deals/", TAPS).status_code == 302
    lifecycle.session_close(session=running_session)
    assert client.get(f"/t/{code}").status_code == 404
    with unchanged():
        response = client.post(f"/rubbers/{rubber.pk}/deals/", {**TAPS, "number": 2})
    # Told in words, not sent to a sign-in page (issue 17 probe 5).
    assert response.status_code == 403
    assert "code has changed or was turned off" in response.content.decode()
    assert list(Deal.objects.values_list("number", flat=True)) == [1]


@pytest.mark.parametrize("change", ["regenerate", "off"])
def test_the_director_regenerates_or_turns_codes_off(
    client, rubber, running_session, director, change
):
    phone = client
    code = at_table(phone, rubber)
    from django.test import Client

    console = Client()
    console.force_login(director)
    url = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/codes/"
    assert console.post(url, {"action": change, "sure": "1"}).status_code == 302
    assert phone.get(f"/t/{code}").status_code == 404
    with unchanged():
        response = phone.post(f"/rubbers/{rubber.pk}/deals/", TAPS)
    # Told in words, not sent to a sign-in page (issue 17 probe 5).
    assert response.status_code == 403
    assert "code has changed or was turned off" in response.content.decode()
    assert not Deal.objects.exists()


def test_a_player_cannot_change_the_codes(client, running_session, north):
    client.force_login(north)
    url = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/codes/"
    with unchanged():
        assert client.post(url, {"action": "off"}).status_code == 403


def test_wrong_codes_are_throttled(client, rubber):
    from games.codes import tokens as codes

    # As docs/api.md says: three hundred misses in ten minutes.
    assert (codes.MISSES, codes.WINDOW) == (300, 600)
    from django.test import Client

    seated = Client()  # a phone at its table, behind the same address
    at_table(seated, rubber, "S")
    # A room of typos is not locked out: ten misses still leave the right code working.
    for _ in range(10):
        assert client.get("/t/ZZZZZZZZ").status_code == 404
    assert client.get(f"/t/{rubber.table.code}").status_code == 200
    for _ in range(codes.MISSES - 10):
        assert client.get("/t/ZZZZZZZZ").status_code == 404
    # Then even the right code waits: guessing gets nowhere. A page, in the club's words.
    page = client.get(f"/t/{rubber.table.code}")
    assert page.status_code == 429
    assert page["Retry-After"] == str(codes.WINDOW)
    assert "<html" in page.content.decode()
    assert "Wait 10 minutes, then scan the table card again." in page.content.decode()
    italian = client.get(f"/t/{rubber.table.code}", HTTP_ACCEPT_LANGUAGE="it")
    assert "Troppi codici sbagliati" in italian.content.decode()
    # The phone already holding its table goes on entering (docs/security.md).
    assert seated.get(f"/t/{rubber.table.code}").status_code == 200  # its own code
    assert seated.post(f"/rubbers/{rubber.pk}/deals/", TAPS).status_code == 302
    assert Deal.objects.filter(rubber=rubber, number=1).exists()


def test_wrong_codes_count_per_real_client_behind_the_proxy(client, rubber, settings):
    """Behind one proxy every request comes from its address: the count is per client."""
    from games.codes import tokens as codes

    settings.NUM_PROXIES = 1
    guesser = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    player = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    for _ in range(codes.MISSES):
        assert client.get("/t/ZZZZZZZZ", **guesser).status_code == 404
    assert client.get(f"/t/{rubber.table.code}", **guesser).status_code == 429
    assert client.get(f"/t/{rubber.table.code}", **player).status_code == 200


def test_a_code_opens_a_members_only_table_and_only_that_one(client, rubber, club, make_user):
    from tests.factories import add_player, make_session

    club.public = False
    club.save()
    others = [add_player(club, f"O{i}", user=make_user(f"o{i}")) for i in range(4)]
    other = make_session(club, [others]).rubbers.get()
    at_table(client, rubber)
    assert client.get(f"/rubbers/{rubber.pk}/").status_code == 200
    assert client.get(f"/rubbers/{other.pk}/").status_code == 404
    with unchanged():
        assert client.post(f"/rubbers/{other.pk}/deals/", TAPS).status_code == 404


def test_the_session_api_shows_codes_to_its_director_only(api, running_session, director, north):
    url = f"/api/v1/sessions/{running_session.pk}/"
    api.force_authenticate(director)
    table = running_session.tables.get()
    assert api.get(url).json()["tables"][0]["code"] == table.code
    api.force_authenticate(north)
    assert api.get(url).json()["tables"][0]["code"] is None
    api.force_authenticate(None)
    assert api.get(url).json()["tables"][0]["code"] is None


def test_the_table_card_shows_the_code_and_its_qr_to_the_director(
    client, running_session, director, north
):
    url = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/cards/"
    code = running_session.tables.get().code
    client.force_login(director)
    html = client.get(url).content.decode()
    assert f'data-code="{code}"' in html and 'class="segno"' in html
    assert f"/t/{code}" in html
    client.force_login(north)
    html = client.get(url).content.decode()
    assert code not in html and "<svg" not in html


def test_the_qr_svg_carries_no_text_of_its_url_even_with_a_hostile_host(
    client, running_session, director, settings
):
    """The card's QR is inserted unescaped (segno's own SVG): only a viewBox and path data, so
    nothing of the URL it encodes, here with a hostile Host header, reaches the markup."""
    import re

    settings.ALLOWED_HOSTS = ["*"]
    url = f"/clubs/{running_session.club.slug}/sessions/{running_session.pk}/cards/"
    client.force_login(director)
    html = client.get(url, HTTP_HOST="evil.example").content.decode()
    (svg,) = re.findall(r'<svg[^>]*class="segno".*?</svg>', html, flags=re.S)
    assert "evil" not in svg and "/t/" not in svg
    assert set(re.findall(r"<(\w+)", svg)) <= {"svg", "path"}


def test_the_api_answers_each_write_with_the_codes_the_cards_carry(api, director, club):
    """Issue 31 probe 5: planning and starting answered `code: null` while the cards carried the
    code fixed at planning. Every answer to the director now names it, the same code from
    planning to start; once closed it is null (the cards say the code no longer opens it)."""
    players = [p.pk for p in (add_player(club, n) for n in ("Ann", "Bo", "Cy", "Di"))]
    api.force_authenticate(director)
    made = api.post(
        f"/api/v1/clubs/{club.slug}/sessions/",
        {"date": "2026-11-30", "tables": [{"players": players}]},
        format="json",
    )
    assert made.status_code == 201, made.json()
    session = made.json()
    planned = [table["code"] for table in session["tables"]]
    assert planned == [t.code for t in Table.objects.filter(session_id=session["id"])]
    assert all(planned)
    detail = f"/api/v1/sessions/{session['id']}/"
    assert [t["code"] for t in api.get(detail).json()["tables"]] == planned
    started = api.post(f"/api/v1/sessions/{session['id']}/start")
    assert [t["code"] for t in started.json()["tables"]] == planned
    closed = api.post(f"/api/v1/sessions/{session['id']}/close")
    assert [t["code"] for t in closed.json()["tables"]] == [None]


def test_a_club_export_leaves_the_table_codes_out(running_session):
    from games.transfer import club_export

    exported = club_export(club=running_session.club)
    code = running_session.tables.get().code
    assert exported["tables"] and all("code" not in row for row in exported["tables"])
    assert code not in repr(exported)


def test_a_phone_whose_code_was_regenerated_is_told_so_not_sent_to_sign_in(client, rubber):
    """Issue 17 probe 5: the code changed mid-entry (public club: the pad still reads)."""
    at_table(client, rubber)
    table = rubber.table
    table.code = "ABCDEFGH" if table.code != "ABCDEFGH" else "HGFEDCBA"
    table.save(update_fields=["code"])
    url = f"/rubbers/{rubber.pk}/deals/"
    words = "This table's code has changed or was turned off: scan the table card again."
    fragment = client.post(url, TAPS, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200
    assert fragment["HX-Retarget"] == "#entry"
    assert words in fragment.content.decode()
    assert "<html" not in fragment.content.decode()
    page = client.post(url, TAPS)
    assert page.status_code == 403
    assert "code has changed or was turned off" in page.content.decode()
    assert "login" not in page.get("Location", "")
    assert not Deal.objects.exists()


def test_a_conflict_names_a_code_phone_as_the_deal_list_does(client, rubber, east):
    """A deal a table-code phone entered is "South, table 1 (code), seat S" in the deal list; the
    notice of a phone that enters the same deal number says so too, not "someone at the
    table" (issue 17)."""
    at_table(client, rubber, "S")
    assert client.post(f"/rubbers/{rubber.pk}/deals/", TAPS).status_code == 302
    label = "South, table 1 (code), seat S"
    east_phone = type(client)()
    east_phone.force_login(east)
    listed = east_phone.get(f"/rubbers/{rubber.pk}/").content.decode()
    assert f"entered by {label}" in listed
    notice = f"Deal 1 was already entered by {label}: 4♠ by North, made. Correct it?"
    html = east_phone.post(f"/rubbers/{rubber.pk}/deals/", {**TAPS, "declarer": "E"})
    assert notice in html.content.decode()
    live = east_phone.get(f"/rubbers/{rubber.pk}/live", {"number": "1"}).content.decode()
    assert notice in live


def test_a_correction_meanwhile_by_a_code_phone_is_named_as_the_deal_list_does(
    client, rubber, enter, north
):
    enter([{"contract": "2H", "declarer": "N", "tricks": 8}])
    deal = rubber.deals.get()
    prefix = f"deal{deal.pk}"

    def body(result):
        taps = {"version": 1, "level": "2", "strain": "H", "declarer": "N", "result": result}
        return {f"{prefix}-{k}": v for k, v in taps.items()}

    at_table(client, rubber, "E")
    assert client.post(f"/deals/{deal.pk}/correct", body("1")).status_code == 302
    north_phone = type(client)()
    north_phone.force_login(north)
    html = north_phone.post(f"/deals/{deal.pk}/correct", body("-1")).content.decode()
    by = "East, table 1 (code), seat E"
    assert f"Deal 1 was just corrected by {by}: it is now 2♥ by North, +1." in html
