from django.apps import AppConfig


class LotteryConfig(AppConfig):
    name = "lottery"
    verbose_name = "Lottery"
