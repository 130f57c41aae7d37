"""Money as text (compliance/money.py, issue 16): one form for people per language, one for machines.

The expected strings are written out by hand from the reading in docs/architecture.md ("Money as
text"): Finnish and Swedish "1 234,56 €" with a no-break space (U+00A0) between thousands and before the
symbol, English "1,234.56 €"; the plain form "1234.56" in every language.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from compliance.money import cents_value, euros_to_cents, format_cents, plain_cents

NB = "\u00a0"

AMOUNTS = {
    # cents: (en, fi, sv)
    0: ("0.00 €", "0,00 €", "0,00 €"),
    5: ("0.05 €", "0,05 €", "0,05 €"),
    100: ("1.00 €", "1,00 €", "1,00 €"),
    99_999: ("999.99 €", "999,99 €", "999,99 €"),
    100_000: ("1,000.00 €", "1 000,00 €", "1 000,00 €"),
    123_456_789: ("1,234,567.89 €", "1 234 567,89 €", "1 234 567,89 €"),
    -5: ("-0.05 €", "-0,05 €", "-0,05 €"),
    -123_456_789: ("-1,234,567.89 €", "-1 234 567,89 €", "-1 234 567,89 €"),
}


def _nb(text: str) -> str:
    """The table above is written with plain spaces; on the page every space is a no-break one."""
    return text.replace(" ", NB)


@pytest.mark.parametrize("cents", AMOUNTS)
@pytest.mark.parametrize("index,language", [(0, "en"), (1, "fi"), (2, "sv")])
def test_amounts_are_written_the_way_each_language_writes_them(cents, index, language):
    assert format_cents(cents, language=language) == _nb(AMOUNTS[cents][index])


def test_the_symbol_can_be_left_out_where_the_heading_says_euros():
    assert format_cents(123_456, language="fi", symbol=False) == f"1{NB}234,56"


def test_without_a_language_the_active_one_is_used():
    with translation.override("sv"):
        assert format_cents(250) == f"2,50{NB}€"


def test_an_operator_currency_without_a_symbol_is_shown_by_its_code(settings):
    settings.OPERATOR_CURRENCY = "SEK"
    assert format_cents(250, language="sv") == f"2,50{NB}SEK"


@pytest.mark.parametrize("cents,plain", [(0, "0.00"), (5, "0.05"), (100, "1.00"), (123_456_789, "1234567.89"),
                                         (-5, "-0.05"), (-123_456_789, "-1234567.89")])
def test_plain_form_has_a_dot_and_no_grouping(cents, plain):
    assert plain_cents(cents) == plain


def test_plain_form_does_not_follow_the_language():
    with translation.override("fi"):
        assert plain_cents(123_456) == "1234.56"


@pytest.mark.parametrize("bad", [1.5, 100.0, True, Decimal("1"), "100"])
def test_only_whole_cents_as_int_are_formatted(bad):
    with pytest.raises(TypeError, match="must be an int"):
        format_cents(bad)


def test_plain_form_refuses_a_float():
    with pytest.raises(TypeError, match="must be an int"):
        plain_cents(12.5)


def test_an_unknown_language_is_refused_by_name():
    with pytest.raises(ValueError, match="'de'"):
        format_cents(100, language="de")


@given(st.integers(-(2**63), 2**63 - 1), st.sampled_from(["en", "fi", "sv"]))
def test_every_bigint_amount_reads_back_to_the_same_cents(cents, language):
    """Both forms are exact over the whole BigIntegerField range: strip the grouping and the symbol,
    put the dot back, and the euros times 100 are the cents again."""
    shown = format_cents(cents, language=language)
    assert shown.endswith(f"{NB}€")
    number = shown.removesuffix(f"{NB}€")
    if language == "en":
        number = number.replace(",", "")
    else:
        number = number.replace(NB, "").replace(",", ".")
    assert Decimal(number) * 100 == cents
    assert Decimal(plain_cents(cents)) * 100 == cents
    assert number == plain_cents(cents)


@pytest.mark.parametrize("value,cents", [(None, None), ("", None), (0, 0), ("-250", -250), (" 42 ", 42),
                                         (Decimal("300"), 300)])
def test_template_values_become_whole_cents(value, cents):
    assert cents_value(value) == cents


@pytest.mark.parametrize("value", ["1.5", "12,00", "1e3", "²", Decimal("1.5")])
def test_template_values_that_are_not_whole_cents_are_refused(value):
    with pytest.raises(ValueError, match="whole number of cents"):
        cents_value(value)


def _render(source: str, language: str, **context) -> str:
    with translation.override(language):
        return Template("{% load money %}" + source).render(Context(context))


def test_money_filter_follows_the_active_language():
    assert _render("{{ x|money }}", "fi", x=123_456) == f"1{NB}234,56{NB}€"


def test_money_filter_without_symbol():
    assert _render("{{ x|money:False }}", "en", x=-123_456) == "-1,234.56"


def test_money_filter_shows_a_dash_for_no_amount():
    assert _render("{{ x|money }}|{{ y|money:False }}", "en", x=None, y="") == "–|–"


@pytest.mark.parametrize(("euros", "cents"), [("25.00", 2500), (Decimal("-0.05"), -5), ("1000000000.00", 100_000_000_000),
                                              (None, None)])
def test_an_engine_amount_in_euros_becomes_whole_cents(euros, cents):
    assert euros_to_cents(euros) == cents


def test_a_fraction_of_a_cent_from_an_engine_is_refused_not_rounded():
    with pytest.raises(ValueError, match="not a whole number of cents"):
        euros_to_cents("0.005")
