"""What the verification job records for the jackpots (docs/casino-operations.md, "Jackpots"): for every
verified round at a table linked to a jackpot, one `JackpotAccrual` per bet that takes part (a bet of
the jackpot's participation type: its valid stake times the contribution rate) or wins from it (a bet
the engine settles in the jackpot category: what the engine says was due, inside the venue's win cap).

It runs inside the job's chunk (casino.verification): computed beside the chunk's verifications and
written in the same transaction, conditioned on the batch's cursor, so a rerun or a resumed run posts
nothing twice. A large win asks for a second person (compliance.approvals) in that transaction. A round
that corrects another supersedes the corrected round's accruals not posted yet (voiding a pending
large-win request), and reverses those already posted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from casino.rules import registry
from casino.rules.fields import Field
from casino.rules.jackpot_ledger import contribution_cents

from .jackpots import large_win_cents, request_large_win, void_large_win
from .models import Discrepancy, Jackpot, JackpotAccrual, JackpotVersion, RecordedRound

#: Findings stored on a discrepancy (English, like verification's; casino.messages translates them).
FEE = "jackpot {jackpot}: the participation stake {stake} differs from the set fee {fee}"
ABOVE_MAX_WIN = "jackpot {jackpot}: the win {win} is above the maximum permitted win {most}"
JACKPOT_CATEGORY = "jackpot"


def _cents(amount: str) -> int:
    return int(Decimal(amount) * 100)


def _plain(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


_POT_FIELDS: dict[tuple[str, str], tuple[str, ...]] = {}


def pot_fields(rulebook: str, game: str) -> tuple[str, ...]:
    """The outcome fields of a game that report the pot shown at the table: its engine's amount fields
    named `*_pot` or `*_jackpot` (`progressive_pot`, `electronic_bonus_pot`, `bonus_jackpot`)."""
    key = (rulebook, game)
    if key not in _POT_FIELDS:
        try:
            described = registry.get(rulebook, game).outcome_fields
        except ValueError:
            described = ()
        _POT_FIELDS[key] = tuple(f.name for f in described if isinstance(f, Field) and f.kind == "amount"
                                 and f.name.endswith(("_pot", "_jackpot")))
    return _POT_FIELDS[key]


def pot_shown(rulebook: str, game: str, outcome: Any) -> int | None:
    for name in pot_fields(rulebook, game):
        value = outcome.get(name) if isinstance(outcome, dict) else None
        if value is not None:
            try:
                return _cents(str(value))
            except ArithmeticError:
                return None
    return None


@dataclass
class Accrued:
    """A chunk's jackpot work, computed before its transaction and written in it."""

    accruals: list[JackpotAccrual] = field(default_factory=list)
    discrepancies: list[Discrepancy] = field(default_factory=list)
    large: list[tuple[JackpotAccrual, Any, Any]] = field(default_factory=list)  # accrual, venue, round
    corrected: list[int] = field(default_factory=list)  # rounds corrected by rounds of the chunk
    correcting: dict[int, Any] = field(default_factory=dict)  # corrected round -> the round that corrects it

    def __bool__(self) -> bool:
        return bool(self.accruals or self.discrepancies or self.corrected)


