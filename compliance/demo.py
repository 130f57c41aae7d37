"""Demo data for `manage.py seed_demo`: the registry of the apps' demo seeders, the demo staff (one
user per role, same password) and compliance's own demo registers. Everything is idempotent."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from . import roles
from .audit import audit_record
from .models import ExclusionEntry, ExclusionRegistry
from .registry_services import ban_add
from .services import staff_set_roles
from .tokens import token_issue_once


@dataclass(frozen=True)
class DemoSeeder:
    app_label: str
    seed: Callable[[Any], None]  # seed(stdout): makes what is missing, says what it made
    after: tuple[str, ...] = ()  # apps whose demo data this one needs


SEEDERS: dict[str, DemoSeeder] = {}


def register_demo(app_label: str, seed: Callable[[Any], None], *, after: tuple[str, ...] = ()) -> None:
    """Offer an app's demo data to `seed_demo` (from its AppConfig.ready())."""
    SEEDERS[app_label] = DemoSeeder(app_label, seed, tuple(after))


def seeders_in_order() -> list[DemoSeeder]:
    """Every registered seeder after those it names in `after` (ones not registered are ignored),
    otherwise in registration order (the order the apps are installed)."""
    done: list[DemoSeeder] = []
    placed: set[str] = set()
    visiting: set[str] = set()

    def place(seeder: DemoSeeder) -> None:
        if seeder.app_label in placed:
            return
        if seeder.app_label in visiting:
            raise ValueError(f"The demo seeders depend on each other in a circle at {seeder.app_label!r}.")
        visiting.add(seeder.app_label)
        for label in seeder.after:
            if label in SEEDERS:
                place(SEEDERS[label])
        visiting.discard(seeder.app_label)
        placed.add(seeder.app_label)
        done.append(seeder)

    for seeder in SEEDERS.values():
        place(seeder)
    return done


DEMO_USERS = [
    # username, role, full name, is_staff (Django admin)
    ("operator", roles.OPERATOR, "Olli Operaattori", False),
    ("supervisor", roles.DRAW_SUPERVISOR, "Sari Valvoja", False),
    ("supervisor2", roles.DRAW_SUPERVISOR, "Seppo Toinen", False),
    ("compliance", roles.COMPLIANCE_OFFICER, "Kaisa Compliance", False),
    ("compliance2", roles.COMPLIANCE_OFFICER, "Kalle Toinen", False),
    ("auditor", roles.AUDITOR, "Aino Auditor", False),
    ("admin", roles.ADMINISTRATOR, "Antti Admin", True),
    ("casino", roles.CASINO_MANAGER, "Kari Kasino", False),
    ("inspector", roles.CASINO_INSPECTOR, "Inka Tarkastaja", False),
]


@transaction.atomic
def seed_staff(password: str) -> list[dict]:
    actor = "system:seed_demo"
    roles.sync_roles()
    User = get_user_model()
    out = []
    for username, role, full_name, is_staff in DEMO_USERS:
        first, last = full_name.split(" ", 1)
        user, created = User.objects.get_or_create(
            username=username, defaults={"first_name": first, "last_name": last, "is_staff": is_staff}
        )
        if created:
            user.set_password(password)
            user.save()
            audit_record(actor=actor, action="auth.user_created", obj=user, after={"username": username})
        staff_set_roles(actor=actor, user=user, roles=[role])
        token = token_issue_once(actor=actor, user=user)
        out.append({"username": username, "role": role, "created": created, "token": token})
    return out


# Staff-kept registers besides the national one that players.demo creates (docs/compliance.md).
DEMO_REGISTRIES = [
    ("Operator bans", "the operator", "operator", ""),
    ("Insiders", "the operator (staff and other insiders)", "insider", ""),
    ("Restricted persons (UA)", "State register of persons restricted from gambling (UA)", "restricted", "UA"),
]


def seed(stdout) -> None:
    """The staff-kept registers and one operator ban, decided by the demo compliance officer."""
    registries = {}
    for name, source, kind, jurisdiction in DEMO_REGISTRIES:
        registries[kind], _ = ExclusionRegistry.objects.get_or_create(
            name=name, defaults={"source": source, "kind": kind, "jurisdiction": jurisdiction}
        )
    if not ExclusionEntry.objects.filter(registry=registries["operator"]).exists():
        officer = get_user_model().objects.get(username="compliance")
        ban_add(actor=officer, registry=registries["operator"], reason="Abusive behaviour towards staff",
                first_name="Pekka", last_name="Kielletty", birth_date=dt.date(1977, 7, 7),
                ends_at=timezone.now() + dt.timedelta(days=180))
        stdout.write("Compliance: demo registers and one operator ban")
