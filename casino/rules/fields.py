"""What the table produced, field by field: a pure description of a game's outcome (no Django).

Every engine declares ``outcome_fields``: the outcome's fields in the order staff enter them. The
round-check page builds its form from this description (``casino.outcome_form``), so no code outside
a game's module branches on the game's name. A description says, per field:

* ``name``: the key in the outcome (or in one box of it); a dotted name nests (``actions.flop`` is
  ``{"actions": {"flop": ...}}``);
* ``kind``: how it is typed (:data:`KINDS`);
* ``label``: an English msgid the page translates at its boundary (``casino.labels``);
* ``choices``: the values a ``choice`` (or the words an ``actions``) field takes;
* ``count``: how many dice a ``dice`` field holds;
* ``steps``: for ``steps``: per action word, the names of the values that follow it (``"exchange":
  ("out", "in")`` reads ``exchange 2d 3c -> 9h Ts`` as ``{"action": "exchange", "out": "2d 3c",
  "in": "9h Ts"}``).

A game with boxes or hands declares them as :class:`Boxes`: how they are keyed in the outcome
(``keyed``: an object by box number, ``{"1": {...}}``; else a list of objects with ``box``) and the
fields of one box.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

#: number: a whole number (or a number word such as "00"); choice: one of `choices`; dice: `count`
#: dice 1-6; cards: cards as text in deal order ("As Kh"); actions: words in order ("split double
#: stand"); steps: decisions with their cards ("exchange 2d -> 9h; raise"); flag: yes/no (left out
#: when no); amount: a decimal amount ("250.00"); text: free text.
#: pairs: pairs of box numbers ("1-2, 3-4").
KINDS = ("number", "choice", "dice", "cards", "actions", "steps", "flag", "amount", "text", "pairs")


@dataclass(frozen=True)
class Field:
    name: str
    kind: str
    label: str
    choices: tuple[str, ...] = ()
    count: int = 0
    steps: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"{self.kind!r} is not a field kind: {', '.join(KINDS)}")


@dataclass(frozen=True)
class Boxes:
    name: str  # the outcome's key: "boxes", "hands"
    label: str
    keyed: bool  # True: {"1": {...}}; False: [{"box": 1, ...}]
    fields: tuple[Field, ...]
    rows: int = 4


def labels(description: tuple[Field | Boxes, ...]) -> set[str]:
    """Every msgid a description shows (field labels, and the action words and choices that are words)."""
    out: set[str] = set()
    for item in description:
        out.add(item.label)
        for f in item.fields if isinstance(item, Boxes) else (item,):
            out.add(f.label)
            out.update(c for c in f.choices if is_word(c))
            out.update(f.steps)
    return out


def is_word(choice: str) -> bool:
    """A choice that is a word staff read (``fold``, ``sixth_card``), not a number or a symbol (``45A``)."""
    return choice.replace("_", "").isalpha() and choice.islower()


def nest(target: dict, name: str, value: object, width: int = 0) -> None:
    """Set `value` at the dotted `name` of `target` (``actions.flop``); ``withdrawn[1]`` sets the
    second place of a list of `width` places (the others None)."""
    *parents, last = name.split(".")
    for part in parents:
        target = target.setdefault(part, {})
    m = re.fullmatch(r"(\w+)\[(\d+)\]", last)
    if m:
        places = target.setdefault(m.group(1), [None] * max(width, int(m.group(2)) + 1))
        places[int(m.group(2))] = value
    else:
        target[last] = value


def list_width(fields: tuple[Field, ...], name: str) -> int:
    """How many places the list of an indexed field (``withdrawn[0]``) has: its siblings' count."""
    base = name.split("[", 1)[0]
    return sum(1 for f in fields if f.name.split("[", 1)[0] == base and "[" in f.name)


def number_value(text: str) -> int | str:
    """A typed number as the outcome holds it: digits as a whole number, "00" (and anything else)
    as typed, so the engine names what is wrong."""
    text = text.strip()
    return int(text) if text.isdigit() and (text == "0" or not text.startswith("0")) else text


def pairs_value(text: str) -> list[list[int | str]]:
    """``1-2, 3-4`` as ``[[1, 2], [3, 4]]`` (a part that is not a number stays text: the engine names it)."""
    out: list[list[int | str]] = []
    for part in words(text):
        out.append([number_value(n) for n in part.split("-", 1)])
    return out


def words(text: str) -> list[str]:
    return [w for w in text.replace(",", " ").split() if w]


def steps_value(text: str, steps: Mapping[str, tuple[str, ...]]) -> list[dict[str, str]]:
    """``exchange 2d 3c -> 9h Ts; sixth_card 5c; raise`` as the engine's list of decisions: the values
    after an action word are its named values in order, separated by ``->``."""
    out: list[dict[str, str]] = []
    for chunk in text.replace("\n", ";").split(";"):
        parts = chunk.strip().split(None, 1)
        if not parts:
            continue
        step: dict[str, str] = {"action": parts[0]}
        names = steps.get(parts[0], ())
        if names and len(parts) > 1:
            values = [v.strip() for v in parts[1].split("->")]
            for key, value in zip(names, values):
                if value:
                    step[key] = value
        out.append(step)
    return out


# ------------------------------------------------------------------------- fields games share

VOID_FIELD = Field("void", "flag", "Void (no valid spin or throw)")
REASON = Field("reason", "text", "Why void")
DEALER_CARDS = Field("dealer", "cards", "Dealer's cards")
BOX_CARDS = Field("cards", "cards", "Cards in deal order")
