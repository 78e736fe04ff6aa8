"""Login names as Django reads them (kept apart so forms, serializers and services share it)."""

from __future__ import annotations

from django.contrib.auth import get_user_model


def normalize_login(username: str) -> str:
    """A login's name as Django's sign-in page reads it (`AbstractBaseUser.normalize_username`,
    NFKC): full-width "ＡＢＣ" is "ABC". Every login created or invited here goes through it, so
    the stored name is the one the page signs in with, and look-alikes differing only by width
    (or case: the checks ignore it) are one name (docs/security.md)."""
    return str(get_user_model().normalize_username(username))
