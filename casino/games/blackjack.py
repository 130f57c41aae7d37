"""Blackjack (000-casino B, 002 RAY, 004 Ch.2)."""

from django.utils.translation import gettext_lazy as _

from .spec import TableGameSpec, documented_sampler

SPEC = TableGameSpec(code="blackjack", name=_("Blackjack"), rules_kind="casino.table_rules", codecs=("round",),
                     engines=("blackjack",), mix_percent=25, sampler=documented_sampler("blackjack"))
