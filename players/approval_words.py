"""What the players app's four-eyes requests are about, in words (compliance.approvals `describe=`):
the person (name, birth date, registers and bans in force, self-exclusion), the amount in euros and
the account's balance, with a link to the player's page."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from compliance.models import Approval
from compliance.money import format_cents
from compliance.selectors import entry_words
from compliance.words import Fact, Subject

from .models import GameAccount, PendingPayout, Player
from .selectors import person_protection

CHANNEL_PRIZE_TITLE = _("Prize credit above the channel's limit")
PAYOUT_RELEASE_TITLE = _("Bank payout to confirm as paid")


def person_facts(player: Player) -> list[Fact]:
    """The person behind a player, as a decider needs them: name, birth date, what bars them."""
    person = player.person
    protection = person_protection(person, timezone.now(), player)
    exclusion = protection.self_exclusion
    return [
        Fact(_("Person"), f"{person.first_name} {person.last_name}", reverse("players:detail", args=[player.pk])),
        Fact(_("Birth date"), person.birth_date.isoformat() if person.birth_date else "—"),
        Fact(_("Registers and bans in force"), [entry_words(e) for e in protection.entries]),
        Fact(_("Self-exclusion"), gettext("self-excluded") if exclusion is not None else gettext("Not self-excluded.")),
    ]


def _subject(player: Player) -> Subject:
    person = player.person
    return Subject(title=f"{person.first_name} {person.last_name}", url=reverse("players:detail", args=[player.pk]),
                   facts=person_facts(player))


def describe_channel_prize(approval: Approval) -> Subject:
    p = approval.payload or {}
    account = GameAccount.objects.select_related("player__person").filter(pk=approval.target_id).first()
    if account is None:
        return Subject(title=approval.target_repr)
    subject = _subject(account.player)
    subject.facts += [
        Fact(_("Prize"), format_cents(int(p.get("amount_cents") or 0))),
        Fact(_("Channel's limit"), format_cents(int(p.get("limit_cents") or 0))),
        Fact(_("Reference"), p.get("reference") or "—"),
        Fact(_("Game"), p.get("game") or "—"),
        Fact(_("Balance"), format_cents(account.balance_cents)),
    ]
    subject.reason = gettext("Prize credit of %(amount)s above the channel's limit of %(limit)s") % {
        "amount": format_cents(int(p.get("amount_cents") or 0)), "limit": format_cents(int(p.get("limit_cents") or 0))}
    return subject


def describe_payout_release(approval: Approval) -> Subject:
    p = approval.payload or {}
    payout = PendingPayout.objects.select_related("account__player__person").filter(pk=approval.target_id).first()
    if payout is None:
        return Subject(title=approval.target_repr)
    subject = _subject(payout.account.player)
    subject.facts += [
        Fact(_("Amount"), format_cents(payout.amount_cents)),
        Fact(_("Bank reference"), p.get("bank_reference") or "—"),
        Fact(_("Payout state"), str(payout.get_status_display())),
    ]
    subject.reason = gettext("Bank payout of %(amount)s paid with reference %(reference)s") % {
        "amount": format_cents(payout.amount_cents), "reference": p.get("bank_reference") or "—"}
    return subject
