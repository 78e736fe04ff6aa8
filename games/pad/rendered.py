"""Rendered pads kept per version and viewer: what a deal changes is rendered once and reused
for every request that would see the same thing (`live_pad`), the deal buttons of an
unbound entry form, which are the same for every pad of a game, once per process
(`deal_fields`), and each field's buttons, tapped or refused, once per process per what they
show (`choice_buttons`).

A pad is a function of the rubber's declared state (games.models.state.FACTS, the version that
says "changed"), of what it shows of who looks (`viewer_key`: their rights, their side, the
deals awaiting them; all of a table-code phone) and of the language; the key holds all three,
so two viewers with different rights never share an answer, while the two players of a side
share one render (tests/games/test_rendered_pads.py). The state is read before the rubber
is, so what is kept under a state is never older than it: a new state is a new key, never a
stale answer. The CSRF token, which is the request's own, is kept as a mark and put back for
each request (`with_token`)."""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from django.core.cache import cache
from django.forms import BoundField
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from ..permissions import Viewer

#: Stands for the request's CSRF token in a kept render (put back by `with_token`).
CSRF_MARK = "csrf-token-of-this-request-7f3a9c"
#: How long a kept pad lives: a version is read by its phones within seconds of the change.
KEEP_SECONDS = 600
_VERSION = "2"  # raised when what a key holds changes shape


#: The Viewer's fields a signed-in viewer's pad is kept by as they are; the others are asked
#: what they change on the pad (`viewer_key`).
_PERSON = frozenset({"user", "player", "seat"})


def viewer_key(viewer: Viewer, awaiting_before: Any = ()) -> tuple[Any, ...]:
    """Everything a pad may show of who looks, so that viewers who see the same pad share it.

    A signed-in viewer's pad (no table code) depends on whether they are signed in, not on who
    they are, and on their seat only through its side (`_rights` asks a seat which side it is
    on; the entry form, the columns and the offline figures are their side's); the one thing it
    shows of the person is the deals of the table's previous rubber awaiting their confirmation
    (`awaiting_before`, their (id, version), which the key holds instead of the player). So the
    two players of a side share one render, while a viewer whose rights differ (their side,
    seated or not, sitting out, their role, a reopened session) gets their own. Any other field
    of the Viewer is in the key as it is, as is every field of a phone holding the table's
    code, whose pad names it and its seat."""
    values: list[tuple[str, Any]] = []
    for field in fields(viewer):
        value = getattr(viewer, field.name)
        if field.name in _PERSON and not viewer.by_code:
            continue
        if field.name == "user":
            value = value.pk if value is not None and value.is_authenticated else None
        elif hasattr(value, "pk"):
            value = value.pk
        values.append((field.name, value))
    if not viewer.by_code:
        user = viewer.user
        values += [
            ("signed_in", user is not None and user.is_authenticated),
            ("seated", viewer.seat is not None),
            ("side", viewer.we_side),
            ("awaiting_before", tuple((deal.pk, deal.version) for deal in awaiting_before)),
        ]
    return tuple(values)


def pad_key(state: tuple[Any, ...], viewer: Viewer, awaiting_before: Any = ()) -> str:
    """The cache key of a pad: the rubber's state, what its viewer sees of themselves
    (`viewer_key`), the language spoken."""
    made = repr((state, viewer_key(viewer, awaiting_before), get_language()))
    return f"pad:{_VERSION}:" + hashlib.sha256(made.encode()).hexdigest()


def with_token(request: HttpRequest, html: str) -> str:
    """A kept render with this request's CSRF token in place of the mark."""
    if CSRF_MARK not in html:
        return html
    return html.replace(CSRF_MARK, get_token(request))


def live_pad(
    request: HttpRequest,
    state: tuple[Any, ...],
    viewer: Viewer,
    context: Callable[[], dict[str, Any]],
    awaiting_before: Any = (),
) -> str:
    """The live pad's HTML (games/_live.html) for this `state` (the rubber's id first, then its
    `answer_state`), viewer and the previous rubber's deals awaiting them: kept, or rendered
    from `context()` and kept."""
    key = pad_key(state, viewer, awaiting_before)
    return kept(request, key, "games/_live.html", context)


#: How long a request waits for the render another one is making of the same key before it
#: renders it itself (a render takes tens of milliseconds; one that failed leaves no answer).
WAIT_SECONDS = 2.0
_POLL_SECONDS = 0.01
_making: dict[str, threading.Lock] = {}
_making_lock = threading.Lock()


