"""Money as text: the one place where integer cents become a string (issue 16).

- `format_cents(cents)` is for people: pages, PDFs, and messages that name an amount. The number
  follows the language (Django's locale formats through `django.utils.formats.number_format`): in
  Finnish and Swedish "1 234 567,89 €" (comma decimal separator, no-break space between thousands),
  in English "1,234,567.89 €". The symbol follows the number after a no-break space in every
  language, so a column reads the same way whatever the language; `symbol=False` leaves it out
  where a heading already says "(€)".
- `plain_cents(cents)` is for machines: "1234567.89", a dot, no grouping, never the language's
  form, so that what a program reads (the settlement engine's input, a data payload) is the same
  in every language.

Only integers come in; the euros are exact (`Decimal(cents).scaleb(-2)`, or `divmod` by 100), never a
float. Texts stored in records (audit reasons, screening reasons, settlement problems) are written in
English and format their amounts with `language="en"`, so a record does not depend on the language
of the person whose request caused it.
"""

from __future__ import annotations

from contextlib import nullcontext
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.utils import formats, translation

#: What a page shows for "no amount" (a missing jackpot, an empty cell).
MISSING = "–"
NBSP = "\u00a0"
# The symbols of the currencies an operator may configure (OPERATOR_CURRENCY); another code is shown as
# the code itself ("1 234,56 SEK"), which is always correct if less pretty.
SYMBOLS = {"EUR": "€"}


def _whole(cents: Any) -> int:
    """The integer itself; anything else (a float, a bool, a Decimal, a string) is a programming error."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError(f"an amount in cents must be an int, not {type(cents).__name__} ({cents!r})")
    return cents


def currency_symbol() -> str:
    code = settings.OPERATOR_CURRENCY
    return SYMBOLS.get(code, code)


def format_cents(cents: int, *, language: str | None = None, symbol: bool = True) -> str:
    """12345678 -> "123 456,78 €" (fi, sv) or "123,456.78 €" (en); `language=None`: the active one."""
    amount = Decimal(_whole(cents)).scaleb(-2)
    if language is not None and language not in {code for code, _ in settings.LANGUAGES}:
        raise ValueError(f"unknown language {language!r} (settings.LANGUAGES)")
    with translation.override(language) if language is not None else nullcontext():
        text = formats.number_format(amount, decimal_pos=2, use_l10n=True, force_grouping=True)
    return f"{text}{NBSP}{currency_symbol()}" if symbol else text


def plain_cents(cents: int) -> str:
    """12345678 -> "123456.78"; -5 -> "-0.05": the machine-readable form, the same in every language."""
    value = _whole(cents)
    whole, rest = divmod(abs(value), 100)
    return f"{'-' if value < 0 else ''}{whole}.{rest:02d}"


def euros_to_cents(value: Decimal | str | None) -> int | None:
    """An amount in euros as the rules engines write it ("25.00", Decimal) -> int cents; None for none.
    A fraction of a cent is refused rather than rounded (the engines round once, themselves)."""
    if value is None:
        return None
    return cents_value(Decimal(value) * 100)


def cents_value(value: Any) -> int | None:
    """What a template or a report row holds as an amount -> int cents; None for no amount.

    Model fields and sums give ints; JSON columns (a draw's rollovers) may give an integer as text.
    A float or a fraction of a cent is refused rather than rounded.
    """
    if value is None or value == "":
        return None
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()):
            raise ValueError(f"{value!r} is not a whole number of cents")
        return int(text)
    if isinstance(value, Decimal):
        if value != value.to_integral_value():
            raise ValueError(f"{value} is not a whole number of cents")
        return int(value)
    return _whole(value)