class Pots:
    """The jackpots a batch's rounds may take part in, loaded once per batch (few: tens at most)."""

    def __init__(self, jackpots: list[Jackpot]) -> None:
        self.by_table: dict[int, list[tuple[Jackpot, list[JackpotVersion]]]] = {}
        for j in jackpots:
            versions = sorted(j.versions.all(), key=lambda v: v.effective_from, reverse=True)
            for v in versions:
                v.jackpot = j  # the row loaded here, with its venue: no query per round
                v.table_ids = {t.pk for t in v.tables.all()}
            for table_id in {t for v in versions for t in v.table_ids}:
                self.by_table.setdefault(table_id, []).append((j, versions))

    @classmethod
    def load(cls) -> Pots | None:
        """The jackpots, or None when there is none (the job then does nothing more than before)."""
        jackpots = list(Jackpot.objects.select_related("venue").prefetch_related(Prefetch(
            "versions", queryset=JackpotVersion.objects.prefetch_related("tables"))))
        return cls(jackpots) if jackpots else None

    def version_for(self, table_id: int, when) -> JackpotVersion | None:
        """The terms in force at `when` of the jackpot the table was linked to then (a jackpot removed
        before the round takes no part in it)."""
        for j, versions in self.by_table.get(table_id, ()):
            if j.removed_at is not None and j.removed_at <= when:
                continue
            version = next((v for v in versions if v.effective_from <= when), None)
            if version is not None and table_id in version.table_ids:
                return version
        return None

    def accrue(self, rounds: Sequence[Any], verdicts: Sequence[Any], ctx) -> Accrued:
        """The accruals of a chunk's rounds (`verdicts`: the family's verdict of each round, in order)."""
        out = Accrued()
        linked = []
        for r, verdict in zip(rounds, verdicts):
            tv = ctx.table_version(r.table_version_id)
            version = self.version_for(tv.table_id, r.played_at)
            if version is None:
                continue
            linked.append(r.pk)
            if verdict.answer is None:
                continue  # not computed: the round is an `unverifiable` discrepancy already
            venue = ctx.venue(r.venue_id)
            self._round(out, r, verdict.answer, version, venue)
        if linked:
            for pk, corrects in RecordedRound.objects.filter(pk__in=linked, corrects__isnull=False).values_list(
                    "pk", "corrects_id"):
                out.corrected.append(corrects)
                out.correcting[corrects] = next(r for r in rounds if r.pk == pk)
        return out

    def _round(self, out: Accrued, r, answer: dict, version: JackpotVersion, venue) -> None:
        shown = pot_shown(venue.rulebook, r.game, r.outcome)
        threshold = large_win_cents(venue.kind)
        for index, (bet, result) in enumerate(zip(r.bets, answer["bets"])):
            takes_part = bet.get("type") == version.bet_type
            stake = _cents(result["valid_stake"]) if takes_part and result["status"] != "refused" else 0
            win = _cents(result["winnings"]) if result.get("category") == JACKPOT_CATEGORY else 0
            if not takes_part and win <= 0:
                continue
            name = str(version.jackpot)
            fee = version.participation_fee_cents
            recorded = _cents(str(bet.get("stake", "0")))
            if takes_part and fee is not None and recorded != fee:
                out.discrepancies.append(Discrepancy(
                    round_id=r.pk, venue_id=r.venue_id, day=r.day, kind=Discrepancy.Kind.NOT_ALLOWED, bet_index=index,
                    detail=FEE.format(jackpot=name, stake=_plain(recorded), fee=_plain(fee))))
            if win > version.max_win_cents:
                out.discrepancies.append(Discrepancy(
                    round_id=r.pk, venue_id=r.venue_id, day=r.day, kind=Discrepancy.Kind.JACKPOT, bet_index=index,
                    detail=ABOVE_MAX_WIN.format(jackpot=name, win=_plain(win), most=_plain(version.max_win_cents))))
            large = win >= threshold
            accrual = JackpotAccrual(
                jackpot_id=version.jackpot_id, version=version, round_id=r.pk, bet_index=index, day=r.day,
                played_at=r.played_at, stake_cents=stake, contribution_cents=contribution_cents(stake, version.contribution_rate),
                win_cents=win, pot_shown_cents=shown,
                win_state=JackpotAccrual.WinState.HELD if large else JackpotAccrual.WinState.NONE)
            out.accruals.append(accrual)
            if large:
                out.large.append((accrual, venue, r))


def write(out: Accrued, *, actor) -> None:
    """Write a chunk's accruals in the job's transaction: the accruals, the large-win requests, and what
    the chunk's corrections supersede or reverse."""
    reversals: list[JackpotAccrual] = []
    if out.corrected:
        now = timezone.now()
        earlier = JackpotAccrual.objects.filter(round_id__in=out.corrected, reverses__isnull=True,
                                                superseded_at__isnull=True).select_for_update(of=("self",))
        for old in earlier.order_by("pk"):
            fix = out.correcting[old.round_id]
            if old.posting_id is None:
                JackpotAccrual.objects.filter(pk=old.pk).update(superseded_at=now)
                if old.win_state == JackpotAccrual.WinState.HELD:
                    void_large_win(old, actor=actor, reason=f"round corrected by round {fix.pk}")
            else:
                reversals.append(JackpotAccrual(
                    jackpot_id=old.jackpot_id, version_id=old.version_id, round_id=fix.pk, bet_index=old.bet_index,
                    day=fix.day, played_at=fix.played_at, contribution_cents=-old.contribution_cents,
                    win_cents=-old.win_cents, reverses=old))
    JackpotAccrual.objects.bulk_create([*out.accruals, *reversals])
    if out.large:
        refs = {pk: (ref, by) for pk, ref, by in RecordedRound.objects.filter(
            pk__in=[r.pk for _a, _v, r in out.large]).values_list("pk", "ref", "recorded_by_name")}
        for accrual, venue, r in out.large:
            ref, recorded_by = refs[r.pk]
            request_large_win(accrual, actor=actor, venue=venue, round_ref=ref, recorded_by=recorded_by)