def kept(
    request: HttpRequest, key: str, template: str, context: Callable[[], dict[str, Any]]
) -> str:
    """`template` rendered from `context()` for this request, kept under `key` (which must hold
    all the render depends on but the CSRF token) and reused while the key is the same.

    The phones told of a change fetch their pads at the same moment: the requests for one key
    render it once between them (`_made_once`), not each."""
    html = cache.get(key)
    if html is None:

        def render() -> str:
            made = render_to_string(template, {**context(), "csrf_token": CSRF_MARK}, request)
            cache.set(key, made, KEEP_SECONDS)
            return made

        html = _made_once(key, render)
    return with_token(request, html)


def _made_once(key: str, render: Callable[[], str]) -> str:
    """What `render` makes of `key`, made by one request at a time: in this process, the others
    wait on its lock; across processes, the one that takes the key's mark in the cache renders
    while the others wait (at most WAIT_SECONDS) for its answer, then find it kept. With the
    cache down, each renders its own."""
    with _making_lock:
        lock = _making.setdefault(key, threading.Lock())
    try:
        with lock:
            html = cache.get(key)
            if html is not None:
                return str(html)
            mark = key + ":making"
            taken = cache.add(mark, 1, WAIT_SECONDS * 2)
            if taken or taken is None:  # None: the cache is down (django-redis says nothing)
                try:
                    return render()
                finally:
                    cache.delete(mark)
            deadline = time.monotonic() + WAIT_SECONDS
            while time.monotonic() < deadline:
                time.sleep(_POLL_SECONDS)
                html = cache.get(key)
                if html is not None:
                    return str(html)
            return render()
    finally:
        with _making_lock:
            if _making.get(key) is lock and not lock.locked():
                del _making[key]


# --- the deal buttons of an unbound form, once per process --------------------------------------


