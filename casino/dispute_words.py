"""The words of the disputes' and complaints' audit records (compliance.words, issue 18): their actions,
object types, payload keys and stored codes, registered from casino.registrations."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from compliance.words import register_words

from .disputes import role_label
from .models import Complaint, Dispute

ACTIONS = {
    "casino.dispute_recorded": _("Dispute recorded"),
    "casino.dispute_amended": _("Dispute record amended"),
    "casino.complaint_recorded": _("Complaint recorded"),
    "casino.complaint_extended": _("Complaint deadline extended"),
    "casino.complaint_answered": _("Complaint answered"),
    "casino.complaint_paid": _("Complaint winnings paid"),
    "casino.complaint_answer_overdue": _("Complaint answer overdue"),
    "casino.complaint_payment_overdue": _("Complaint winnings payment overdue"),
}

OBJECT_TYPES = {
    "casino.dispute": _("Dispute"),
    "casino.complaint": _("Complaint"),
}

KEYS = {
    "table": _("Table"),
    "round_description": _("Round, if it was not recorded"),
    "occurred_at": _("Time of the dispute"),
    "players": _("Players"),
    "staff": _("Staff involved"),
    "deciders": _("Decided by"),
    "round_outcome": _("After the decision"),
    "amends": _("Amends"),
    "amendment_reason": _("Why the record is amended"),
    "dispute": _("Dispute"),
    "person": _("Identified player"),
    "player_name": _("Player's name"),
    "channel": _("Received"),
    "received_on": _("Received on"),
    "subject": _("What the complaint is about"),
    "winnings_cents": _("Winnings payable"),
    "deadline_input": _("Input of the deadline computation"),
    "answer_due": _("Answer due"),
    "payment_due": _("Payment due"),
    "extension_notified_on": _("The player was notified on"),
    "extended_answer_due": _("Answer due after the extension"),
    "answered_on": _("Answered on"),
    "late": _("After the deadline"),
    "text": _("The answer"),
    "paid_on": _("Paid on"),
    "reference": _("Payment reference"),
    "due": _("Due"),
}


def _deciders(value) -> list[str]:
    if not isinstance(value, list):
        return [str(value)]
    return [f"{d.get('name', '')} ({role_label(d.get('role', ''))})" for d in value if isinstance(d, dict)]


def register() -> None:
    register_words(
        actions=ACTIONS, object_types=OBJECT_TYPES, keys=KEYS,
        refs={"dispute": "casino.dispute", "amends": "casino.dispute", "table": "casino.table",
              "person": "players.person"},
        values={"channel": lambda code: str(Complaint.Channel(code).label) if code in Complaint.Channel.values else code,
                "round_outcome": lambda code: str(Dispute.RoundOutcome(code).label)
                if code in Dispute.RoundOutcome.values else code},
        render={"deciders": _deciders},
        links={"casino.dispute": lambda pk: reverse("casino:dispute", args=[int(pk)]),
               "casino.complaint": lambda pk: reverse("casino:complaint", args=[int(pk)])})
