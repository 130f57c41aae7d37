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


def navigation() -> list[NavEntry]:
    order = [app for app in SECTIONS if app in ENTRIES] + [app for app in ENTRIES if app not in SECTIONS]
    return [*FIRST, *(entry for app in order for entry in ENTRIES[app]), *LAST]


def entries_for(user) -> list[dict]:
    if not user.is_authenticated:
        return []
    return [{"url_name": e.url_name, "url": reverse(e.url_name), "label": e.label}
            for e in navigation() if e.allows(user)]
