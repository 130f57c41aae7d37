"""The casino's boundary for the engines' messages: an engine's refusal (`casino.rules.base.EngineError`,
plain English, so the engines stay free of Django) -> a translatable template with the message's
values as parameters, shown in the reader's language (the page's, the API caller's).

The engines write their messages as f-strings; each message shape is matched here by one pattern
whose named groups are the values (bet types, box numbers, cards, lists of codes: the same in every
language). A test walks every `EngineError` the round engines can raise (tests/casino/test_messages.py)
and fails on a message no pattern translates. Where an engine's message only explains the expected
JSON form in English, the translation says what is wrong and points to docs/casino.md.
`engine_message(exc)` returns what `compliance.errors.DomainError` takes: the template and its
parameters, or the English message itself for a message no pattern knows (a test keeps that empty).
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy as _

from casino.rules.base import EngineError

V = r"(?P<value>.+?)"

#: (pattern, template): the first pattern that matches the whole message wins.
PATTERNS: list[tuple[re.Pattern[str], Any]] = [(re.compile(p, re.S), t) for p, t in [
    # --- money
    (r'give the amount as a decimal string such as "25\.00" \(not a float\)',
     _('give the amount as a decimal string such as "25.00" (not a float)')),
    (r"the amount must be a finite number", _("the amount must be a finite number")),
    (r"an amount has at most two decimal places \(cents\)", _("an amount has at most two decimal places (cents)")),
    (r"the amount must be positive", _("the amount must be positive")),
    (r"the amount is above the largest accepted \((?P<max>.+)\)", _("the amount is above the largest accepted (%(max)s)")),
    (r'an amount is a decimal string such as "25\.00"', _('an amount is a decimal string such as "25.00"')),
    (V + r' is not an amount such as "25\.00"', _('%(value)s is not an amount such as "25.00"')),
    # --- verification's own findings (casino.games.spec, casino.verification)
    (r"one amount per bet", _("one amount per bet")),
    (r"no rule version in force at the round's time", _("no rule version in force at the round's time")),
    # --- the jackpots' findings (casino.jackpot_accrual, casino.jackpots)
    (r"jackpot (?P<jackpot>\S+): the pot shown (?P<shown>\S+) differs from the ledger's (?P<ledger>\S+)",
     _("jackpot %(jackpot)s: the pot shown %(shown)s differs from the ledger's %(ledger)s")),
    (r"jackpot (?P<jackpot>\S+): the participation stake (?P<stake>\S+) differs from the set fee (?P<fee>\S+)",
     _("jackpot %(jackpot)s: the participation stake %(stake)s differs from the set fee %(fee)s")),
    (r"jackpot (?P<jackpot>\S+): the win (?P<win>\S+) is above the maximum permitted win (?P<most>\S+)",
     _("jackpot %(jackpot)s: the win %(win)s is above the maximum permitted win %(most)s")),
    # --- the round and its bets
    (r"the input must be a JSON object", _("the input must be a JSON object")),
    (r"a non-empty list of bets", _("enter at least one bet")),
    (r"at most 500 bets in one round", _("at most 500 bets in one round")),
    (r"one amount \(or null\) per bet: (?P<count>.+)", _("one amount (or none) per bet: %(count)s")),
    (r"a bet type name", _("the name of a bet type")),
    (r"(?:a distinct )?player reference of 1-64 characters|a player reference of 1-64 characters",
     _("a player reference of 1-64 characters, each player once")),
    (r"the player's age in whole years", _("the player's age in whole years")),
    (r'one of "000", "002", "004"', _('one of "000", "002", "004"')),
    (r"(?P<game>.+?) is not a game of rulebook (?P<rulebook>.+?): (?P<choices>.+)",
     _("%(game)s is not a game of rulebook %(rulebook)s: %(choices)s")),
    (r"(?P<kind>.+?) is not a venue kind of rulebook (?P<rulebook>.+?): (?P<choices>.+)",
     _("%(kind)s is not a venue kind of rulebook %(rulebook)s: %(choices)s")),
    (r'a venue kind such as "casino", or an object with `kind`', _('a venue kind such as "casino", or an object with "kind"')),
    (r"is not a limit class of this venue: (?P<choices>.+)", _("is not a limit class of this venue: %(choices)s")),
    (r"(?P<amount>.+?) is above the legal maximum (?P<max>.+?) \((?P<rule>.+)\)",
     _("%(amount)s is above the legal maximum %(max)s (%(rule)s)")),
    (r"(?P<amount>.+?) is above the legal cap (?P<max>.+?) \((?P<rule>.+)\)",
     _("%(amount)s is above the legal win cap %(max)s (%(rule)s)")),
    (r"a whole number of years from (?P<low>.+?) to 99", _("a whole number of years from %(low)s to 99")),
    (r"is required for (?P<where>.+?) \((?P<rule>.+?): the legal maximum is not known; give the table's\)",
     _("is required for %(where)s: the legal maximum is not known (%(rule)s); give the table's own")),
    (r"is required \((?P<rule>.+?): the highest win is not known; give the table's as an amount, or null for none\)",
     _("is required: the highest win is not known (%(rule)s); give the table's as an amount, or null for none")),
    # --- numbers, choices, yes/no
    (r"a box number from 1 to 99", _("a box number from 1 to 99")),
    (r"a whole number from (?P<low>.+?) to (?P<high>.+)", _("a whole number from %(low)s to %(high)s")),
    (r"a whole number of chips", _("a whole number of chips")),
    (r"a whole number of points from 0 to 1000", _("a whole number of points from 0 to 1000")),
    (r"a ratio from 0 to 100", _("a ratio from 0 to 100")),
    (r"true or false", _("true or false")),
    (r"true for a void spin \(no spin\), else leave it out", _("true for a void spin, else leave it out")),
    (r"true for a dark box \(004 §5\.10\), else false", _("true for a dark box (004 §5.10), else false")),
    (r"which (?P<what>.+?): 1 to (?P<count>.+)", _("which %(what)s: 1 to %(count)s")),
    (r"the stake circle: 1, 2 or 3", _("the stake circle: 1, 2 or 3")),
    (r"a circle 1, 2 or 3, or null", _("a circle 1, 2 or 3, or none")),
    (r'"red" or "black"', _('"red" or "black"')),
    (r'"base" or "side"', _('"base" or "side"')),
    (r'"single_zero" or "double_zero"', _('"single_zero" or "double_zero"')),
    (r'"prison", "half_back" or "quarter_back"', _('"prison", "half_back" or "quarter_back"')),
    (r'"to_one" \(N:1, stake kept\) or "for_one" \(N for 1\)', _('"to_one" (N:1, stake kept) or "for_one" (N for 1)')),
    (r"1 \(one zero\) or 2 \(two zeros in a row\)", _("1 (one zero) or 2 (two zeros in a row)")),
    (r"one of: 1-3, ofc", _("one of: 1-3, ofc")),
    (r"one of (?P<choices>.+)", _("one of: %(choices)s")),
    (r"the payout table drawn this round: one of (?P<choices>.+)", _("the payout table drawn this round: one of %(choices)s")),
    (r"the symbol the wheel stopped on: one of (?P<choices>.+)", _("the segment the wheel stopped on: one of %(choices)s")),
    (r"the box's decision, one of: (?P<choices>.+)", _("the box's decision, one of: %(choices)s")),
    (r"the box number the bonus is on, or \"D\" for the dealer", _('the box number the bonus is on, or "D" for the dealer')),
    (r"(?P<value>.+?) is not a number of this wheel \((?P<choices>.+)\)",
     _("%(value)s is not a number of this wheel (%(choices)s)")),
    (r"(?P<value>.+?) is not a bet of this game: (?P<choices>.+)", _("%(value)s is not a bet of this game: %(choices)s")),
    (r"(?P<value>.+?) is not a bet of this variant: (?P<choices>.+)",
     _("%(value)s is not a bet of this variant: %(choices)s")),
    (r"(?P<value>.+?) is not a bet of this variant", _("%(value)s is not a bet of this variant")),
    (r"(?P<value>.+?) is not a side game of this version: (?P<choices>.+)",
     _("%(value)s is not a side game of this version: %(choices)s")),
    (r"(?P<value>.+?) is not one of the allowed deck counts (?P<choices>.+)",
     _("%(value)s is not one of the allowed deck counts %(choices)s")),
    (r"(?P<value>.+?) is not offered by this variant", _("%(value)s is not offered by this variant")),
    (r"(?P<value>.+?) is not one of the players", _("%(value)s is not one of the players")),
    (r"(?P<value>.+?) is not a country code such as FI or UA", _("%(value)s is not a country code such as FI or UA")),
    (r'(?P<value>.+?) is not a date such as "2025-11-15"', _('%(value)s is not a date such as "2025-11-15"')),
    (r'a date such as "2025-11-15"', _('a date such as "2025-11-15"')),
    (r"a date from (?P<low>.+?) to (?P<high>.+)", _("a date from %(low)s to %(high)s")),
    (r"is before the complaint was received", _("is before the complaint was received")),
    (r"(?P<value>.+?) is not one of: (?P<choices>.+)", _("%(value)s is not one of: %(choices)s")),
    # --- fields that do not belong
    (r"is not (?:a|an) [^()]*?(?:field|parameter)[^()]*? \((?P<choices>[^()]+)\)",
     _("is not a field here (the fields: %(choices)s)")),
    (r"is not (?:a|an) [^()]*?(?:field|parameter)[^()]*", _("is not a field here")),
    (r"a (?P<type>.+?) bet takes no .+", _("a %(type)s bet takes no such field")),
    (r"a symbol bet has one field, `symbol`", _('a symbol bet has one field, "symbol"')),
    (r"is not a street of this game: (?P<choices>.+)|is not a street: (?P<streets>.+)",
     _("is not a street of this game")),
    (r"is not a hand category here: (?P<choices>.+)", _("is not a hand category here: %(choices)s")),
    (r"is not a hand: (?P<choices>.+)", _("is not a hand: %(choices)s")),
    (r"a hand: (?P<choices>.+)", _("a hand: %(choices)s")),
    (r"is not a combination \((?P<choices>.+)\)", _("is not a combination (%(choices)s)")),
    # --- cards
    (r'cards as text such as "As Kh" or a list \["As", "Kh"\]', _('cards as text such as "As Kh" or a list ["As", "Kh"]')),
    (r"(?P<value>.+?) is not a card such as As, Kh, 10d, 9c", _("%(value)s is not a card such as As, Kh, 10d, 9c")),
    (r"exactly (?P<count>.+?) cards, not (?P<given>.+)", _("exactly %(count)s cards, not %(given)s")),
    (r"at least (?P<count>.+?) cards, not (?P<given>.+)", _("at least %(count)s cards, not %(given)s")),
    (r"at most (?P<count>.+?) cards, not (?P<given>.+)", _("at most %(count)s cards, not %(given)s")),
    (r"this game is played without a joker", _("this game is played without a joker")),
    (r"(?P<card>.+?) is dealt (?P<times>.+?) times from (?P<decks>.+?) deck\(s\)",
     _("%(card)s is dealt %(times)s times from %(decks)s deck(s)")),
    (r"(?P<card>.+?) is dealt twice \(also in (?P<other>.+?)\); one 52-card deck",
     _("%(card)s is dealt twice (also in %(other)s); the game has one 52-card deck")),
    (r"(?P<card>.+?) is dealt twice \(also in (?P<other>.+?)\); one deck and one joker",
     _("%(card)s is dealt twice (also in %(other)s); the game has one deck and one joker")),
    (r"a card is named twice", _("a card is named twice")),
    (r"a card appears twice in the hand", _("a card appears twice in the hand")),
    (r"the front is two different cards of the hand's seven", _("the front is two different cards of the hand's seven")),
    (r"the back must be the hand's other five cards", _("the back must be the hand's other five cards")),
    (r"(?P<value>.+?) is not a card rank \(2-9, T, J, Q, K, A\)|a card rank: 2-9, T, J, Q, K or A",
     _("a card rank: 2-9, T, J, Q, K or A")),
    (r'(?P<count>.+?) rank\(s\) such as "Q" or "Q 6 4"|1 to (?P<upto>.+?) ranks such as "Q 6 4"',
     _('card ranks such as "Q" or "Q 6 4"')),
    (r'the card the machine turned, e.g. "Kh" \(no joker\)', _('the card the machine turned, such as "Kh" (no joker)')),
    (r"(?P<count>.+?) card\(s\) left over after the recorded actions", _("%(count)s card(s) left over after the recorded actions")),
    (r"the recorded actions need more cards \((?P<what>.+)\)", _("the recorded actions need more cards than were dealt")),
    (r"(?P<card>.+?) is not in the box's hand", _("%(card)s is not in the box's hand")),
    (r"(?P<count>.+?) cards are needed to settle box (?P<box>.+)", _("%(count)s cards are needed to settle box %(box)s")),
    (r"5 cards are needed for the showdown", _("5 cards are needed for the showdown")),
    (r"the shoe must hold at least 6 cards", _("the shoe must hold at least 6 cards")),
    (r"a player sets exactly 13 cards", _("a player sets exactly 13 cards")),
    (r"this version deals the dealer two cards \((?P<hole>.+?) hole card\)", _("this version deals the dealer two cards")),
    (r"the dealer had a game: no card of his can be replaced", _("the dealer had a game: no card of his can be replaced")),
    # --- dice and wheels
    (r"the (?P<count>.+?) dice as thrown, e.g. (?P<example>.+)", _("the %(count)s dice as thrown, such as %(example)s")),
    (r"a throw of (?P<count>.+?) dice", _("a throw of %(count)s dice")),
    (r"the sector counts must add up to (?P<total>.+)", _("the segment counts must add up to %(total)s")),
    (r"a symbol name, once", _("a symbol name, each once")),
    (r"every pocket of the wheel once, in wheel order", _("every pocket of the wheel once, in wheel order")),
    (r'"symbol" \(a bet on one symbol of the wheel\)', _('"symbol" (a bet on one symbol of the wheel)')),
    # --- roulette and lucky dice positions
    (r"the numbers the bet covers, e.g. \[17, 20\]", _("the numbers the bet covers, such as [17, 20]")),
    (r"the centre number on the wheel, e.g. \[17\]", _("the centre number on the wheel, such as [17]")),
    (r"a (?P<type>.+?) covers (?P<count>.+?) different numbers", _("a %(type)s covers %(count)s different numbers")),
    (r"(?P<value>.+?) is not a (?P<type>.+?) position of the (?P<wheel>.+?) layout",
     _("%(value)s is not a %(type)s position of the layout")),
    (r"not a (?P<type>.+?) position of the published layout", _("not a %(type)s position of the published layout")),
    (r"a trio covers a zero", _("a trio covers a zero")),
    (r"the first four is 0, 1, 2, 3", _("the first four is 0, 1, 2, 3")),
    (r"a component must be an inside bet at a legal position", _("a component must be an inside bet at a legal position")),
    (r"a (?P<name>.+?) is (?P<chips>.+?) equal chips: the stake must be a multiple of (?P=chips) cents x chip",
     _("a %(name)s is %(chips)s equal chips: the stake must divide into them to the cent")),
    (r"only an even-chance stake can be imprisoned", _("only an even-chance stake can be imprisoned")),
    (r"this variant has no en prison rule", _("this variant has no en prison rule")),
    (r"this variant has one payout table", _("this variant has one payout table")),
    (r"two different numbers \(a pair is a `double` bet\)|two different numbers, e.g. \[2, 4\]",
     _("two different numbers")),
    (r"a (?P<type>.+?) covers (?P<count>.+?) squares, each \[group, square\]",
     _("a %(type)s covers %(count)s squares, each [group, square]")),
    (r"\[group, square\], e.g. \[4, 2\]", _("[group, square], such as [4, 2]")),
    (r"different squares", _("different squares")),
    # --- boxes and bets that do not fit together
    (r"box (?P<box>.+?) already has a main bet \(bets\[(?P<other>.+?)\]\); other players' stakes on it are `back` bets",
     _("box %(box)s already has a main bet (bet %(other)s); other players' stakes on it are back bets")),
    (r"box (?P<box>.+?) has a bet \((?P<where>.+?)\) but no cards", _("box %(box)s has a bet but no cards")),
    (r"box (?P<box>.+?) has no cards in outcome\.boxes", _("box %(box)s has no cards in the outcome")),
    (r"box (?P<box>.+?) has no main bet \(the box holder's\)", _("box %(box)s has no main bet (the box holder's)")),
    (r"box (?P<box>.+?) has two ante bets", _("box %(box)s has two ante bets")),
    (r"box (?P<box>.+?) is the player-banker's, not a bet against him",
     _("box %(box)s is the player-banker's, not a bet against him")),
    (r"box (?P<box>.+?) called but has no call bet", _("box %(box)s called but has no call bet")),
    (r"box (?P<box>.+?) folded at (?P<street>.+?) but has a play bet", _("box %(box)s folded at %(street)s but has a play bet")),
    (r"box (?P<box>.+?) folded but has a call bet", _("box %(box)s folded but has a call bet")),
    (r"box (?P<box>.+?) folded but has a bet", _("box %(box)s folded but has a bet")),
    (r"box (?P<box>.+?) has a (?P<kind>.+?) bet but no play recorded at (?P<street>.+)",
     _("box %(box)s has a %(kind)s bet but no play recorded at %(street)s")),
    (r"box (?P<box>.+?) played but has no bet", _("box %(box)s played but has no bet")),
    (r"box (?P<box>.+?) played but has no play bet", _("box %(box)s played but has no play bet")),
    (r"box (?P<box>.+?) played but has no (?P<kind>.+?) bet", _("box %(box)s played but has no %(kind)s bet")),
    (r"box (?P<box>.+?) has two (?P<kind>.+?) bets", _("box %(box)s has two %(kind)s bets")),
    (r"box (?P<box>.+?) has an ante but no hand in the outcome", _("box %(box)s has an ante but no hand in the outcome")),
    (r"box (?P<box>.+?) has two hands", _("box %(box)s has two hands")),
    (r"box (?P<box>.+?) is given twice", _("box %(box)s is given twice")),
    (r"box (?P<box>.+?) has no (?P<kind>.+?) bet: the game is played only with (?P<required>.+)",
     _("box %(box)s has no %(kind)s bet: the game is played only with %(required)s")),
    (r"box (?P<box>.+?) has no hand in the outcome", _("box %(box)s has no hand in the outcome")),
    (r"a second stake on circle (?P<circle>.+?) of box (?P<box>.+)", _("a second stake on circle %(circle)s of box %(box)s")),
    (r"a second (?P<kind>.+?) bet on box (?P<box>.+)", _("a second %(kind)s bet on box %(box)s")),
    (r"there is no ante on box (?P<box>.+)", _("there is no ante on box %(box)s")),
    (r"no hand for box (?P<box>.+?) \((?P<where>.+?)\)", _("no hand for box %(box)s")),
    (r"no hand of the box is left to play for this decision", _("no hand of the box is left to play for this decision")),
    (r"no main or back bet of this player on box (?P<box>.+?) to insure",
     _("no main or back bet of this player on box %(box)s to insure")),
    (r"at most (?P<limit>.+?) boxes play \((?P<rule>.+)\)", _("at most %(limit)s boxes play (%(rule)s)")),
    (r"a blackjack bet names its box", _("a blackjack bet names its box")),
    (r"a back bet names its player", _("a back bet names its player")),
    (r"a box swaps its card once", _("a box swaps its card once")),
    (r"two adjacent boxes of the outcome, such as \[1, 2\]", _("two adjacent boxes of the outcome, such as 1-2")),
    (r"circle (?P<circle>.+?) has no stake on this box", _("circle %(circle)s has no stake on this box")),
    (r"circle (?P<circle>.+?) is already withdrawn", _("circle %(circle)s is already withdrawn")),
    (r"one player-banker per round", _("one player-banker per round")),
    (r"this rule version has no player-banker", _("this rule version has no player-banker")),
    (r"the bank (?P<bank>.+?) does not cover the player-banker's net loss (?P<loss>.+)",
     _("the bank %(bank)s does not cover the player-banker's net loss %(loss)s")),
    # --- decisions
    (r"the hand was already decided \((?P<decision>.+?) at (?P<street>.+?)\)",
     _("the hand was already decided (%(decision)s at %(street)s)")),
    (r"the hand was folded before the flop", _("the hand was folded before the flop")),
    (r'the player\'s decision is missing: the actions must end with \{"action": "raise"\} or \{"action": "fold"\}',
     _("the player's decision is missing: the decisions must end with raise or fold")),
    (r"no attempt can follow a wrong guess: the win was annulled", _("no attempt can follow a wrong guess: the win was annulled")),
    (r"the slot gamble is rulebook \"004\" \(Billionaire\)", _('the slot gamble is rulebook "004" (Billionaire)')),
    (r'Open Faced Chinese scores by "ofc" \(001 §2\.15\)', _('Open Faced Chinese scores by "ofc" (001 §2.15)')),
    # --- required values
    (r"is required in the variant's rule data \(.+\)|is required: this rule version does not give it .+"
     r"|is required \(the rule version must give it\)|is required \(no default is invented\)"
     r"|is required.*? \(no default is invented\)|is required \(null when the version has no such rule\)",
     _("is required in the rule version's data: the rulebook does not give it, so the published version must")),
    (r"is required: box (?P<box>.+?) has bets", _("is required: box %(box)s has bets")),
    (r"is required: both half-back and en prison are in use; the player's choice \"prison\" or \"(?P<back>.+?)\"",
     _('is required: half-back and en prison are both in use; the player\'s choice "prison" or "%(back)s"')),
    (r"(?:is )?required: a box bought the dealer a game \(the card that replaced his highest card\)",
     _("is required: a box bought the dealer a game (the card that replaced his highest card)")),
    (r"required: a bonus bet holds a (?P<hand>.+?), paid as a share of the electronic jackpot \(004 §5\.9\.4\)",
     _("is required: a bonus bet holds a %(hand)s, paid as a share of the electronic jackpot (004 §5.9.4)")),
    (r"is required: a hand not played before must play or fold at the (?P<street>.+)",
     _("is required: a hand not played before must play or fold at the %(street)s")),
    (r"(?:is )?required(?:: .+| for a player-banker)?", _("is required")),
    # --- the form of the JSON (explained in English by the engines; docs/casino.md has it per game)
    (r"a list of 2-4 players \(13 cards each from one deck\)", _("a list of 2-4 players (13 cards each from one deck)")),
    (r"\[circle withdrawn after seeing the cards, circle withdrawn after the first community card\], each 1-3 or null",
     _("the circles withdrawn after seeing the cards and after the first community card, each 1-3 or none")),
    (r"a list of decisions: hit, stand, double, split, surrender", _("a list of decisions: hit, stand, double, split, surrender")),
    (r"a list of .+|a pair \"higher\+lower\" of combinations such as \"pair\+ace_king\"",
     _("not in the form this field takes (docs/casino.md describes it for each game)")),
    (r"(?:an object|a JSON object)\b.*|must be a JSON object|what the table produced: a JSON object"
     r"|the (?:variant's )?rule data (?:must be|of a published version:) a JSON object"
     r"|a (?:bet|box|hand|player|decision) is (?:a JSON object|an object) .+",
     _("not in the form this field takes (docs/casino.md describes it for each game)")),
    (r"a two-card hand, high card first: .+", _("a two-card hand, high card first, such as AA, AKs, AKo")),
    (r'odds are a string such as "35" or "3/2"|(?P<value>.+?) is not odds such as "35" or "3/2"',
     _('odds as text such as "35" or "3/2"')),
    (r'(?P<value>.+?) is not a ratio such as "1" or "5/100"', _('%(value)s is not a ratio such as "1" or "5/100"')),
    (r'a share of the win below 1 \(5 % is "5/100"\)', _('a share of the win below 1 (five per cent is "5/100")')),
    (r"a commission is a share of the win, at most 1", _("a commission is a share of the win, at most 1")),
    (r'the rulebook clause, e.g. "000-casino C-10"', _('the rulebook clause, such as "000-casino C-10"')),
]]


def _match(message: str) -> tuple[Any, dict[str, Any]] | None:
    for pattern, template in PATTERNS:
        m = pattern.fullmatch(message)
        if m:
            return template, {k: v for k, v in m.groupdict().items() if v is not None}
    return None


def message_words(message: str) -> str:
    """An engine's English message as stored or returned (a rule's violation in an answer, a
    discrepancy's detail) in the reader's language; a message no pattern knows as it is."""
    found = _match(message)
    return str(found[0]) % found[1] if found else message


# A discrepancy of a player the screening refused keeps the screening's reason codes ("registry_excluded").
_CODES = re.compile(r"[a-z_]+(?:, [a-z_]+)*")
# "bets[2].stake: the amount must be positive": the engine's field, then its message.
_FIELD = re.compile(r"(?P<field>[\w.\[\]]+): (?P<message>.+)", re.S)


def detail_words(detail: str) -> str:
    """What verification stored about a discrepancy (casino.verification) in the reader's language:
    an engine's message (a violation, a refused round's field and message), the screening's reason
    codes as their messages; a rule citation ("000-casino C-10: banker wins ...", the rule the engine
    applied, shown verbatim like the round check's rule column) as it is."""
    if not isinstance(detail, str) or not detail:
        return detail
    if _CODES.fullmatch(detail):
        from compliance.screening import reason_message

        said = []
        for code in detail.split(", "):
            try:
                said.append(str(reason_message({"code": code, "params": {}})) or code)
            except (KeyError, TypeError, ValueError):  # a reason whose message needs its parameters
                said.append(code)
        return " ".join(said)
    if _match(detail):
        return message_words(detail)
    m = _FIELD.fullmatch(detail)
    if m and _match(m["message"]):
        return f"{m['field']}: {message_words(m['message'])}"
    return detail


def cites_rule(kind: str, detail: str) -> bool:
    """Whether a discrepancy's detail is the rule the engine applied to the bet (a citation of the
    rulebook, kept verbatim) rather than a message: what a payout difference and a refused bet keep."""
    return kind in ("payout", "not_voided", "player_refused") and not _CODES.fullmatch(detail or "") and bool(detail)


def engine_message(exc: EngineError) -> tuple[Any, dict[str, Any]]:
    """(template, params) of an engine's refusal, for a DomainError: translated when a pattern knows
    the message, else its English text as it is."""
    message = str(exc.message)
    found = _match(message)
    return found if found else (message, {})


def translated(message: str) -> bool:
    """Whether a pattern knows this English message."""
    return any(p.fullmatch(message) for p, _t in PATTERNS)
