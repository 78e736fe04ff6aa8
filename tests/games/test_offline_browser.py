"""A phone that loses the club's Wi-Fi: deals recorded offline are kept on the phone, survive a
reload, and reach the server once each, in order, when the connection returns (docs/offline.md).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Error as BrowserError

from games.models import Deal
from tests.conftest import sign_in, wait_for
from tests.factories import acting
from tests.games.test_browser import tap_deal
from tests.pages.test_a11y_browser import AXE

FOUR_SPADES = ("4", "S", 0, "N", 0, "")  # 4♠ by N, made: 10 tricks
THREE_NT_DOWN = ("3", "NT", 0, "E", -1, "")  # 3NT by E, one down: 8 tricks


@pytest.fixture(autouse=True)
def _close_phones(transactional_db: Any, live_server: Any, browser: Any) -> Any:
    """Every phone closes before the database is emptied, even after a failure: a page left
    open keeps polling the live server and locks the tables being flushed."""
    yield
    for context in browser.contexts:
        context.close()


def open_rubber(browser: Any, live_server: Any, username: str, rubber: Any) -> tuple[Any, Any]:
    """A phone signed in on the rubber page, ready to work offline (page and files cached)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    sign_in(page, live_server.url, username, f"/rubbers/{rubber.pk}/")
    page.locator("#offline[data-ready=true]").wait_for(state="attached")
    return context, page


def kept_page_has(page: Any, text: str) -> bool:
    """Whether the copy of the page the service worker keeps contains `text`."""
    return bool(
        page.evaluate(
            """async (text) => {
                const kept = await (await caches.open("backscore-v1")).match(location.href);
                return Boolean(kept) && (await kept.text()).includes(text);
            }""",
            text,
        )
    )


def axe_violations(page: Any, selector: str) -> list[str]:
    """axe-core's violations of any impact inside `selector` (tests/browser_assets), run in
    the page as it is (no reload: offline, a reload would lose what is shown)."""
    page.evaluate("source => (0, eval)(source)", AXE.read_text())
    found: list[str] = page.evaluate(
        """async selector => (await axe.run(selector, {resultTypes: ["violations"]}))
            .violations.map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target)}`)""",
        selector,
    )
    return found


def record(page: Any, deal: tuple[Any, ...], number: int) -> None:
    page.locator("#entry h2").filter(has_text=f"Deal {number}").wait_for()
    tap_deal(page, *deal)
    page.locator("#record").click()


def keep_two_behind_a_deleted_deal(browser: Any, live_server: Any, rubber: Any) -> tuple[Any, ...]:
    """North records deals 1 and 2, keeps 3 and 4 offline, and the director deletes deal 2
    meanwhile: back online, deal 3 is refused for the gap (RULES 8.1). The phone, its page and
    that refusal's line."""
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    record(page, FOUR_SPADES, 1)
    page.locator("#deals #deal-1").wait_for()
    record(page, THREE_NT_DOWN, 2)
    page.locator("#deals #deal-2").wait_for()
    context.set_offline(True)
    page.locator("#offline.is-offline").wait_for()
    record(page, THREE_NT_DOWN, 3)
    page.locator("#offline-pending li[data-number='3']").wait_for()
    record(page, FOUR_SPADES, 4)
    page.locator("#offline-pending li[data-number='4']").wait_for()
    Deal.objects.get(rubber=rubber, number=2).delete_last(
        version=1, actor=acting(Deal.objects.get(rubber=rubber, number=2), None, director=True)
    )
    context.set_offline(False)
    refused = page.locator("#offline-pending li.refused[data-number='3']")
    refused.wait_for()
    return context, page, refused


