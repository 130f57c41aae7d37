"""How the dashboard says the players app's four-eyes requests (compliance.queues)."""

from __future__ import annotations

from django.utils.translation import gettext

from compliance.money import format_cents


def channel_prize_phrases(approvals) -> dict[int, str]:
    return {a.pk: gettext("A prize of %(amount)s above the channel's limit awaits approval") % {
        "amount": format_cents(a.payload.get("amount_cents", 0))} for a in approvals}


def payout_release_phrases(approvals) -> dict[int, str]:
    return {a.pk: gettext("A bank payout of %(amount)s (bank reference %(reference)s) awaits confirmation") % {
        "amount": format_cents(a.payload.get("amount_cents", 0)), "reference": a.payload.get("bank_reference", "")}
        for a in approvals}
