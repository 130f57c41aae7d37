"""The staff navigation registry: each app registers its task pages, each shown to the users holding
the permission its view requires. config.navigation composes the header and the dashboard from it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NavEntry:
    url_name: str
    label: object  # a lazy translation
    permission: str  # "app_label.codename", or "staff" for the Django admin

    def allows(self, user) -> bool:
        return user.is_staff if self.permission == "staff" else user.has_perm(self.permission)


# app label -> its entries, in registration order.
ENTRIES: dict[str, list[NavEntry]] = {}


def register_navigation(app_label: str, entries: list[NavEntry]) -> None:
    """Declare an app's pages (from its AppConfig.ready()); registering again replaces them."""
    ENTRIES[app_label] = list(entries)
