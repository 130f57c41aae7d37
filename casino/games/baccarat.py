"""Punto banco and baccarat (000-casino E10, 004 Ch.6)."""

from django.utils.translation import gettext_lazy as _

from .spec import TableGameSpec, documented_sampler

SPEC = TableGameSpec(code="baccarat", name=_("Baccarat and punto banco"), rules_kind="casino.table_rules",
                     codecs=("round",), engines=("punto_banco", "baccarat"), mix_percent=15,
                     sampler=documented_sampler("baccarat"))
