"""The outcome fields' words in the reader's language: the boundary between the pure descriptions of
`casino.rules.fields` (English msgids) and the page. Every label and action word an engine's
`outcome_fields` shows is listed here, so it is extracted and translated (a test walks the engines)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

LABELS = {
    "Winning number": _("Winning number"),
    "Payout table drawn (game hall B)": _("Payout table drawn (game hall B)"),
    "Void (no valid spin or throw)": _("Void (no valid spin or throw)"),
    "Why void": _("Why void"),
    "Segment the wheel stopped on": _("Segment the wheel stopped on"),
    "Full revolutions of the wheel": _("Full revolutions of the wheel"),
    "The pointer stopped between two segments": _("The pointer stopped between two segments"),
    "An external factor influenced the spin": _("An external factor influenced the spin"),
    "Dice": _("Dice"),
    "Red die": _("Red die"),
    "Green die": _("Green die"),
    "Player's cards (punto) in deal order": _("Player's cards (punto) in deal order"),
    "Banker's cards (banco) in deal order": _("Banker's cards (banco) in deal order"),
    "Dealer's cards": _("Dealer's cards"),
    "Dealer's three cards": _("Dealer's three cards"),
    "Dealer's five cards as dealt": _("Dealer's five cards as dealt"),
    "Dealer's seven cards as dealt": _("Dealer's seven cards as dealt"),
    "Boxes": _("Boxes"),
    "Hands": _("Hands"),
    "Cards in deal order": _("Cards in deal order"),
    "Seven cards as dealt": _("Seven cards as dealt"),
    "The two cards set in front": _("The two cards set in front"),
    "Player's actions in order": _("Player's actions in order"),
    "Player's decisions in order": _("Player's decisions in order"),
    "Box's decision": _("Box's decision"),
    "Boxes that swapped their second cards (casino C/D)": _("Boxes that swapped their second cards (casino C/D)"),
    "Community cards (flop, turn, river)": _("Community cards (flop, turn, river)"),
    "Community cards in the order turned": _("Community cards in the order turned"),
    "Decision before the cards": _("Decision before the cards"),
    "Decision before the flop": _("Decision before the flop"),
    "Decision on the flop": _("Decision on the flop"),
    "Decision on the turn": _("Decision on the turn"),
    "Decision on the river": _("Decision on the river"),
    "Progressive pot shown": _("Progressive pot shown"),
    "Electronic bonus pot shown": _("Electronic bonus pot shown"),
    "Electronic jackpot shown": _("Electronic jackpot shown"),
    "Card that replaced the dealer's highest card (bought game)":
        _("Card that replaced the dealer's highest card (bought game)"),
    "Circle withdrawn after seeing the cards": _("Circle withdrawn after seeing the cards"),
    "Circle withdrawn after the first community card": _("Circle withdrawn after the first community card"),
    # the words of recorded decisions (the engines' vocabulary; staff type these words)
    "hit": pgettext_lazy("casino action", "hit"),
    "stand": pgettext_lazy("casino action", "stand"),
    "double": pgettext_lazy("casino action", "double"),
    "split": pgettext_lazy("casino action", "split"),
    "surrender": pgettext_lazy("casino action", "surrender"),
    "play": pgettext_lazy("casino action", "play"),
    "check": pgettext_lazy("casino action", "check"),
    "fold": pgettext_lazy("casino action", "fold"),
    "fold_keep_pair_plus": pgettext_lazy("casino action", "fold, Pair Plus stays"),
    "raise": pgettext_lazy("casino action", "raise"),
    "exchange": pgettext_lazy("casino action", "exchange cards"),
    "sixth_card": pgettext_lazy("casino action", "buy a sixth card"),
    "buy_game": pgettext_lazy("casino action", "buy the dealer a game"),
    "declare_bonus": pgettext_lazy("casino action", "declare the bonus"),
}


def label(msgid: str):
    """A description's msgid in the reader's language (as it is when not listed: a symbol or a number)."""
    return LABELS.get(msgid, msgid)
