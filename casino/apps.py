from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"

    def ready(self) -> None:
        # Imported here, not at the top: the app registry must be ready before compliance's models load.
        from django.utils.translation import gettext_lazy as _

        from compliance.jobs import register_job_kind

        from . import games  # noqa: F401  (registers the table game families)
        from .registrations import register

        register()
        register_job_kind("casino.tasks.verify_batch", label=_("Round verification"),
                          retry_permission="casino.manage_venues")
