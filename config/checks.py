"""The project's own `manage.py check --deploy` checks (docs/deploy.md, "Checking a production
configuration")."""

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core import checks

#: `SITE_URL`'s default in config/settings.py: right for `make run`, wrong in any mail sent out.
DEFAULT_SITE_URL = "http://127.0.0.1:8000"

W001 = checks.Warning(
    "SITE_URL is not the site's public https address, and mail is sent through EMAIL_HOST: "
    "the links in each player's results mail would point at it.",
    hint="Set SITE_URL to the address players reach the site at, e.g. https://scores.club.example.",
    id="backscore.W001",
)


@checks.register(checks.Tags.security, deploy=True)
def check_site_url(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """Mail goes out from production, so its links must be the site's public https address."""
    if settings.DEBUG or not getattr(settings, "EMAIL_HOST", ""):
        return []
    site_url = str(getattr(settings, "SITE_URL", "") or "")
    parts = urlsplit(site_url)
    if site_url.rstrip("/") == DEFAULT_SITE_URL or parts.scheme != "https" or not parts.hostname:
        return [W001]
    return []
