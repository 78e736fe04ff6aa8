"""The push channel (issue 28): a pad's and a console's Server-Sent-Events streams say
"changed" after each commit that changes what they show, answer as their pages do (a hidden
rubber exactly as a missing one), and end when who holds them may no longer read or the session
closes. Run in process (no REDIS_URL): the broker delivers in this process."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client

from clubs.models import Membership
from games.push import broker, hooks, versions
from tests.factories import UserFactory, acting, make_club, make_session

# The streams check in threads of their own: the test's data must be committed.
pytestmark = pytest.mark.django_db(transaction=True)

FIRST = {"contract": "2H", "declarer": "N", "tricks": 9}


@pytest.fixture(autouse=True)
def _quick(settings: Any) -> None:
    settings.REDIS_URL = ""
    settings.PUSH_RECHECK_SECONDS = 0.05  # faked: a lapse is seen at once
    settings.PUSH_HEARTBEAT_SECONDS = 3600


def events(
    url: str,
    *,
    login: Any = None,
    cookies: Any = None,
    then: Any = None,
    count: int = 2,
    headers: dict[str, str] | None = None,
) -> tuple[int, list[str], bool]:
    """Open the stream at `url`, read its first message, run `then` (a write), and read until
    `count` messages or the stream's end: (status, messages, ended)."""

    async def run() -> tuple[int, list[str], bool]:
        client = AsyncClient()
        if login is not None:
            await client.aforce_login(login)
        if cookies:
            client.cookies.update(cookies)
        response = await client.get(url, headers=headers)
        if response.status_code != 200:
            return response.status_code, [], True
        assert response["Content-Type"] == "text/event-stream"
        chunks = aiter(response.streaming_content)
        got: list[str] = []
        ended = False
        try:
            while len(got) < count:
                chunk = await asyncio.wait_for(anext(chunks), 10)
                got.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
                if len(got) == 1 and then is not None:
                    await sync_to_async(then)()
        except StopAsyncIteration:
            ended = True
        finally:
            await chunks.aclose()
        return 200, got, ended

    return async_to_sync(run)()


def field(message: str, name: str) -> str:
    return next(line.split(": ", 1)[1] for line in message.splitlines() if line.startswith(name))


def test_the_broker_delivers_in_process_and_forgets_a_closed_stream():
    async def run() -> str | None:
        subscription = broker.Subscription(["rubber:7"])
        assert broker.listening("rubber:7") == 1
        await sync_to_async(broker.publish, thread_sensitive=False)(["rubber:7", "rubber:8"])
        changes = await subscription.changes(5)
        subscription.close()
        assert broker.listening("rubber:7") == 0
        return None if changes is None else changes[0][0]

    assert async_to_sync(run)() == "rubber:7"


def test_a_pad_hears_a_deal_with_its_new_version(rubber, director):
    def record() -> None:
        rubber.record_deal(number=1, **FIRST, actor=acting(rubber))

    status, got, ended = events(f"/rubbers/{rubber.pk}/events", then=record)
    assert status == 200 and not ended
    first, second = got
    assert field(first, "event") == "changed" and field(first, "retry").isdigit()
    assert field(first, "data") == field(first, "id")
    assert field(second, "event") == "changed"
    assert field(second, "data") != field(first, "data")


def test_a_resumed_stream_tells_only_a_version_it_has_not_heard(rubber):
    url = f"/rubbers/{rubber.pk}/events"
    heard = field(events(url, count=1)[1][0], "id")

    def record() -> None:
        rubber.record_deal(number=1, **FIRST, actor=acting(rubber))

    # The version it last heard has not moved: no event, only the reconnection delay; the
    # next change comes as usual.
    _, (first, second), _ = events(url, headers={"Last-Event-ID": heard}, then=record)
    assert "event:" not in first and field(first, "retry").isdigit()
    assert field(second, "event") == "changed" and field(second, "id") != heard
    # It has moved since (or a new EventSource says it as ?last=): the event comes at once.
    _, (moved,), _ = events(f"{url}?last={heard}", count=1)
    assert field(moved, "event") == "changed" and field(moved, "id") == field(second, "id")


