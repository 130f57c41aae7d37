from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate


def _load_rulesets(sender, **kwargs):
    from .services import games_sync, load_default_rulesets

    load_default_rulesets()
    games_sync()


def _sqlite_functions(sender, connection, **kwargs):
    """SQLite has no bit_count: settlement's portable popcount is this deterministic function."""
    if connection.vendor == "sqlite":
        from .matching import sqlite_popcount

        connection.connection.create_function("valvoja_popcount", 1, sqlite_popcount, deterministic=True)
        # Exact floor(a * b / c) for the multiplier games' capped prizes (lottery.games.base.muldiv_sql).
        from .games.base import sqlite_muldiv

        connection.connection.create_function("valvoja_muldiv", 3, sqlite_muldiv, deterministic=True)


class LotteryConfig(AppConfig):
    name = "lottery"
    verbose_name = "Lottery"

    def ready(self) -> None:
        # The digest's rule versions and games are loaded automatically after every migrate
        # (idempotent; a version is never changed, so this only ever adds what is missing).
        post_migrate.connect(_load_rulesets, sender=self, dispatch_uid="lottery.load_rulesets")
        connection_created.connect(_sqlite_functions, dispatch_uid="lottery.sqlite_functions")
        # The draw pipeline's four-eyes kinds (lottery.result, .correction, .payout, .large_win) are
        # registered with compliance.approvals when the services load; the approvals page needs them.
        # The durable jobs of the pipeline (compliance.jobs) and who may send a stalled one again.
        # Imported here, not at the top: the app registry must be ready before the models load.
        from django.utils.translation import gettext_lazy as _

        from compliance.jobs import register_job_kind

        from . import registrations, services  # noqa: F401  (services: approval kinds register at import)

        register_job_kind("lottery.tasks.settle_run", label=_("Settlement"),
                          retry_permission="lottery.manage_settlement")
        register_job_kind("lottery.tasks.pay_draw", label=_("Payment of prizes"),
                          retry_permission="lottery.approve_settlement")
        register_job_kind("lottery.tasks.pay_refunds", label=_("Refund of stakes"),
                          retry_permission="lottery.approve_settlement")
        register_job_kind("lottery.tasks.retail_import_run", label=_("Retail sales import"),
                          retry_permission="lottery.import_sales")
        registrations.register()
