from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # The registry files each game's pages and summary (games.summaries.SUMMARIES, which
        # `Deal.summary` reads) when imported: every process has it, not only one that loaded
        # a page first.
        from . import registry  # noqa: F401
        from .push import hooks

        # Every write that changes a pad or a console tells its streams after the commit.
        hooks.connect()