def test_the_console_hears_a_deal(rubber, director, club):
    def record() -> None:
        rubber.record_deal(number=1, **FIRST, actor=acting(rubber))

    status, got, _ = events(f"/clubs/{club.slug}/console/events/", login=director, then=record)
    assert status == 200
    assert [field(m, "event") for m in got] == ["changed", "changed"]
    assert field(got[0], "data") != field(got[1], "data")


def test_a_heartbeat_keeps_an_idle_stream(rubber, settings):
    settings.PUSH_HEARTBEAT_SECONDS = 0.01
    _, got, _ = events(f"/rubbers/{rubber.pk}/events")
    assert got[1] == ": ping\n\n"


def test_through_a_wsgi_server_there_is_no_stream(rubber, director, club):
    """A WSGI server buffers a stream whole: rather than hold a thread until the stream's
    re-check, it answers 204 (an EventSource then stops and the page polls); who may not read
    still gets the page's answer."""
    director_client = Client()
    director_client.force_login(director)
    assert Client().get(f"/rubbers/{rubber.pk}/events").status_code == 204
    assert director_client.get(f"/clubs/{club.slug}/console/events/").status_code == 204
    assert Client().get(f"/rubbers/{rubber.pk + 1000}/events").status_code == 404


def test_a_hidden_rubber_answers_as_a_missing_one(director, outsider):
    private = make_club(director=director, slug="private", public=False)
    players = [UserFactory(username=f"p{i}") for i in range(4)]
    from tests.factories import add_player

    session = make_session(
        private, [[add_player(private, f"P{i}", user=u) for i, u in enumerate(players)]]
    )
    hidden = session.rubbers.get(number=1)
    client = Client()
    client.force_login(outsider)
    seen = client.get(f"/rubbers/{hidden.pk}/events")
    missing = client.get(f"/rubbers/{hidden.pk + 1000}/events")
    assert seen.status_code == missing.status_code == 404
    assert seen.content == missing.content
    assert sorted(seen.headers.items()) == sorted(missing.headers.items())
    assert Client().get(f"/clubs/{private.slug}/console/events/").status_code == 302  # sign in
    client.force_login(players[0])
    assert client.get(f"/clubs/{private.slug}/console/events/").status_code == 403  # as the page


def test_a_stream_ends_when_its_table_code_dies(rubber, running_session, director):
    phone = Client()
    assert phone.post(f"/t/{rubber.table.code}", {"seat": "S"}).status_code == 302
    running_session.club.public = False
    running_session.club.save()

    def regenerate() -> None:
        table = rubber.table
        table.code = "ZZZZZZ"
        table.save()

    status, got, ended = events(
        f"/rubbers/{rubber.pk}/events", cookies=phone.cookies, then=regenerate, count=3
    )
    assert status == 200 and ended and len(got) == 1


def test_a_stream_ends_when_the_membership_ends(director):
    private = make_club(director=director, slug="private", public=False)
    member = UserFactory(username="member")
    from tests.factories import add_player

    seated = [add_player(private, "Member", user=member)]
    seated += [add_player(private, f"P{i}") for i in range(3)]
    rubber = make_session(private, [seated]).rubbers.get(number=1)

    def leave() -> None:
        Membership.objects.filter(club=private, user=member).delete()

    status, got, ended = events(f"/rubbers/{rubber.pk}/events", login=member, then=leave, count=3)
    assert status == 200 and ended and len(got) == 1


def test_a_pad_stream_ends_when_the_session_closes(rubber, running_session):
    from games.sessions import lifecycle

    rubber.record_deal(number=1, **FIRST, actor=acting(rubber))  # kept by the close

    def close() -> None:
        lifecycle.session_close(session=running_session)

    status, got, ended = events(f"/rubbers/{rubber.pk}/events", then=close, count=3)
    assert status == 200 and ended
    assert field(got[-1], "event") == "closed"


