"""Demo players for `manage.py seed_demo`: idempotent (a person that exists is left alone).

- Aino Virtanen: verified, funded, with her own deposit limit and one finished session with a reminder;
- Mikko Korhonen: registered, not verified (cannot deposit or play);
- Liisa Nieminen: verified, funded, self-excluded for 90 days;
- Jari Mäkelä: verified and funded, then found on the demo national exclusion register, which is loaded
  through the real import (uploaded by `compliance`, approved by `compliance2`): his deposit is refused;
- the operator's mandatory loss limits: 500 EUR per day, 2,000 EUR per month;
- the API user `channel` with the Sales channel role (token only, no password, no back office).

The identity codes use individual numbers 900-999, which are never issued to real people.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone

from compliance import roles
from compliance.approvals import approval_decide
from compliance.audit import audit_record
from compliance.idcodes import finnish_id
from compliance.identity import identifier_hash
from compliance.models import Approval, ExclusionRegistry
from compliance.registry_services import registry_import_stage
from compliance.services import staff_set_roles
from compliance.tokens import token_issue_once

from . import services
from .errors import PlayerError
from .models import Channel, OperatorLimit, Person, Player

ACTOR = "system:seed_demo"
REGISTRY = "Demo exclusion register"

PEOPLE = [
    # key, first, last, birth date, individual number, e-mail
    ("aino", "Aino", "Virtanen", dt.date(1988, 3, 14), 901, "aino.virtanen@example.invalid"),
    ("mikko", "Mikko", "Korhonen", dt.date(1999, 11, 2), 902, "mikko.korhonen@example.invalid"),
    ("liisa", "Liisa", "Nieminen", dt.date(1975, 6, 30), 903, "liisa.nieminen@example.invalid"),
    ("jari", "Jari", "Mäkelä", dt.date(1969, 1, 20), 904, "jari.makela@example.invalid"),
]


def _register(first, last, birth, individual, email, channel) -> tuple[Player, str, bool]:
    hetu = finnish_id(birth, individual)
    existing = (
        Person.objects.filter(national_id_hash=identifier_hash(hetu, "FI")).select_related("player").first()
    )
    if existing is not None:
        return existing.player, hetu, False
    player = services.player_register(
        actor=ACTOR,
        channel=channel,
        first_name=first,
        last_name=last,
        birth_date=birth,
        national_id=hetu,
        email=email,
        city="Helsinki",
        postal_code="00100",
        street_address="Demokatu 1",
    )
    return player, hetu, True


def _import_register(registry: ExclusionRegistry, hetu: str) -> None:
    """Load the demo national register the way staff do: a file staged by one compliance officer and
    applied when a second one approves it (four eyes), so its import history and freshness show."""
    users = get_user_model().objects
    today = timezone.localdate()
    rows = [f"{hetu},FI,{today - dt.timedelta(days=400)},,DEMO-0001"]
    for n, birth in enumerate((dt.date(1980, 5, 5), dt.date(1991, 9, 9), dt.date(1962, 12, 1)), start=2):
        rows.append(f"{finnish_id(birth, 990 + n)},FI,{today - dt.timedelta(days=30 * n)},"
                    f"{today + dt.timedelta(days=365)},DEMO-{n:04d}")
    data = ("identifier,country,starts,ends,external_id\n" + "\n".join(rows) + "\n").encode()
    batch = registry_import_stage(actor=users.get(username="compliance"), registry=registry, data=data,
                                  file_name="demo-national-register.csv", reason="Weekly register extract (demo)")
    approval = Approval.objects.get(target_type="compliance.registryimport", target_id=str(batch.pk),
                                    state=Approval.State.REQUESTED)
    approval_decide(actor=users.get(username="compliance2"), approval=approval, approve=True,
                    note="File checked against the register keeper's checksum (demo)")


def _channel_user():
    """The demo channel `web` and its API user `channel`; returns (channel, a fresh token)."""
    user, created = get_user_model().objects.get_or_create(
        username="channel", defaults={"first_name": "Demo", "last_name": "Channel"}
    )
    if created:
        user.set_unusable_password()  # an integration client signs in with its token only
        user.save()
        audit_record(actor=ACTOR, action="auth.user_created", obj=user, after={"username": user.username})
    staff_set_roles(actor=ACTOR, user=user, roles=[roles.SALES_CHANNEL])
    channel = Channel.objects.filter(user=user).first() or services.channel_create(
        actor=ACTOR, user=user, code="web", name="Demo web shop"
    )
    return channel, token_issue_once(actor=ACTOR, user=user)


def seed(stdout) -> None:
    channel, token = _channel_user()
    for kind, period, cents in (("loss", "day", 500_00), ("loss", "month", 2_000_00)):
        OperatorLimit.objects.get_or_create(
            kind=kind, period=period, defaults={"amount_cents": cents, "note": "demo mandatory limit"}
        )
    registry, _ = ExclusionRegistry.objects.get_or_create(
        name=REGISTRY, defaults={"source": "demo data", "kind": ExclusionRegistry.Kind.NATIONAL}
    )
    now = timezone.now()
    created = []
    for key, first, last, birth, individual, email in PEOPLE:
        player, hetu, new = _register(first, last, birth, individual, email, channel)
        if not new:
            continue
        created.append(f"{first} {last}")
        account = player.account
        if key == "mikko":
            continue
        services.person_verify(actor=ACTOR, person=player.person, method="bank_id")
        if key == "aino":
            start = now - dt.timedelta(minutes=40)
            # The history is dated in the past, in order, so the ledger reads as it happened.
            services.account_deposit(
                actor=ACTOR, account=account, amount_cents=250_00, reference="demo-aino-1",
                now=start - dt.timedelta(minutes=5),
            )
            services.limit_set(actor=ACTOR, player=player, kind="deposit", period="week", amount_cents=300_00)
            session = services.session_start(actor=ACTOR, player=player, now=start)
            services.account_stake(
                actor=ACTOR,
                account=account,
                amount_cents=2_00,
                reference="demo-aino-stake-1",
                session=session,
                game="demo",
                now=start + dt.timedelta(minutes=5),
            )
            services.session_refresh(actor=ACTOR, session=session, now=start + dt.timedelta(minutes=15))
            services.session_answer_reminder(
                actor=ACTOR,
                session=session,
                choice="continue",
                interval_minutes=10,
                now=start + dt.timedelta(minutes=16),
            )
            services.account_prize(
                actor=ACTOR,
                account=account,
                amount_cents=5_00,
                reference="demo-aino-prize-1",
                session=session,
                game="demo",
                now=start + dt.timedelta(minutes=18),
            )
            services.session_end(actor=ACTOR, session=session, now=start + dt.timedelta(minutes=20))
        elif key == "liisa":
            services.account_deposit(
                actor=ACTOR, account=account, amount_cents=40_00, reference="demo-liisa-1"
            )
            services.self_exclusion_start(actor=ACTOR, person=player.person, days=90)
        elif key == "jari":
            services.account_deposit(
                actor=ACTOR, account=account, amount_cents=100_00, reference="demo-jari-1"
            )
            _import_register(registry, hetu)
            try:  # shows a refused attempt (and its significant audit event) on the staff pages
                services.account_deposit(
                    actor=ACTOR, account=account, amount_cents=50_00, reference="demo-jari-2"
                )
            except PlayerError:
                pass
    if created:
        stdout.write(f"Demo players: {', '.join(created)}")
    stdout.write(f"Demo sales channel API user: channel (role {roles.SALES_CHANNEL}), API token "
                 f"{token or '(issued earlier; python manage.py api_token rotate channel --by admin)'}")
