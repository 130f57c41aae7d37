from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _load_rulesets(sender, **kwargs):
    from .services import load_default_rulesets

    load_default_rulesets()


class LotteryConfig(AppConfig):
    name = "lottery"
    verbose_name = "Lottery"

    def ready(self) -> None:
        # The digest's rule versions are published automatically after every migrate (idempotent;
        # a version is never changed, so this only ever adds what is missing).
        post_migrate.connect(_load_rulesets, sender=self, dispatch_uid="lottery.load_rulesets")
