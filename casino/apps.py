from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"

    def ready(self) -> None:
        # Imported here, not at the top: the app registry must be ready before compliance's models load.
        from .registrations import register

        register()
