"""The work queue registry (issue 18 item 3): what waits for a person now, shown on their dashboard as
sentences with links and counted in the navigation ("Approvals (1)").

Each app registers its queues through `compliance.plugins.register_app(..., queues=[...])`, as it does
its pages and report kinds; compliance imports no app and the dashboard names none. A queue says who
sees it (a permission), which navigation entry its items count towards, and how to find its items for a
user: one function that reads what it needs in a fixed, small number of queries, whatever the number of
items (the dashboard and the header run every queue the user may see on each page).

    WorkQueue(key="lottery.results", title=_("Draws"), permission="lottery.enter_result",
              nav="lottery:draws", items=results_to_enter)

    def results_to_enter(user) -> list[QueueItem]:
        return [QueueItem(text=..., url=...) for draw in ...]

Four-eyes requests are compliance's own queue (`approvals`): the requests the user may decide, never
their own, each said by the phrase its app registers for its kind (`register_approval_phrases`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

#: Items shown per queue on the dashboard; the navigation counts them all.
SHOWN = 25


@dataclass(frozen=True)
class QueueItem:
    """One thing that waits: a sentence in the reader's language and the page where it is done.
    `action_url`/`action_label`: one POST button beside it (e.g. withdraw my request), when given."""

    text: str
    url: str = ""
    action_url: str = ""
    action_label: Any = ""
    key: str = ""  # a stable hook for tests and styles ("approval-12", "draw-1002-result")


@dataclass(frozen=True)
class WorkQueue:
    key: str
    title: Any  # a lazy translation: the heading on the dashboard
    permission: str  # who sees this queue at all ("app_label.codename")
    items: Callable[[Any], list[QueueItem]]  # items(user), in a fixed number of queries
    nav: str = ""  # the navigation entry (url name) whose counter counts these items
    counted: bool = True  # False: shown on the dashboard, not counted (e.g. my own requests)


# app label -> its queues, in registration order.
QUEUES: dict[str, list[WorkQueue]] = {}
# approval kind -> phrases(approvals) -> {approval pk: sentence}, registered by the kind's app.
APPROVAL_PHRASES: dict[str, Callable[[list], dict[int, str]]] = {}


def register_queues(app_label: str, queues: Iterable[WorkQueue]) -> None:
    """Declare an app's queues (from its AppConfig.ready()); registering again replaces them."""
    QUEUES[app_label] = list(queues)


def register_approval_phrases(kind: str, phrases: Callable[[list], dict[int, str]]) -> None:
    """How an app says its four-eyes requests on the dashboard: `phrases(approvals)` -> {pk: sentence}
    ("The result of Lotto #1002 awaits your confirmation."), reading what it needs in one query for the
    whole list."""
    APPROVAL_PHRASES[kind] = phrases


@dataclass
class Work:
    """What waits for one user: the queues they may see with their items, and the counts per
    navigation entry."""

    queues: list[dict] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(len(q["items"]) for q in self.queues if q["counted"])


def work_for(user, order: Iterable[str] | None = None) -> Work:
    """Every queue the user may see, in the order of the apps (`order`: app labels first, as the header
    orders its sections; the others after them)."""
    work = Work()
    if not getattr(user, "is_authenticated", False):
        return work
    labels = list(QUEUES)
    if order is not None:
        first = [label for label in order if label in QUEUES]
        labels = first + [label for label in labels if label not in first]
    for label in labels:
        for queue in QUEUES[label]:
            if not user.has_perm(queue.permission):
                continue
            items = list(queue.items(user))
            if queue.nav and queue.counted:
                work.counts[queue.nav] = work.counts.get(queue.nav, 0) + len(items)
            if items:
                work.queues.append({"key": queue.key, "title": queue.title, "items": items[:SHOWN],
                                    "more": max(0, len(items) - SHOWN), "counted": queue.counted})
    return work


def request_work(request, order: Iterable[str] | None = None) -> Work:
    """`work_for(request.user)`, computed once per request (the header and the dashboard share it)."""
    work = getattr(request, "_valvoja_work", None)
    if work is None:
        work = work_for(request.user, order)
        request._valvoja_work = work
    return work