class _Kept:
    """Renders kept in this process, the least recently used dropped past `size`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.renders: OrderedDict[str, str] = OrderedDict()
        self.lock = threading.Lock()

    def peek(self, key: str) -> str | None:
        """The render kept under `key`, or None (the requests' threads share it: locked)."""
        with self.lock:
            html = self.renders.get(key)
            if html is not None:
                self.renders.move_to_end(key)
            return html

    def put(self, key: str, html: str) -> None:
        with self.lock:
            self.renders[key] = html
            self.renders.move_to_end(key)
            if len(self.renders) > self.size:
                self.renders.popitem(last=False)

    def get(self, key: str, render: Callable[[], str]) -> str:
        html = self.renders.get(key)
        if html is None:
            html = self.renders[key] = render()
            if len(self.renders) > self.size:
                self.renders.popitem(last=False)
        else:
            self.renders.move_to_end(key)
        return html


_FIELDS = _Kept(256)


#: The fields an entry form renders apart from its buttons (`{{ form.number }}` in
#: games/_entry.html): the deal's number, which is not among the buttons and changes with each
#: deal, so that the buttons kept for one deal serve the next.
APART = frozenset({"number"})


def form_key(form: Any) -> str:
    """What an unbound form's buttons are made of: its class, prefix, and each field's label,
    choices, initial value, widget and its attributes, whether it is required or disabled and
    its help, in the language spoken; the fields rendered apart (`APART`) left out."""
    parts: list[Any] = [type(form).__qualname__, form.prefix, form.auto_id, get_language()]
    for name, field in form.fields.items():
        if name in APART:
            continue
        choices = [(str(v), str(label)) for v, label in getattr(field, "choices", ())]
        parts.append(
            (
                name,
                str(field.label),
                choices,
                repr(form.get_initial_for_field(field, name)),
                repr(sorted(field.widget.attrs.items())),
                type(field.widget).__qualname__,
                field.required,
                field.disabled,
                str(field.help_text),
            )
        )
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def deal_fields(form: Any, template: str) -> SafeString:
    """`template` rendered with `form` (the deal's buttons). An unbound form's is kept in this
    process by `form_key`: every pad of a game shows the same buttons. A bound form (taps,
    errors) is rendered each time."""
    if form.is_bound:
        return mark_safe(render_to_string(template, {"form": form}))  # noqa: S308  # nosec B308 B703  rendered by the template engine, which escapes
    html = _FIELDS.get(form_key(form), lambda: render_to_string(template, {"form": form}))
    return mark_safe(html)  # noqa: S308  # nosec B308 B703  as above


# --- one field's buttons, once per process per what they show -----------------------------------

_CHOICES = _Kept(2048)
_CHOICES_TEMPLATE = "games/_choices.html"


def choices_key(field: BoundField) -> str:
    """Everything templates/games/_choices.html shows of `field`: its names and ids, label and
    help, its choices, the value held (which button is checked), its errors, its widget and what
    makes an input required or disabled, the seats' names a declarer's buttons speak, in the
    language spoken."""
    form, inner = field.form, field.field
    seat_names = getattr(form, "seat_names", None) or {}
    parts = (
        type(form).__qualname__,
        field.name,
        field.html_name,
        field.auto_id,
        str(field.label),
        str(field.help_text),
        [(str(v), str(label)) for v, label in getattr(inner, "choices", ())],
        repr(field.value()),
        repr(field.initial),
        [str(error) for error in field.errors],
        type(inner.widget).__qualname__,
        repr(sorted(inner.widget.attrs.items())),
        inner.required,
        inner.disabled,
        form.use_required_attribute,
        form.is_bound,
        sorted((str(k), str(v)) for k, v in seat_names.items()),
        get_language(),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def choice_buttons(field: Any) -> SafeString:
    """One field's buttons (templates/games/_choices.html), kept in this process by
    `choices_key`: a pad's form shows the same buttons, tapped or not, render after render.
    Anything but a form's field (a control the form lacks) is rendered as the template would."""
    if not isinstance(field, BoundField):
        return mark_safe(render_to_string(_CHOICES_TEMPLATE, {"field": field}))  # noqa: S308  # nosec B308 B703  rendered by the template engine, which escapes
    html = _CHOICES.get(
        choices_key(field), lambda: render_to_string(_CHOICES_TEMPLATE, {"field": field})
    )
    return mark_safe(html)  # noqa: S308  # nosec B308 B703  as above


# --- a table's card on the console, once per process per what it shows -------------------------

_CARDS = _Kept(4096)


def _names(players: Any) -> list[tuple[Any, str]]:
    return [(player.pk, player.name) for player in players or ()]


def card_key(context: Any) -> str:
    """Everything templates/clubs/_table_card.html shows: the table's view (its players, the
    rubber in play, the rotation, its rubbers, the last deal, the next opponents), the session's
    state and kind, the club, who looks and the language."""
    t, session, request = context["t"], context["session"], context.get("request")
    back = context.get("back") or (request.get_full_path() if request is not None else "")
    rubber = t.current_rubber
    parts = (
        t.table.pk,
        t.table.number,
        _names(t.players),
        None if rubber is None else (rubber.pk, rubber.number),
        t.current_rubber_url,
        [(s.rubber, list(s.seats), list(s.sitting_out), s.current) for s in t.rotation],
        [
            (r.pk, r.number, r.status, [(seat, p.name) for seat, p in r.seats.items()])
            for r in t.rubbers
        ],
        t.last_deal,
        [(n.name, n.opponent, n.table) for n in t.next_opponents],
        (session.pk, session.status, session.is_reopened, session.kind),
        context["club"].slug,
        bool(context.get("is_director")),
        back,
        get_language(),
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()


#: How long a card kept by its card facts lives in the shared cache (games.club.cards).
CARD_SECONDS = 3600
_BY_FACTS = _Kept(4096)


def kept_cards(keys: list[str]) -> dict[str, str]:
    """The cards kept under these `keys` (games.club.cards.card_key): in this process, else in
    the shared cache (one round trip for all)."""
    found = {key: html for key in keys if (html := _BY_FACTS.peek(key)) is not None}
    missing = [key for key in keys if key not in found]
    if missing:
        shared = cache.get_many(missing)
        for key, html in shared.items():
            _BY_FACTS.put(key, str(html))
            found[key] = str(html)
    return found


def table_card(context: Any) -> SafeString:
    """A table's card (templates/clubs/_table_card.html) in `context`. The console's cards come
    kept (`t.html`) or with the key of their card facts (`t.card_key`, games.club.cards), under
    which the render is kept in this process and the shared cache; others are kept in this
    process by `card_key`. The CSRF token is the request's own (`with_token`)."""
    t = context["t"]

    def render() -> str:
        with context.push(csrf_token=CSRF_MARK):
            card = context.template.engine.get_template("clubs/_table_card.html")
            return str(card.render(context))

    html = getattr(t, "html", None)
    if html is None:
        key = getattr(t, "card_key", None)
        if key is None:
            html = _CARDS.get(card_key(context), render)
        else:
            html = render()
            _BY_FACTS.put(key, html)
            cache.set(key, html, CARD_SECONDS)
    request = context.get("request")
    if request is None:
        return mark_safe(html.replace(CSRF_MARK, ""))  # noqa: S308  # nosec B308 B703  rendered by the template engine, which escapes
    return mark_safe(with_token(request, html))  # noqa: S308  # nosec B308 B703  as above
