"""House-banked poker: Russian, Novo and Open Russian poker, Dynamic poker, Texas hold'em against the
house, three-card games, Riverside poker and Pai Gow poker."""

from django.utils.translation import gettext_lazy as _

from .spec import TableGameSpec, documented_sampler

SPEC = TableGameSpec(
    code="house_poker", name=_("Poker against the house"), rules_kind="casino.table_rules", codecs=("round",),
    engines=("russian_poker", "novo_poker", "open_russian_poker", "dynamic_poker", "dynamic_poker_pro",
             "ultimate_texas_holdem", "texas_holdem", "three_card_poker", "fast_poker", "triple_bet_poker",
             "riverside_poker", "pai_gow"),
    mix_percent=15, sampler=documented_sampler("house_poker"))
