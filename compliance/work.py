"""Compliance's own work queues (compliance.queues): the four-eyes requests a person may decide, their
own requests still waiting (which they may withdraw), and background jobs that failed; and the
dashboard's phrases for compliance's approval kinds (registry imports, early ban lifting, control
changes, role grants)."""

from __future__ import annotations

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .approvals import approval_link, decidable_approvals, own_pending_approvals
from .jobs import kind_label, may_retry
from .models import Approval, ExclusionEntry, Job, RegistryImport
from .queues import APPROVAL_PHRASES, QueueItem, WorkQueue


def _phrases(approvals: list[Approval], *, own: bool) -> dict[int, str]:
    """Each request in a sentence: its kind's registered phrases, else what it is about."""
    by_kind: dict[str, list[Approval]] = {}
    for a in approvals:
        by_kind.setdefault(a.kind, []).append(a)
    out: dict[int, str] = {}
    for kind, group in by_kind.items():
        phrases = APPROVAL_PHRASES.get(kind)
        said = phrases(group) if phrases is not None else {}
        for a in group:
            what = said.get(a.pk) or a.target_repr or gettext("a request")
            if own:
                out[a.pk] = gettext("Your request awaits another person's decision: %(what)s") % {"what": what}
            else:
                out[a.pk] = gettext("%(what)s (asked by %(who)s)") % {"what": what, "who": a.requester}
    return out


def approval_sentence(approval: Approval) -> str:
    """What one request is about, in a sentence (its kind's phrase, else its object)."""
    phrases = APPROVAL_PHRASES.get(approval.kind)
    said = phrases([approval]) if phrases is not None else {}
    return said.get(approval.pk) or approval.target_repr or gettext("a request")


def approvals_to_decide(user) -> list[QueueItem]:
    pending = decidable_approvals(user)
    said = _phrases(pending, own=False)
    page = reverse("compliance:approvals")
    return [QueueItem(text=said[a.pk], url=approval_link(a) or f"{page}#approval-{a.pk}", key=f"approval-{a.pk}")
            for a in pending]


def my_requests(user) -> list[QueueItem]:
    mine = own_pending_approvals(user)
    said = _phrases(mine, own=True)
    return [QueueItem(text=said[a.pk], url=approval_link(a), key=f"my-approval-{a.pk}",
                      action_url=reverse("compliance:approval-withdraw", args=[a.pk]),
                      action_label=_("Withdraw my request"))
            for a in mine]


def failed_jobs(user) -> list[QueueItem]:
    """Jobs that failed and were not run again since (no newer job of the same key), which this user
    may send again (the kind's retry permission)."""
    newer = Job.objects.filter(key=OuterRef("key"), pk__gt=OuterRef("pk"))
    jobs = Job.objects.filter(state=Job.State.FAILED).exclude(Exists(newer)).order_by("-finished_at", "-pk")[:100]
    page = reverse("compliance:jobs")
    return [QueueItem(text=gettext("%(job)s failed; send it again") % {"job": kind_label(job.kind)},
                      url=f"{page}#job-{job.pk}", key=f"job-{job.pk}")
            for job in jobs if may_retry(user, job)]


# -- phrases of compliance's approval kinds ---------------------------------------------------------------

def _targets(model, approvals: list[Approval], *related: str) -> dict[str, object]:
    ids = [a.target_id for a in approvals if a.target_id]
    return {str(o.pk): o for o in model.objects.filter(pk__in=ids).select_related(*related)}


def import_phrases(approvals: list[Approval]) -> dict[int, str]:
    imports = _targets(RegistryImport, approvals, "registry")
    out = {}
    for a in approvals:
        batch = imports.get(a.target_id)
        if batch is not None:
            out[a.pk] = gettext("The import of %(file)s into %(registry)s (%(rows)s rows) awaits approval") % {
                "file": batch.file_name, "registry": batch.registry.name, "rows": batch.rows}
    return out


def lift_phrases(approvals: list[Approval]) -> dict[int, str]:
    entries = _targets(ExclusionEntry, approvals, "registry")
    out = {}
    for a in approvals:
        entry = entries.get(a.target_id)
        if entry is not None:
            out[a.pk] = gettext("Lifting a ban of %(registry)s early awaits approval") % {"registry": entry.registry.name}
    return out


def control_phrases(approvals: list[Approval]) -> dict[int, str]:
    out = {}
    for a in approvals:
        try:
            model = apps.get_model(a.payload.get("model", ""))
        except (LookupError, ValueError):
            continue
        out[a.pk] = gettext("A change of %(what)s awaits approval") % {"what": model._meta.verbose_name}
    return out


def role_phrases(approvals: list[Approval]) -> dict[int, str]:
    users = _targets(get_user_model(), approvals)
    out = {}
    for a in approvals:
        user = users.get(a.target_id)
        if user is not None:
            out[a.pk] = gettext("Giving %(user)s the roles %(roles)s awaits approval") % {
                "user": user.get_username(), "roles": ", ".join(gettext(r) for r in a.payload.get("roles", []))}
    return out


QUEUES = [
    WorkQueue(key="compliance.approvals", title=_("Approvals waiting for you"), permission="compliance.decide_approval",
              items=approvals_to_decide, nav="compliance:approvals"),
    WorkQueue(key="compliance.jobs", title=_("Failed jobs"), permission="compliance.view_job", items=failed_jobs,
              nav="compliance:jobs"),
    WorkQueue(key="compliance.my_requests", title=_("Your requests"), permission="compliance.access_backoffice",
              items=my_requests, counted=False),
]
