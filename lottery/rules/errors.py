"""Exceptions raised by the prize rules engine.

Every error the engine raises is a :class:`RulesError`, so a caller (a service, the
``calculate_prizes`` management command, an API view) can catch one type and show the
message: each message is plain English and names what is wrong.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every error raised by ``lottery.rules``.

    The message is English. ``code`` (a stable word, "" when the error has none yet) and ``params``
    (the named values of the message) let a caller show it in another language: the lottery app
    translates at its boundary (`lottery.games.messages`), the engine stays free of Django."""

    code: str = ""

    def __init__(self, *args: object, code: str = "", **params: object) -> None:
        super().__init__(*args)
        if code:
            self.code = code
        self.params = params


class InvalidPicks(RulesError):
    """A line's selections break the game format (§3, §11–§20): count, range, duplicates."""


class InvalidResult(RulesError):
    """A draw result breaks the game format (§3, §10–§20) or a per-round limit (e.g. §31)."""


class InvalidParams(RulesError):
    """A rule-set parameter is missing, malformed or out of range."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}")


class RoundInputError(RulesError):
    """A round's input (JSON or typed) is invalid.

    ``field`` is a dotted path into the JSON input, e.g. ``winners.3``, ``lines[2].stake``
    or ``plussa.boosted.4``.
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")
