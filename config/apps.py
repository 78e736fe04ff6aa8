from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project's own checks (config/checks.py) and lookups (config/lookups.py); no models."""

    name = "config"
    verbose_name = "Site configuration"

    def ready(self) -> None:
        from . import checks, lookups  # noqa: F401  (registers the checks and lookups)
