from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ComplianceConfig(AppConfig):
    name = "compliance"
    verbose_name = "Compliance"

    def ready(self) -> None:
        from . import (  # noqa: F401  (auditing receivers; approval handlers)
            checks,  # noqa: F401  (system checks of the production settings)
            controls,
            registry_services,
            signals,
        )
        from .roles import sync_after_migrate

        post_migrate.connect(sync_after_migrate, dispatch_uid="compliance.sync_roles")
