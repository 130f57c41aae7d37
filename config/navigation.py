"""The staff navigation: the project's own pages around the pages each app registers
(compliance.navigation), shown to the users holding each page's permission.

The apps declare their pages; the project decides the order of the header's sections.
"""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from compliance.navigation import ENTRIES, NavEntry

FIRST = [NavEntry("dashboard", _("Dashboard"), "compliance.access_backoffice")]
# The apps' sections in the header, the workflows first and the control tools last; an app not
# listed comes after these, in the order the apps are installed.
SECTIONS = ("lottery", "casino", "players", "compliance")
LAST = [NavEntry("api-docs", _("API"), "compliance.use_api"), NavEntry("admin:index", _("Admin"), "staff")]
# An app with more than one page shows as one menu in the header under this name (a <details> menu:
# it opens without JavaScript and from the keyboard), so the header stays on one line at 1024 px.
SECTION_LABELS = {"lottery": _("Lottery"), "casino": _("Casino"), "players": _("Players"),
                  "compliance": _("Compliance")}


def _sections() -> list[tuple[str, list[NavEntry]]]:
    order = [app for app in SECTIONS if app in ENTRIES] + [app for app in ENTRIES if app not in SECTIONS]
    return [(entry.url_name, [entry]) for entry in FIRST] + [(app, ENTRIES[app]) for app in order] + [
        (entry.url_name, [entry]) for entry in LAST]


def navigation() -> list[NavEntry]:
    return [entry for _section, entries in _sections() for entry in entries]


def entries_for(user, counts: dict[str, int] | None = None) -> list[dict]:
    """The entries the user may open; `counts` (url name -> what waits there for the user, from
    compliance.queues) puts a counter beside an entry: "Approvals (1)"."""
    if not user.is_authenticated:
        return []
    counts = counts or {}
    return [{"url_name": e.url_name, "url": reverse(e.url_name), "label": e.label, "section": section,
             "count": counts.get(e.url_name, 0)}
            for section, entries in _sections() for e in entries if e.allows(user)]


def groups_for(user, path: str = "", counts: dict[str, int] | None = None) -> list[dict]:
    """The header: one link per section the user sees one page of, one menu per section with more
    (`label` the section's name, `items` its pages, `active` when the current page is one of them,
    `count` what waits for the user on its pages)."""
    groups: list[dict] = []
    for item in entries_for(user, counts):
        if groups and groups[-1]["section"] == item["section"]:
            groups[-1]["items"].append(item)
        else:
            groups.append({"section": item["section"], "items": [item],
                           "label": SECTION_LABELS.get(item["section"], item["label"])})
    for group in groups:
        group["active"] = any(path == item["url"] for item in group["items"])
        group["count"] = sum(item["count"] for item in group["items"])
    return groups
