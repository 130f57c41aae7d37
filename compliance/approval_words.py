"""What compliance's own four-eyes requests are about, in words (compliance.approvals `describe=`):
a register import by its file, rows and state; an early lifting of a ban by the person (name, birth
date), every register entry and ban in force for them and the ban's original reason."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .models import Approval, ExclusionEntry, RegistryImport
from .selectors import entries_in_force, entry_words
from .words import MISSING, Fact, Subject

IMPORT_TITLE = _("Register import to apply")
LIFT_TITLE = _("Early lifting of a ban")
CONTROL_TITLE = _("Change of a controlled setting")
ROLE_GRANT_TITLE = _("Roles to give")


def describe_import(approval: Approval) -> Subject:
    batch = RegistryImport.objects.select_related("registry").filter(pk=approval.target_id).first()
    if batch is None:
        return Subject(title=approval.target_repr)
    return Subject(
        title=f"{batch.registry.name}: {batch.file_name}",
        url=reverse("compliance:registry-import", args=[batch.pk]),
        facts=[
            Fact(_("Register"), batch.registry.name),
            Fact(_("Entries in the file"), str(batch.rows)),
            Fact(_("Entries it replaces"), str(batch.registry.entries.count())),
            Fact(_("State"), str(batch.get_state_display())),
            Fact(_("Uploaded by"), f"{batch.uploaded_by_repr}, {timezone.localtime(batch.uploaded_at):%Y-%m-%d %H:%M}"),
            Fact("SHA-256", batch.sha256),
        ],
    )


def describe_lift(approval: Approval) -> Subject:
    entry = ExclusionEntry.objects.select_related("registry", "decided_by").filter(pk=approval.target_id).first()
    if entry is None:
        return Subject(title=approval.target_repr)
    who = entry.shown_name or gettext("person known by identifier only")
    in_force = entries_in_force(identifier_hash=entry.identifier_hash, name_normalised=entry.name_normalised,
                                birth_date=entry.birth_date)
    decided = entry.decided_by.get_username() if entry.decided_by_id else MISSING
    facts = [
        Fact(_("Person"), who),
        Fact(_("Birth date"), entry.birth_date.isoformat() if entry.birth_date else MISSING),
        Fact(_("Ban"), entry_words(entry)),
        Fact(_("Original reason"), entry.reason or MISSING),
        Fact(_("Banned by"), decided),
        Fact(_("Registers and bans in force"), [entry_words(e) for e in in_force]),
    ]
    return Subject(title=f"{who}: {entry.registry.name}", url=reverse("compliance:registries") + f"#entry-{entry.pk}",
                   facts=facts)


def describe_control(approval: Approval) -> Subject:
    from .words import key_words, object_type_words, value_words

    p = approval.payload or {}
    before = p.get("before") or {}
    changes = [f"{key_words(k)}: {value_words(k, before.get(k))} → {value_words(k, v)}"
               for k, v in (p.get("changes") or {}).items()]
    return Subject(
        title=approval.target_repr or object_type_words(p.get("model", "")),
        facts=[Fact(_("Object type"), object_type_words(p.get("model", ""))),
               Fact(_("Operation"), {"update": gettext("change"), "create": gettext("create"),
                                     "delete": gettext("delete")}.get(p.get("operation", ""), p.get("operation", ""))),
               Fact(_("Changes"), changes)],
    )


def describe_role_grant(approval: Approval) -> Subject:
    from django.contrib.auth import get_user_model

    role_words = gettext  # a role's name in the active language, where the catalogue has it

    user = get_user_model().objects.filter(pk=approval.target_id).first()
    if user is None:
        return Subject(title=approval.target_repr)
    full = user.get_full_name().strip()
    return Subject(
        title=f"{full} ({user.get_username()})" if full else user.get_username(),
        facts=[Fact(_("Roles to give"), [role_words(r) for r in (approval.payload or {}).get("roles", [])]),
               Fact(_("Roles now"), [role_words(r) for r in user.groups.order_by("name").values_list("name", flat=True)])],
        reason=gettext("Give %(user)s more roles") % {"user": user.get_username()},
    )
