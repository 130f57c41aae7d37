from django.apps import AppConfig


class CasinoConfig(AppConfig):
    name = "casino"
    verbose_name = "Casino"

    def ready(self):
        # The role table is read when roles are synced after `migrate` (compliance.roles); until the
        # app registries of issue 16 land, the casino's grants are added to it here.
        from compliance.roles import ROLE_PERMISSIONS  # noqa: PLC0415  (apps are not loaded at import time)

        from .registration import grant_roles  # noqa: PLC0415  (it imports compliance, loaded by now)

        grant_roles(ROLE_PERMISSIONS)
