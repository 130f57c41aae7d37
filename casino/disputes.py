"""Disputes at the tables (issue 19 item 4; 000-casino §3.4): recorded by the Casino inspector, never
edited; an amendment is a new record pointing at the one it replaces.

`dispute_record` takes `actor=`, runs in one transaction and writes its audit event in it. Who may
decide a dispute at a venue is the pure table of `casino.rules.disputes` (game hall: the dealer;
casino: the dealer and/or the inspector; ...); a decider the venue's rulebook does not allow is refused
beside the field. docs/casino-operations.md, "Disputes".
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.rules import disputes as rules
from compliance.audit import audit_record
from compliance.errors import InvalidInput, StateConflict, either
from players.models import Person

from .models import Dispute, RecordedRound, Table

#: The deciders' roles in staff words (casino.rules.disputes.ROLES).
DECIDER_ROLES = {
    rules.DEALER: pgettext_lazy("dispute decider", "dealer"),
    rules.INSPECTOR: pgettext_lazy("dispute decider", "inspector"),
    rules.ADMINISTRATION: pgettext_lazy("dispute decider", "the establishment's administration"),
}
MAX_TEXT = 4000
#: A dispute recorded as happening later than this after now is refused (clocks differ a little).
FUTURE_SLACK = dt.timedelta(minutes=5)


def _name(actor) -> str:
    return actor if isinstance(actor, str) else actor.get_username()


def _user(actor):
    return None if isinstance(actor, str) else actor


def role_label(code: str):
    return DECIDER_ROLES.get(code, code)


def allowed_roles(table: Table) -> tuple[str, ...]:
    found = rules.deciders_for(table.venue.rulebook, table.venue.frame)
    return found.roles if found else ()


def _clean_players(players: Sequence[Mapping[str, Any]], fields: dict) -> list[dict]:
    out: list[dict] = []
    wanted: set[int] = set()
    for party in players:
        person = party.get("person")
        description = str(party.get("description") or "").strip()
        if person is not None:
            if isinstance(person, bool) or not isinstance(person, int) or person < 1:
                fields.setdefault("players", []).append(_("A player's id is a whole number."))
                continue
            wanted.add(person)
            out.append({"person": person})
        elif description:
            out.append({"description": description[:300]})
    known = set(Person.objects.filter(pk__in=wanted).values_list("pk", flat=True)) if wanted else set()
    for missing in sorted(wanted - known):
        fields.setdefault("players", []).append(_("No player has the id %(id)s.") % {"id": missing})
    if not out and "players" not in fields:
        fields["players"] = [_("Name at least one player: an identified player's id, or a description.")]
    return out


def _clean_deciders(table: Table, deciders: Sequence[Mapping[str, Any]], fields: dict) -> list[dict]:
    out = [{"name": str(d.get("name") or "").strip()[:150], "role": str(d.get("role") or "")} for d in deciders
           if str(d.get("name") or "").strip() or d.get("role")]
    venue = table.venue
    allowed = rules.deciders_for(venue.rulebook, venue.frame)
    for index, decider in enumerate(out):
        if not decider["name"]:
            fields.setdefault("deciders", []).append(
                _("Decider %(n)s: write the staff member's name.") % {"n": index + 1})
    for index, problem in rules.check_deciders(venue.rulebook, venue.frame, [d["role"] for d in out]):
        if problem == rules.NO_DECIDER:
            message = _("Name the staff member who decided, and their role.")
        elif problem == rules.ROLE_TWICE:
            message = _("Decider %(n)s: the role %(role)s is named twice.") % {
                "n": index + 1, "role": role_label(out[index]["role"])}
        elif problem == rules.ROLE_NOT_ALLOWED:
            message = _("Decider %(n)s: at %(venue)s (%(kind)s) a dispute is decided by %(roles)s (%(rule)s), "
                        "not by %(role)s.") % {
                "n": index + 1, "venue": venue.name, "kind": venue.get_kind_display(),
                "roles": either(*(role_label(r) for r in allowed.roles)), "rule": allowed.rule,
                "role": role_label(out[index]["role"])}
        else:
            message = _("This venue's rulebook says nothing of who decides a dispute.")
        fields.setdefault("deciders", []).append(message)
    return out


def _find_round(table: Table, round_ref: str, fields: dict) -> RecordedRound | None:
    found = RecordedRound.objects.filter(table=table, ref=round_ref).first()
    if found is None:
        fields["round"] = [_("No round of table %(table)s has the reference %(ref)s.") % {
            "table": table.code, "ref": round_ref}]
    return found


@transaction.atomic
def dispute_record(*, actor, table: Table, decision: str, round_outcome: str,
                   deciders: Sequence[Mapping[str, Any]], players: Sequence[Mapping[str, Any]],
                   staff: Sequence[Mapping[str, Any]] = (), occurred_at: dt.datetime | None = None,
                   round: RecordedRound | None = None, round_ref: str = "", round_description: str = "",
                   amends: Dispute | None = None, amendment_reason: str = "", request=None) -> Dispute:
    """Record a dispute at `table` (000-casino §3.4): the recorded round (`round`, or its reference at the
    table, `round_ref`) or a description of it, when, the players (`{"person": id}` or `{"description":
    text}`), staff involved (`{"name", "role"}`), who decided (`{"name", "role"}`: roles the venue's
    rulebook allows), the decision and whether the round ended or continued. `amends`: the dispute this
    record replaces (with `amendment_reason`); a dispute is amended once, and its amendment again if need be.
    Every problem is reported at once, by field."""
    table = Table.objects.select_related("venue").get(pk=table.pk)
    fields: dict[str, list] = {}
    round_ref = (round_ref or "").strip()
    round_description = (round_description or "").strip()
    if round is None and round_ref:
        round = _find_round(table, round_ref, fields)
    if round is not None and round.table_id != table.pk:
        fields["round"] = [_("The round was played at another table.")]
    if round is None and not round_description and "round" not in fields:
        fields["round_description"] = [_("Give the recorded round's reference, or describe the round.")]
    if occurred_at is None and round is not None:
        occurred_at = round.played_at
    if occurred_at is None:
        fields["occurred_at"] = [_("When did the dispute happen?")]
    elif timezone.is_naive(occurred_at):
        raise ValueError("occurred_at must be aware")
    elif occurred_at > timezone.now() + FUTURE_SLACK:
        fields["occurred_at"] = [_("The time is in the future.")]
    player_parties = _clean_players(players, fields)
    staff_parties = [{"name": str(s.get("name") or "").strip()[:150], "role": str(s.get("role") or "").strip()[:60]}
                     for s in staff if str(s.get("name") or "").strip()]
    decided_by = _clean_deciders(table, deciders, fields)
    decision = (decision or "").strip()
    if not decision:
        fields["decision"] = [_("Write the decision.")]
    elif len(decision) > MAX_TEXT:
        fields["decision"] = [_("At most %(n)s characters.") % {"n": MAX_TEXT}]
    if round_outcome not in Dispute.RoundOutcome.values:
        fields["round_outcome"] = [_("Say whether the round ended or continued.")]
    amendment_reason = (amendment_reason or "").strip()
    if amends is not None:
        amends = Dispute.objects.select_for_update().get(pk=amends.pk)
        if amends.amendments.exists():
            raise StateConflict(_("Dispute %(n)s has already been amended: amend its newest version."), n=amends.pk)
        if not amendment_reason:
            fields["amendment_reason"] = [_("Say why the record is amended.")]
    if fields:
        raise InvalidInput(_("The dispute was not recorded: see the messages beside the fields."), fields=fields)
    try:
        with transaction.atomic():
            dispute = Dispute.objects.create(
                venue=table.venue, table=table, round=round, round_description=round_description[:300],
                occurred_at=occurred_at, day=timezone.localtime(occurred_at).date(), players=player_parties,
                staff=staff_parties, deciders=decided_by, decision=decision, round_outcome=round_outcome,
                amends=amends, amendment_reason=amendment_reason if amends is not None else "",
                recorded_by=_user(actor), recorded_by_name=_name(actor))
    except IntegrityError:  # another amendment of the same dispute was recorded meanwhile
        raise StateConflict(_("Dispute %(n)s has already been amended: amend its newest version."),
                            n=amends.pk if amends else "") from None
    audit_record(
        actor=actor, action="casino.dispute_amended" if amends is not None else "casino.dispute_recorded",
        obj=dispute, request=request, before={"dispute": amends.pk} if amends is not None else None,
        after={"venue": table.venue_id, "table": table.pk, "round": round.pk if round else None,
               "round_description": round_description, "occurred_at": occurred_at.isoformat(),
               "players": player_parties, "staff": staff_parties, "deciders": decided_by, "decision": decision,
               "round_outcome": round_outcome, "amends": amends.pk if amends else None,
               "amendment_reason": amendment_reason if amends is not None else ""})
    return dispute
