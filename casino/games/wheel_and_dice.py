"""Wheels and dice: Money Wheel, Sic Bo, Lucky Dice and Tuplanoppa."""

from django.utils.translation import gettext_lazy as _

from .spec import TableGameSpec, documented_sampler

SPEC = TableGameSpec(code="wheel_and_dice", name=_("Wheels and dice"), rules_kind="casino.table_rules",
                     codecs=("round",), engines=("money_wheel", "sic_bo", "lucky_dice", "tuplanoppa"),
                     mix_percent=5, sampler=documented_sampler("wheel_and_dice"))
