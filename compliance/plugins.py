"""The one call with which an app plugs into compliance from its AppConfig.ready() (DESIGN §1):
what each role gets of its permissions, its pages, its report kinds, its demo data and its work
queues. Each goes to its registry (compliance.roles, compliance.navigation, compliance.reports.kinds,
compliance.demo, compliance.queues);
compliance imports no app, the apps tell it about themselves."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .demo import register_demo
from .navigation import NavEntry, register_navigation
from .queues import WorkQueue, register_approval_phrases, register_queues
from .reports.kinds import ReportKind, register_kind
from .roles import register_grants


def register_app(
    app_label: str,
    *,
    grants: dict[str, list[str]],
    navigation: Iterable[NavEntry] = (),
    report_kinds: Iterable[ReportKind] = (),
    demo: Callable[[Any], None] | None = None,
    demo_after: tuple[str, ...] = (),
    queues: Iterable[WorkQueue] = (),
    approval_phrases: dict[str, Callable[[list], dict[int, str]]] | None = None,
) -> None:
    """`grants`: role -> the app's own permissions it gets ({} for none: the app's tables still count
    for the Auditor and the Administrator). `navigation`: the app's task pages. `report_kinds`: offered
    on the reports page. `demo`: seed(stdout) for `seed_demo`, run after the apps in `demo_after`. `queues`: what waits for a person, on their
    dashboard and counted in the navigation (compliance.queues). `approval_phrases`: approval kind ->
    phrases(approvals) -> {pk: sentence}, how the dashboard says the app's four-eyes requests."""
    register_grants(app_label, grants)
    register_navigation(app_label, list(navigation))
    for kind in report_kinds:
        register_kind(kind)
    if demo is not None:
        register_demo(app_label, demo, after=demo_after)
    register_queues(app_label, queues)
    for kind, phrases in (approval_phrases or {}).items():
        register_approval_phrases(kind, phrases)
