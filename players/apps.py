from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players"

    def ready(self) -> None:
        from . import services  # noqa: F401  (approval handlers and controls register at import)
