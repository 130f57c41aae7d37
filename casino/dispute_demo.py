"""Demo disputes and complaints for `manage.py seed_demo` (issue 19 item 6), after the venues and the
day of rounds (casino.demo_operations): a dispute at Casino Helsinki on one of the day's roulette rounds,
decided by the dealer and the inspector (the round continued), and two complaints at Casino Billionaire:
one open with its answer due within a day or two (so it waits in the casino manager's work queue), one
answered in time with winnings payable, not yet paid. Idempotent: each part is added once."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone

from casino.rules import complaints as engine

from . import complaints, disputes
from .models import Complaint, Dispute, RecordedRound, Venue

ACTOR = "system:seed_demo"


def _user(username: str):
    return get_user_model().objects.filter(username=username).first() or ACTOR


def _received_for_due_soon(today: dt.date, country: str) -> dt.date:
    """The latest day received whose answer is due tomorrow, or else the nearest day after today."""
    for wanted in (today + dt.timedelta(days=1), today + dt.timedelta(days=2), today + dt.timedelta(days=3), today):
        for back in range(1, 40):
            received = today - dt.timedelta(days=back)
            if engine.answer_due(received, country) == wanted:
                return received
    return today - dt.timedelta(days=13)


def seed(stdout) -> None:
    helsinki = Venue.objects.filter(code="casino-helsinki").first()
    billionaire = Venue.objects.filter(code="billionaire").first()
    if helsinki is not None and not Dispute.objects.filter(venue=helsinki).exists():
        played = (RecordedRound.objects.filter(venue=helsinki, game="roulette").order_by("played_at", "pk").first()
                  or RecordedRound.objects.filter(venue=helsinki).order_by("played_at", "pk").first())
        if played is not None:
            disputes.dispute_record(
                actor=_user("inspector"), table=played.table, round=played,
                players=[{"description": "Player at box 1, grey jacket"}],
                staff=[{"name": "Mikko Jakaja", "role": "dealer"}],
                deciders=[{"name": "Mikko Jakaja", "role": "dealer"}, {"name": "Inka Tarkastaja", "role": "inspector"}],
                decision="The player said the chips on 17 were placed before 'no more bets'. The camera shows they were "
                         "placed after it: the stake was returned and not played.",
                round_outcome=Dispute.RoundOutcome.CONTINUED)
            stdout.write("Casino: a dispute at Casino Helsinki")
    if billionaire is not None and not Complaint.objects.filter(venue=billionaire).exists():
        today = timezone.localdate()
        received = _received_for_due_soon(today, billionaire.jurisdiction)
        complaints.complaint_record(
            actor=_user("inspector"), venue=billionaire, received_on=received, channel=Complaint.Channel.ELECTRONIC,
            player_name="Olena Kovalenko",
            subject="Says her straight-up bet on 17 was paid as a split after the spin at 23:10.")
        earlier = today - dt.timedelta(days=15)
        answered = complaints.complaint_record(
            actor=_user("inspector"), venue=billionaire, received_on=earlier, channel=Complaint.Channel.IN_PERSON,
            player_name="Taras Melnyk", subject="Blackjack: the dealer's second card was dealt before his double.")
        complaints.complaint_answer(
            actor=_user("casino"), complaint=answered, answered_on=earlier + dt.timedelta(days=5),
            text="Upheld: the double stands; the difference is paid at the cash desk.", winnings_cents=35_000)
        stdout.write("Casino: two complaints at Casino Billionaire")
