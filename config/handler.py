"""The ASGI handler the web processes serve (config/asgi.py): Django's, with each request's sync
work done in one hand-over to its thread instead of several.

Django's ASGIHandler loads the middleware for async and adapts each sync piece on its own: the
`request_started` signal, the middleware chain, each middleware's `process_view`, the view and
the response's `close()` each go to the request's thread and back to the event loop. Every
middleware here and nearly every view is sync, so this handler loads the chain in sync mode (as
the WSGI handler does) and runs, in one thread hand-over, what a WSGI request runs: the
`request_started` signal, the chain, and for a response that is not a stream its `close()` (the
`request_finished` signal that gives the database connection back). The event loop still reads
the body (Django's size limits, 413), sends the response, watches for the client going away and
sends a stream: a stream's `close()` comes after its last part, as in Django's handler.

An async view (the push streams, games/push/views.py) is called by the sync chain through
asgiref's `async_to_sync`, which runs it on the event loop while the request's thread waits; its
`sync_to_async` calls come back to that thread. It returns its StreamingHttpResponse at once,
and the loop consumes the stream's async iterator afterwards, holding no thread.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, cast

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, ASGIRequest, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse
from django.http.response import HttpResponseBase
from django.urls import set_script_prefix


class Handler(ASGIHandler):
    """Django's ASGIHandler with the sync middleware chain run in one hand-over per request."""

    def __init__(self) -> None:
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Django's `ASGIHandler.handle`, with `_respond` in the request's thread in place of
        `request_started.asend`, `get_response_async` and `close()`."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            error_response = cast(HttpResponseBase, error_response)  # one or the other
            body_file.close()
            await signals.request_started.asend(sender=self.__class__, scope=scope)
            await self.send_response(error_response, send)
            await sync_to_async(error_response.close)()
            return

        async def process_request(request: ASGIRequest, send: Any) -> HttpResponseBase:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, request)
            with contextlib.suppress(asyncio.CancelledError):
                await self.send_response(response, send)
            return response

        responding = asyncio.create_task(process_request(request, send))
        tasks = [asyncio.create_task(self.listen_for_disconnect(receive)), responding]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task.done():
                try:
                    task.result()
                except RequestAborted:
                    pass
                except AssertionError:
                    body_file.close()
                    raise
            else:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

        try:
            response = responding.result()
        except asyncio.CancelledError:
            await signals.request_finished.asend(sender=self.__class__)
        else:
            if response.streaming:
                await sync_to_async(response.close)()
        body_file.close()

    def _respond(self, scope: dict[str, Any], request: ASGIRequest) -> HttpResponseBase:
        """What a WSGI request runs in its thread: the signal, the chain and, unless the
        response is a stream still to be sent, its `close()` (its content is kept)."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        response = self.get_response(request)
        response._handler_class = self.__class__  # type: ignore[attr-defined]
        if isinstance(response, FileResponse):
            # As Django's handler: the server chunks the file, so read it in larger blocks.
            response.block_size = self.chunk_size
        if not response.streaming:
            response.close()
        return response
