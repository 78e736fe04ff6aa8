"""A password change revokes every API token of the user (docs/security.md).

Django calls `password_changed(password, user)` on each of `AUTH_PASSWORD_VALIDATORS` whenever a
user saved with a new password (`set_password` then `save`: the admin, `changepassword`, a
password-change view, a service), which is the one place every change passes; the browser
sessions are ended by Django itself (the session's auth hash).
"""

from typing import Any

from django.utils.translation import gettext as _


class RevokeApiTokensOnPasswordChange:
    def validate(self, password: str, user: Any = None) -> None:
        """Every password passes: this entry only listens for changes."""

    def password_changed(self, password: str, user: Any = None) -> None:
        from knox.models import AuthToken

        if user is not None and user.pk is not None:
            AuthToken.objects.filter(user=user).delete()

    def get_help_text(self) -> str:
        return _("Changing your password signs out every app that uses an API token of yours.")
