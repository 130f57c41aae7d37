from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"

    def ready(self) -> None:
        # Imported here, not at the top: the app registry must be ready before compliance's models load.
        from compliance.plugins import register_app

        # No role is granted casino permissions and it has no pages yet; registering makes its tables
        # count for the Auditor (every view permission) and the Administrator (every permission).
        register_app("casino", grants={})