def history_count(deal: Deal) -> int:
    return int(deal.history.count())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_deals_recorded_offline_survive_a_reload_and_reach_the_server_once_in_order(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    assert page.locator("#offline").is_hidden()  # online, nothing waiting: nothing to say

    context.set_offline(True)
    page.locator("#offline.is-offline").wait_for()
    record(page, FOUR_SPADES, 1)
    page.locator("#offline-pending li[data-number='1']").wait_for()
    record(page, THREE_NT_DOWN, 2)
    page.locator("#offline-pending li[data-number='2']").wait_for()

    pending = page.locator("#offline-pending li")
    assert pending.count() == 2
    # Each with the phone's own figure (docs/offline.md, "A score offline").
    assert (
        pending.nth(0).inner_text() == "Deal 1 4 ♠ N =: We +120 — saved on this phone, not yet sent"
    )
    assert (
        pending.nth(1).inner_text()
        == "Deal 2 3 NT E −1: We +50 — saved on this phone, not yet sent"
    )
    # On the pad, the phone's total, marked (the server's replaces it once it has the deals).
    assert page.locator("#total-ns.unsent").inner_text() == "170"
    # And beside the entry's "Deal 3", with the game deal 1 made (a walk found the server's
    # "We 0 · They 0" there while the pad and the panel said 170).
    assert page.locator("#mini-totals").inner_text() == "We 170 vul. · They 0"
    assert page.locator("#mini-totals .we.unsent").count() == 1
    assert "2 deals are waiting to be sent." in page.locator("#offline-title").inner_text()
    assert "Offline" in page.locator("#offline-title").inner_text()
    assert axe_violations(page, "#offline") == []  # a walk's axe found a heading as a status
    assert page.locator("#entry h2").inner_text() == "Deal 3"
    assert not Deal.objects.filter(rubber=rubber).exists()

    # Still offline: the page comes from the service worker's cache (a change made on the server
    # meanwhile is not in it), the deals from the phone.
    club = running_session.club
    club.name = "Renamed meanwhile"
    club.save(update_fields=["name"])
    response = page.reload()
    assert response is not None and response.from_service_worker
    assert "Renamed meanwhile" not in page.content()
    page.locator("#offline-pending li[data-number='2']").wait_for()
    assert page.locator("#offline-pending li").count() == 2
    assert page.locator("#pad").is_visible()
    assert page.locator("#entry h2").inner_text() == "Deal 3"
    assert page.locator("#mini-totals").inner_text() == "We 170 vul. · They 0"
    assert not Deal.objects.filter(rubber=rubber).exists()
    # Deal 3 tapped, not recorded, when the connection returns: its line is the phone's...
    tap_deal(page, *FOUR_SPADES)
    preview = page.locator("#preview")
    assert preview.inner_text() == "We +820, with the rubber bonus (on this phone, not yet sent)"

    context.set_offline(False)
    page.locator("#offline").wait_for(state="hidden")
    page.locator("#deals #deal-2").wait_for()
    assert page.locator("#total-ns").inner_text() == "170"
    assert page.locator("#pad .unsent").count() == 0  # the server's figures now
    # ...then the server's, once it has the deals: no longer "not yet sent" (a walk found the
    # phone's words left there), the taps kept.
    preview.filter(has_text="4♠ by North, made: We +820, with the rubber bonus").wait_for()
    assert "not yet sent" not in preview.inner_text()
    assert page.locator("#mini-totals").inner_text() == "We 170 vul. · They 0"
    assert page.locator("#mini-totals .unsent").count() == 0
    deals = list(Deal.objects.filter(rubber=rubber).order_by("number"))
    assert [(d.number, d.contract, d.declarer, d.tricks) for d in deals] == [
        (1, "4S", "N", 10),
        (2, "3NT", "E", 8),
    ]
    assert deals[0].entered_at < deals[1].entered_at  # sent in order
    assert [history_count(d) for d in deals] == [1, 1]  # each written once
    assert all(d.entered_by == rubber.north.user for d in deals)
    assert page.locator("#entry h2").inner_text() == "Deal 3"
    # Online, the worker asks the server first: the page is the server's again.
    page.reload()
    assert "Renamed meanwhile" in page.content()
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_another_phone_entered_the_deal_meanwhile_the_player_sees_both_and_drops_theirs(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    context.set_offline(True)
    record(page, FOUR_SPADES, 1)
    record(page, THREE_NT_DOWN, 2)
    page.locator("#offline-pending li[data-number='2']").wait_for()

    # Meanwhile South's phone, online, records deal 1 as something else.
    other, other_page = open_rubber(browser, live_server, rubber.south.user.username, rubber)
    record(other_page, THREE_NT_DOWN, 1)
    other_page.locator("#deals #deal-1").wait_for()
    other.close()

    context.set_offline(False)
    conflict = page.locator("#offline-pending li.conflict[data-number='1']")
    conflict.wait_for()
    text = conflict.inner_text()
    assert "Another phone entered deal 1 first." in text
    assert "On the server: 3NT by E, 8 tricks (entered by South)" in text
    assert "On this phone: 4♠ by N, 10 tricks" in text
    # Deal 2 waits behind the choice: nothing is sent out of order.
    assert (
        "saved on this phone, not yet sent"
        in page.locator("#offline-pending li").nth(1).inner_text()
    )
    assert list(Deal.objects.filter(rubber=rubber).values_list("number", "contract")) == [
        (1, "3NT")
    ]
    # Online now, but a deal recorded meanwhile joins the queue behind the choice.
    record(page, FOUR_SPADES, 3)
    page.locator("#offline-pending li.pending[data-number='3']").wait_for()
    assert Deal.objects.filter(rubber=rubber).count() == 1
    conflict.get_by_role("button", name="Keep the server's, drop mine").click()

    page.locator("#offline").wait_for(state="hidden")
    page.locator("#deals #deal-3").wait_for()
    deals = list(Deal.objects.filter(rubber=rubber).order_by("number"))
    assert [(d.number, d.contract, d.declarer, d.tricks, d.version) for d in deals] == [
        (1, "3NT", "E", 8, 1),  # South's, untouched
        (2, "3NT", "E", 8, 1),
        (3, "4S", "N", 10, 1),
    ]
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_player_who_may_correct_the_other_version_chooses_theirs(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    rubber = running_session.rubbers.get(number=1)
    north = rubber.north.user.username
    context, page = open_rubber(browser, live_server, north, rubber)
    context.set_offline(True)
    record(page, FOUR_SPADES, 1)
    page.locator("#offline-pending li[data-number='1']").wait_for()

    # North's other phone (the same login) records deal 1 differently meanwhile.
    other, other_page = open_rubber(browser, live_server, north, rubber)
    record(other_page, THREE_NT_DOWN, 1)
    other_page.locator("#deals #deal-1").wait_for()
    other.close()

    context.set_offline(False)
    conflict = page.locator("#offline-pending li.conflict[data-number='1']")
    conflict.wait_for()
    assert "On the server: 3NT by E, 8 tricks" in conflict.inner_text()
    conflict.get_by_role("button", name="Correct it to mine").click()

    page.locator("#offline").wait_for(state="hidden")
    page.locator("#deals #deal-1").filter(has_text="4♠ by North").wait_for()
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.declarer, deal.tricks, deal.version) == ("4S", "N", 10, 2)
    assert [h.history_change_reason for h in deal.history.order_by("history_id")] == [
        "entered",
        "correction",
    ]
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_queue_speaks_the_clubs_language(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    club = running_session.club
    club.language = "it"
    club.save(update_fields=["language"])
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    context.set_offline(True)
    page.locator("#entry h2").filter(has_text="Smazzata 1").wait_for()
    tap_deal(page, *FOUR_SPADES)
    # The phone's own figure (docs/offline.md, "A score offline"), in Italian.
    assert (
        page.locator("#preview").inner_text() == "Noi +120 (su questo telefono, non ancora inviata)"
    )
    page.locator("#record").click()
    page.locator("#offline-pending li[data-number='1']").wait_for()
    assert (
        page.locator("#preview").inner_text()
        == "Tocca il contratto, il dichiarante e il risultato."
    )
    assert page.locator("#offline-score").inner_text() == (
        "Punteggio con le smazzate tenute su questo telefono, non ancora inviate: Noi 120 · Loro 0"
    )
    status = page.locator("#offline-title").inner_text()
    assert status.startswith("Senza connessione")
    assert "1 smazzata attende di essere inviata." in status
    assert (
        "salvata su questo telefono, non ancora inviata"
        in page.locator("#offline-pending li").inner_text()
    )
    assert page.locator("#entry h2").inner_text() == "Smazzata 2"
    # On the pad itself, marked: a list of deals begun by the phone (the server has none yet).
    row = page.locator("#deals-unsent tr.unsent")
    assert row.inner_text().split("\t") == ["1", "4 ♠ N = non ancora inviata", "120", "0"]
    assert page.locator("#total-ns.unsent").inner_text() == "120"
    assert page.locator("#pad-unsent").inner_text().startswith("Le cifre segnate")
    context.set_offline(False)
    page.locator("#offline-sent").filter(has_text="1 smazzata inviata.").wait_for()
    page.locator("#offline").wait_for(state="hidden")
    assert list(Deal.objects.filter(rubber=rubber).values_list("number", "contract")) == [(1, "4S")]
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_deal_whose_answer_was_lost_is_sent_again_and_recorded_once(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    """Online, the post reaches the server but its answer never reaches the phone: the phone
    keeps the deal and sends it again; the server answers "already recorded"."""
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    lost: list[int] = []

    def lose_the_answer(route: Any) -> None:
        response = route.fetch()  # the server records the deal ...
        lost.append(response.status)
        route.abort()  # ... and the phone never hears back

    page.route(f"**/rubbers/{rubber.pk}/deals/", lose_the_answer)
    record(page, FOUR_SPADES, 1)
    page.locator("#deals #deal-1").wait_for()
    page.locator("#offline").wait_for(state="hidden")
    assert lost == [200]
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.tricks, deal.history.count()) == ("4S", 10, 1)
    # The form moves on to deal 2 (the kept deal went again); or, when the lost post was not
    # kept here, its taps stay on deal 1 and the pad says that deal 1 is already entered: never
    # moved silently to a new number (a duplicate).
    page.locator(
        '#entry h2:has-text("Deal 2"), #notice:has-text("Deal 1 was already entered")'
    ).first.wait_for()
    assert Deal.objects.filter(rubber=rubber).count() == 1
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_deal_the_server_refuses_says_why_and_is_dropped_by_the_player(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    from clubs.models import Membership

    rubber = running_session.rubbers.get(number=1)
    north = rubber.north.user
    context, page = open_rubber(browser, live_server, north.username, rubber)
    record(page, FOUR_SPADES, 1)  # online: recorded at once
    page.locator("#deals #deal-1").wait_for()
    context.set_offline(True)
    record(page, THREE_NT_DOWN, 2)
    page.locator("#offline-pending li[data-number='2']").wait_for()

    # The director takes North's login out of the club meanwhile: it no longer sits anywhere.
    Membership.objects.filter(user=north).delete()
    context.set_offline(False)
    refused = page.locator("#offline-pending li.refused[data-number='2']")
    refused.wait_for()
    assert (
        "Not recorded: Only the players seated in this rubber or a director enter."
        in refused.inner_text()
    )
    # The status line says which deal was refused; the reason is on its line.
    assert page.locator("#offline-title").inner_text() == (
        "Deal 2 was not recorded: the reason is below. Drop it, or keep it to show the director."
    )
    refused.get_by_role("button", name="Drop it").click()
    page.locator("#offline").wait_for(state="hidden")
    assert list(Deal.objects.filter(rubber=rubber).values_list("number", "contract")) == [(1, "4S")]
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_deals_kept_after_a_deleted_deal_are_recorded_as_the_next_ones(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    """The director deletes deal 2 while a phone keeps deals 3 and 4 offline: deal 3 is refused
    for the gap (RULES 8.1) and offers "Record as deal 2"; one tap records both, as 2 and 3."""
    rubber = running_session.rubbers.get(number=1)
    context, page, refused = keep_two_behind_a_deleted_deal(browser, live_server, rubber)
    assert "The next deal of this rubber is number 2, not 3." in refused.inner_text()
    assert Deal.objects.filter(rubber=rubber).count() == 1
    refused.get_by_role("button", name="Record as deal 2").click()
    page.locator("#offline").wait_for(state="hidden")
    page.locator("#deals #deal-3").wait_for()
    deals = Deal.objects.filter(rubber=rubber).order_by("number")
    assert [(d.number, d.contract, d.tricks) for d in deals] == [
        (1, "4S", 10),
        (2, "3NT", 8),
        (3, "4S", 10),
    ]
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_record_as_the_next_deal_asks_the_server_again_when_tapped(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    """The refusal offered "Record as deal 2", then another phone entered deal 2 before the tap
    (an outside probe lost a hand there): the tap asks again, and deals 3 and 4 keep their
    numbers; nothing is moved over the other phone's deal."""
    rubber = running_session.rubbers.get(number=1)
    context, page, refused = keep_two_behind_a_deleted_deal(browser, live_server, rubber)
    rubber.record_deal(number=2, contract="2H", declarer="N", tricks=8, actor=acting(rubber, None))
    refused.get_by_role("button", name="Record as deal 2").click()
    page.locator("#offline").wait_for(state="hidden")
    page.locator("#deals #deal-4").wait_for()
    deals = Deal.objects.filter(rubber=rubber).order_by("number")
    assert [(d.number, d.contract, d.tricks) for d in deals] == [
        (1, "4S", 10),
        (2, "2H", 8),
        (3, "3NT", 8),
        (4, "4S", 10),
    ]
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_gap_refusal_goes_in_by_itself_once_the_gap_is_filled(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    """A refusal for a gap is asked about again with the queue's retries (here: the connection
    coming back): once another phone entered the missing deal, the kept deal goes in as it is."""
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    record(page, FOUR_SPADES, 1)
    page.locator("#deals #deal-1").wait_for()
    context.set_offline(True)
    page.locator("#offline.is-offline").wait_for()
    record(page, THREE_NT_DOWN, 2)
    page.locator("#offline-pending li[data-number='2']").wait_for()
    Deal.objects.get(rubber=rubber, number=1).delete_last(
        version=1, actor=acting(Deal.objects.get(rubber=rubber, number=1), None, director=True)
    )
    context.set_offline(False)
    page.locator("#offline-pending li.refused[data-number='2']").wait_for()
    rubber.record_deal(number=1, contract="2H", declarer="N", tricks=8, actor=acting(rubber, None))
    context.set_offline(True)
    context.set_offline(False)
    page.locator("#offline").wait_for(state="hidden")
    deals = Deal.objects.filter(rubber=rubber).order_by("number")
    assert [(d.number, d.contract) for d in deals] == [(1, "2H"), (2, "3NT")]
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_deals_kept_when_the_session_ended_are_sent_after_signing_in_again(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    rubber = running_session.rubbers.get(number=1)
    north = rubber.north.user.username
    context, page = open_rubber(browser, live_server, north, rubber)
    context.set_offline(True)
    record(page, FOUR_SPADES, 1)
    page.locator("#offline-pending li[data-number='1']").wait_for()

    context.clear_cookies(name="sessionid")  # the sign-in expired while the phone was away
    context.set_offline(False)
    page.locator("#offline-title").filter(has_text="open your table's code again").wait_for()
    assert "saved on this phone, not yet sent" in page.locator("#offline-pending li").inner_text()
    assert not Deal.objects.filter(rubber=rubber).exists()

    sign_in(page, live_server.url, north, f"/rubbers/{rubber.pk}/")
    page.locator("#deals #deal-1").wait_for()
    page.locator("#offline").wait_for(state="hidden")
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.tricks, deal.entered_by.username) == ("4S", 10, north)
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_chromium_finds_the_app_installable_and_only_the_rubber_page_opens_offline(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []
    assert manifest["manifest"]["display"] == "kStandalone"
    # Playwright's contexts are incognito, which Chromium names; nothing else stands in the way.
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []

    context.set_offline(True)
    with pytest.raises(BrowserError):  # a page never kept does not open without a connection
        context.new_page().goto(f"{live_server.url}/clubs/{running_session.club.slug}/")
    elsewhere = context.new_page()
    elsewhere.goto(f"{live_server.url}/rubbers/{rubber.pk}/")
    elsewhere.locator("#entry").wait_for()
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_answer_of_503_keeps_the_deal_and_sends_it_again(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    page.route(
        f"**/rubbers/{rubber.pk}/deals/",
        lambda route: route.fulfill(status=503, body="Back in a moment"),
    )
    record(page, FOUR_SPADES, 1)
    page.locator("#deals #deal-1").wait_for()
    page.locator("#offline").wait_for(state="hidden")
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.tricks, deal.history.count()) == ("4S", 10, 1)
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_deal_whose_post_fails_after_the_live_line_answered_is_still_kept(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    """The last tap's live line (an htmx swap of its own) can come back while the deal is on its
    way; a 503 after it still keeps the deal. The queue took that swap for the deal's answer and
    forgot the deal: CI saw the deal never sent under load."""
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    previews: list[Any] = []
    posts: list[Any] = []
    preview_url = re.compile(rf"/rubbers/{rubber.pk}/preview\?")
    page.route(preview_url, lambda route: previews.append(route))
    page.route(f"**/rubbers/{rubber.pk}/deals/", lambda route: posts.append(route))
    page.evaluate(
        "window.swaps = 0; document.addEventListener('htmx:afterSwap', () => window.swaps++)"
    )
    record(page, FOUR_SPADES, 1)
    wait_for(lambda: page.evaluate("1") and bool(posts))
    page.unroute(preview_url)
    for route in previews:  # the live line answers while the deal waits for its answer
        route.continue_()
    wait_for(lambda: page.evaluate("window.swaps") > 0)
    posts[0].fulfill(status=503, body="Back in a moment")
    page.locator("#deals #deal-1").wait_for()
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.tricks, deal.history.count()) == ("4S", 10, 1)
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_signing_out_forgets_the_kept_page(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(f"{live_server.url}/")
    assert page.evaluate("caches.has('backscore-v1')") is False
    context.set_offline(True)
    with pytest.raises(BrowserError):
        context.new_page().goto(f"{live_server.url}/rubbers/{rubber.pk}/")
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_two_player_match_queues_its_deals_the_same_way(
    live_server: Any, browser: Any, club: Any, table_of_four: dict[str, Any]
) -> None:
    """The queue posts the entry form's own fields: any game's form works (RULES 7.1)."""
    from tests.factories import make_session

    players = table_of_four
    session = make_session(club, [[players["north"], players["east"]]], kind="bridge_for_two")
    match = session.rubbers.get()
    context, page = open_rubber(browser, live_server, "north", match)
    context.set_offline(True)
    for declarer, strain, tricks in ((0, 3, 10), (1, 1, 9)):  # ♠ by North 10, ♦ by East 9
        page.locator(f"#entry label[for=id_declarer_{declarer}]").click()
        page.locator(f"#entry label[for=id_strain_{strain}]").click()
        page.locator(f"#entry label[for=id_tricks_{tricks}]").click()
        page.locator("#record").click()
    page.locator("#offline-pending li[data-number='2']").wait_for()
    assert not Deal.objects.filter(rubber=match).exists()
    # The phone scores them (RULES 7.1): 4 odd tricks at ♠ for North, 3 at ♦ for East.
    north, east = players["north"].name, players["east"].name
    pending = page.locator("#offline-pending li .offline-points")
    assert [pending.nth(i).inner_text() for i in (0, 1)] == [f": {north} +120", f": {east} +60"]
    assert page.locator("#offline-score").inner_text().endswith(f"{north} 120 · {east} 60")

    context.set_offline(False)
    page.locator("#offline").wait_for(state="hidden")
    page.locator("#deals #deal-2").wait_for()
    data = list(Deal.objects.filter(rubber=match).order_by("number").values_list("data", flat=True))
    assert [(d["declarer"], d["strain"], d["tricks"]) for d in data] == [(0, "S", 10), (1, "D", 9)]
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_phone_at_the_table_by_its_code_queues_deals_too(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    from django.core.cache import cache

    cache.clear()  # the wrong-code throttle
    rubber = running_session.rubbers.get(number=1)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/t/{rubber.table.code}")  # no account
    page.get_by_role("button", name="West, West").click()
    page.wait_for_url(f"**/rubbers/{rubber.pk}/")
    page.locator("#offline[data-ready=true]").wait_for(state="attached")

    context.set_offline(True)
    record(page, THREE_NT_DOWN, 1)
    page.locator("#offline-pending li[data-number='1']").wait_for()
    page.reload()  # offline: the kept page, the kept deal
    page.locator("#offline-pending li[data-number='1']").wait_for()
    context.set_offline(False)
    page.locator("#offline").wait_for(state="hidden")
    page.locator("#deals #deal-1").wait_for()
    deal = Deal.objects.get(rubber=rubber)
    assert (deal.contract, deal.declarer, deal.tricks, deal.entered_by_id) == ("3NT", "E", 8, None)
    assert deal.history.get().history_change_reason == "entered · West, table 1 (code), seat W"
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_live_pad_moves_the_number_on_and_the_kept_page_follows(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    """Another phone's deal reaches this pad by its poll (no htmx swap): an offline deal after it
    takes the next number, also after a reload from the kept page."""
    rubber = running_session.rubbers.get(number=1)
    context, page = open_rubber(browser, live_server, rubber.north.user.username, rubber)
    _other, south = open_rubber(browser, live_server, rubber.south.user.username, rubber)
    record(south, THREE_NT_DOWN, 1)
    page.bring_to_front()  # the pad polls while it is in view
    page.locator("#entry h2").filter(has_text="Deal 2").wait_for()  # the poll's
    page.locator("#deals #deal-1").wait_for()
    wait_for(lambda: kept_page_has(page, 'id="deal-1"'))
    context.set_offline(True)
    page.reload()
    page.locator("#entry h2").filter(has_text="Deal 2").wait_for()
    record(page, FOUR_SPADES, 2)
    page.locator("#offline-pending li[data-number='2']").wait_for()
    context.set_offline(False)
    page.locator("#offline").wait_for(state="hidden")
    assert list(Deal.objects.filter(rubber=rubber).values_list("number", "contract")) == [
        (1, "3NT"),
        (2, "4S"),
    ]
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_phone_whose_session_closed_keeps_its_deals_for_the_director(
    live_server: Any, browser: Any, running_session: Any, director: Any
) -> None:
    """A phone at a members-only table by its code keeps deals 2 and 3 offline; the director
    closes the night and reopens it for corrections meanwhile (issue 26: the reopen once revived
    the code). Back online the deals are not sent and not dropped: the panel lists both, "This
    session is closed: show these to the director.", also on the page a reload brings (the code
    no longer opens the table); only the player's tap drops one. The probe's sequel: the kept
    copy of the pad is forgotten (offline, a reload brought back its entry form), and a deal 4
    recorded behind the closed ones is asked about and kept for the director too (it stayed
    "not yet sent" for good, with no way to drop it)."""
    from django.core.cache import caches

    from games.sessions import lifecycle

    caches["throttle"].clear()
    club = running_session.club
    club.public = False
    club.save(update_fields=["public"])
    rubber = running_session.rubbers.get(number=1)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/t/{rubber.table.code}")  # no account
    page.get_by_role("button", name="West, West").click()
    page.wait_for_url(f"**/rubbers/{rubber.pk}/")
    page.locator("#offline[data-ready=true]").wait_for(state="attached")
    record(page, FOUR_SPADES, 1)
    page.locator("#deals #deal-1").wait_for()
    context.set_offline(True)
    record(page, THREE_NT_DOWN, 2)
    page.locator("#offline-pending li[data-number='2']").wait_for()
    record(page, FOUR_SPADES, 3)
    page.locator("#offline-pending li[data-number='3']").wait_for()

    lifecycle.session_close(session=running_session, by=director)
    lifecycle.session_reopen(session=running_session, by=director)
    kept = page.locator("#offline-pending li.closed")
    lines = [
        "Deal 2 3 NT E −1 — not sent, kept on this phone Drop it",
        "Deal 3 4 ♠ N = — not sent, kept on this phone Drop it",
        "Deal 4 4 ♠ N = — not sent, kept on this phone Drop it",
    ]

    def kept_for_the_director(last: int) -> None:
        page.locator(f"#offline-pending li.closed[data-number='{last}']").wait_for()
        assert page.locator("#offline-title").inner_text() == (
            "This session is closed: show these to the director."
        )
        assert kept.all_inner_texts() == lines[: last - 1]

    context.set_offline(False)
    kept_for_the_director(3)
    wait_for(lambda: not page.evaluate("caches.match(location.href).then(Boolean)"), timeout=10)
    record(page, FOUR_SPADES, 4)  # on the pad still open
    kept_for_the_director(4)
    posts: list[str] = []
    page.on(
        "request", lambda request: posts.append(request.url) if request.method == "POST" else None
    )
    page.reload()  # the code is dead: the page says so, and keeps the panel
    assert page.locator("#code-changed").inner_text() == (
        "This session is closed: the table's code no longer opens it."
    )
    kept_for_the_director(4)
    # The sender the page started has finished (it holds this lock while it sends): it sent none.
    page.evaluate(f"navigator.locks.request('backscore-queue-{rubber.pk}', () => true)")
    assert posts == []
    assert list(Deal.objects.filter(rubber=rubber).values_list("number", "contract")) == [(1, "4S")]
    kept.first.get_by_role("button", name="Drop it").click()
    page.locator("#offline-pending li[data-number='2']").wait_for(state="detached")
    assert kept.count() == 2
    context.close()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_correcting_to_mine_asks_before_the_next_rubber_is_removed(
    live_server: Any, browser: Any, running_session: Any
) -> None:
    """Deal 6 kept offline (1♣ by N) while another phone ends the rubber with its deal 6 (6♦ by
    N, made) and rubber 2 starts: "Correct it to mine" reopens rubber 1, so the phone shows the
    pad's question first; its button sends it again, and only then is rubber 2 withdrawn."""
    from games.models import Rubber
    from tests.games.conftest import SIX_DEALS, record_deals

    rubber = running_session.rubbers.get(number=1)
    north = rubber.north.user
    record_deals(rubber, SIX_DEALS[:5], entered_by=north)
    context, page = open_rubber(browser, live_server, north.username, rubber)
    context.set_offline(True)
    record(page, ("1", "C", 0, "N", 0, ""), 6)
    page.locator("#offline-pending li[data-number='6']").wait_for()
    rubber.record_deal(
        number=6,
        contract="6D",
        declarer="N",
        tricks=12,
        honours_side="NS",
        honours_points=150,
        actor=acting(rubber, north),
    )
    following = Rubber.objects.get(table=rubber.table, number=2)
    context.set_offline(False)
    conflict = page.locator("#offline-pending li.conflict[data-number='6']")
    conflict.wait_for()
    conflict.get_by_role("button", name="Correct it to mine").click()
    question = page.locator("#offline-pending li.withdraw[data-number='6']")
    question.wait_for()
    assert (
        "This correction reopens rubber 1: rubber 2, not yet started, will be removed."
        in question.inner_text()
    )
    assert Rubber.objects.filter(pk=following.pk).exists()  # nothing saved before the tap
    question.get_by_role("button", name="Save and remove rubber 2").click()
    page.locator("#offline").wait_for(state="hidden")
    assert not Rubber.objects.filter(pk=following.pk).exists()
    deal = Deal.objects.get(rubber=rubber, number=6)
    assert (deal.contract, deal.tricks, deal.version) == ("1C", 7, 2)
    context.close()
