"""National identifiers and names, pure: parsing, checking and normalising personal identity codes,
and the name form that register entries and people are matched by.

No Django here (DESIGN §1). compliance owns it because both sides of an exclusion match, the
registers (compliance) and the people (players), must read identifiers and names the same way;
players imports it, and `compliance.identity` hashes and encrypts the normalised form.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

_HETU = re.compile(r"^([0-9]{2})([0-9]{2})([0-9]{2})([-+A-FU-Y])([0-9]{3})([0-9A-Y])$")
_HETU_CHECK = "0123456789ABCDEFHJKLMNPRSTUVWXY"
_HETU_CENTURY = {"+": 1800, "-": 1900, **dict.fromkeys("UVWXY", 1900), **dict.fromkeys("ABCDEF", 2000)}


def normalise_identifier(value: str, country: str) -> str:
    """The canonical form that is hashed: upper case, no white space; for other countries than FI
    also without hyphens and dots (the Finnish hyphen is the century sign and stays)."""
    text = re.sub(r"\s+", "", value or "").upper()
    if country.upper() != "FI":
        text = text.replace("-", "").replace(".", "")
    return text


class IdentifierInvalid(ValueError):
    """A national identifier that is not valid; `code` says why (format, check_character, date), for a
    message in the reader's language (players.services.IDENTIFIER_PROBLEMS)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def finnish_id_birth_date(hetu: str) -> dt.date:
    """Birth date encoded in a Finnish personal identity code; IdentifierInvalid (a ValueError) when it
    is not valid."""
    m = _HETU.match(normalise_identifier(hetu, "FI"))
    if not m:
        raise IdentifierInvalid("format", "not a Finnish personal identity code (DDMMYYCZZZQ)")
    dd, mm, yy, century, individual, check = m.groups()
    if _HETU_CHECK[int(dd + mm + yy + individual) % 31] != check:
        raise IdentifierInvalid("check_character", "the check character of the identity code is wrong")
    try:
        return dt.date(_HETU_CENTURY[century] + int(yy), int(mm), int(dd))
    except ValueError as exc:
        raise IdentifierInvalid("date", str(exc)) from None


_RNOKPP_WEIGHTS = (-1, 5, 7, 9, 4, 6, 10, 5, 7)
# Identifiers of other countries are checked by their format only (the normalised form: upper case,
# no spaces, hyphens or dots). Countries not listed: 4-32 letters and digits.
_ID_FORMATS = {
    "SE": re.compile(r"^([0-9]{10}|[0-9]{12})$"),  # personnummer, with or without the century
    "NO": re.compile(r"^[0-9]{11}$"),  # fødselsnummer
    "DK": re.compile(r"^[0-9]{10}$"),  # CPR
    "EE": re.compile(r"^[1-8][0-9]{10}$"),  # isikukood
    "LV": re.compile(r"^[0-9]{11}$"),
    "LT": re.compile(r"^[1-6][0-9]{10}$"),
}
_ID_GENERIC = re.compile(r"^[A-Z0-9]{4,32}$")


def ukrainian_id_valid(rnokpp: str) -> bool:
    """Ukrainian taxpayer number (RNOKPP): 10 digits, the last a check digit: the weighted sum of the
    first nine (weights -1, 5, 7, 9, 4, 6, 10, 5, 7) modulo 11, then modulo 10."""
    if not re.fullmatch(r"[0-9]{10}", rnokpp):
        return False
    total = sum(w * int(d) for w, d in zip(_RNOKPP_WEIGHTS, rnokpp[:9], strict=True))
    return total % 11 % 10 == int(rnokpp[9])


def identifier_problem(value: str, country: str) -> str | None:
    """Why `value` cannot be a national identifier of `country`, or None when it can: Finnish identity
    codes by date and check character (all century signs, including the 2023 ones -YXWVU and
    ABCDEF), Ukrainian RNOKPP by check digit, other countries by format."""
    country = (country or "").upper()
    text = normalise_identifier(value, country)
    if country == "FI":
        try:
            finnish_id_birth_date(text)
        except ValueError as exc:
            return str(exc)
        return None
    if country == "UA":
        return None if ukrainian_id_valid(text) else "not a Ukrainian RNOKPP (10 digits with a valid check digit)"
    if not _ID_FORMATS.get(country, _ID_GENERIC).match(text):
        return f"not in the format of a {country} national identifier"
    return None


def finnish_id(birth_date: dt.date, individual: int) -> str:
    """A valid Finnish identity code (tests and demo use individual numbers 900-999, never issued)."""
    century = {1800: "+", 1900: "-", 2000: "A"}[birth_date.year // 100 * 100]
    digits = f"{birth_date:%d%m%y}{individual:03d}"
    return f"{birth_date:%d%m%y}{century}{individual:03d}{_HETU_CHECK[int(digits) % 31]}"


def normalise_name(*parts: str) -> str:
    """Case-, accent- and order-insensitive form of a name: "Mäkelä, Jari" -> "jari makela"."""
    text = " ".join(p for p in parts if p)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    tokens = re.findall(r"[^\W_]+", text)
    return " ".join(sorted(tokens))
