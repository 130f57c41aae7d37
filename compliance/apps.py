from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ComplianceConfig(AppConfig):
    name = "compliance"
    verbose_name = "Compliance"

    def ready(self) -> None:
        # Imported here, not at the top: the app registry must be ready before the models load.
        from django.utils.translation import gettext_lazy as _

        from . import (  # noqa: F401  (auditing receivers; approval handlers)
            checks,  # noqa: F401  (system checks of the production settings)
            controls,
            registrations,
            registry_services,
            signals,
        )
        from .jobs import register_job_kind
        from .roles import sync_after_migrate

        register_job_kind("compliance.tasks.report_generate", label=_("Report"),
                          retry_permission="compliance.add_report")
        register_job_kind("compliance.tasks.registry_import_run", label=_("Register import"),
                          retry_permission="compliance.import_registry")
        registrations.register()

        post_migrate.connect(sync_after_migrate, dispatch_uid="compliance.sync_roles")
