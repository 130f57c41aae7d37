"""Demo staff for `manage.py seed_demo`: one user per role, same password, idempotent."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from . import roles
from .audit import audit_record
from .services import staff_set_roles
from .tokens import token_issue_once

DEMO_USERS = [
    # username, role, full name, is_staff (Django admin)
    ("operator", roles.OPERATOR, "Olli Operaattori", False),
    ("supervisor", roles.DRAW_SUPERVISOR, "Sari Valvoja", False),
    ("supervisor2", roles.DRAW_SUPERVISOR, "Seppo Toinen", False),
    ("compliance", roles.COMPLIANCE_OFFICER, "Kaisa Compliance", False),
    ("compliance2", roles.COMPLIANCE_OFFICER, "Kalle Toinen", False),
    ("auditor", roles.AUDITOR, "Aino Auditor", False),
    ("admin", roles.ADMINISTRATOR, "Antti Admin", True),
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
    import datetime as dt

    from django.utils import timezone

    from .models import ExclusionEntry, ExclusionRegistry
    from .registry_services import ban_add

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
