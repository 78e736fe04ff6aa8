"""Celery tasks of clubs: thin, taking plain values (CONVENTIONS.md)."""

from __future__ import annotations

from celery import shared_task

from . import accounts


@shared_task(acks_late=True, ignore_result=True, name="clubs.tasks.send_password_reset")
def send_password_reset(
    email: str, domain: str, use_https: bool, chosen: str | None, page: str
) -> None:
    """Mail the reset links for `email` (`clubs.accounts.password_reset_send`)."""
    accounts.password_reset_send(
        email=email, domain=domain, use_https=use_https, chosen=chosen, page=page
    )