def test_without_a_change_the_periodic_check_sees_a_lapse(rubber, running_session, monkeypatch):
    """The hooks disconnected: only the re-check (PUSH_RECHECK_SECONDS, faked) ends it."""
    monkeypatch.setattr(hooks, "soon", lambda channels, key=None: None)
    from games.sessions import lifecycle

    rubber.record_deal(number=1, **FIRST, actor=acting(rubber))  # kept by the close

    def close() -> None:
        lifecycle.session_close(session=running_session)

    _, got, ended = events(f"/rubbers/{rubber.pk}/events", then=close, count=3)
    assert ended and field(got[-1], "event") == "closed"


def test_a_deal_reaches_a_pad_stream_with_no_check_of_its_own(rubber, monkeypatch):
    """The deal's write sends its pad's new version (games.push.hooks): the stream passes it
    on without checking again (any other write still checks: the tests above)."""
    from games.push import views

    checks: list[str] = []
    real = views.rubber_version_for_request

    def counted(request: Any, pk: int) -> Any:
        checks.append("check")
        return real(request, pk)

    monkeypatch.setattr(views, "rubber_version_for_request", counted)

    def record() -> None:
        rubber.record_deal(number=1, **FIRST, actor=acting(rubber))

    # The stream's settings (_quick) check every 0.05 s: a long interval here, so that only a
    # change could check.
    from django.conf import settings

    settings.PUSH_RECHECK_SECONDS = 3600
    status, (first, second), _ = events(f"/rubbers/{rubber.pk}/events", then=record)
    assert status == 200
    assert len(checks) == 2  # the opening's (the page's answer) and the stream's first
    assert field(second, "event") == "changed"
    assert field(second, "id") == versions.rubber_version(rubber.pk) != field(first, "id")


def _sign_out_everyone() -> None:
    """Every signed-in session ended, one by one, as a sign-out ends its own."""
    from django.contrib.sessions.models import Session as LoginSession

    for session in LoginSession.objects.all():
        session.delete()


def test_a_pad_stream_ends_when_its_reader_signs_out(director):
    private = make_club(director=director, slug="private", public=False)
    member = UserFactory(username="member")
    from tests.factories import add_player

    seated = [add_player(private, "Member", user=member)]
    seated += [add_player(private, f"P{i}") for i in range(3)]
    rubber = make_session(private, [seated]).rubbers.get(number=1)
    status, got, ended = events(
        f"/rubbers/{rubber.pk}/events", login=member, then=_sign_out_everyone, count=3
    )
    assert status == 200 and ended and len(got) == 1


def test_a_console_stream_ends_when_its_director_signs_out(director, club):
    status, got, ended = events(
        f"/clubs/{club.slug}/console/events/", login=director, then=_sign_out_everyone, count=3
    )
    assert status == 200 and ended and len(got) == 1


def test_a_console_stream_ends_when_its_directors_password_changes_elsewhere(director, club):
    def change_password() -> None:
        director.set_password("a-new-secret-42")
        director.save()

    status, got, ended = events(
        f"/clubs/{club.slug}/console/events/", login=director, then=change_password, count=3
    )
    assert status == 200 and ended and len(got) == 1


def test_a_stream_reads_its_login_again_and_writes_nothing(director, settings):
    """The re-read of who holds a stream (`_user_of`) says what a page would, but never flushes
    nor cycles a session: the browser holding it is not asking, and would be signed out."""
    from django.contrib.sessions.models import Session as LoginSession

    from games.push.views import _user_of

    client = Client()
    client.force_login(director)
    key = client.session.session_key
    assert _user_of(key) == director
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = settings.SECRET_KEY[::-1] + "-rotated"
    assert _user_of(key) == director  # signed with the previous key: still them
    director.set_password("a-new-secret-42")
    director.save()
    assert not _user_of(key).is_authenticated
    assert LoginSession.objects.filter(session_key=key).count() == 1
    assert not _user_of("no-such-session").is_authenticated
