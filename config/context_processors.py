from compliance.queues import request_work
from compliance.roles import role_label

from .navigation import SECTIONS, entries_for, groups_for


def navigation(request):
    user = getattr(request, "user", None)
    if user is None:
        return {"nav_items": [], "nav_groups": []}
    signed_in = user.is_authenticated
    # What waits for the user (compliance.queues), counted beside the navigation entries; computed once
    # per request and shared with the dashboard.
    counts = request_work(request, SECTIONS).counts if signed_in else {}
    return {
        "nav_items": entries_for(user, counts),
        "nav_groups": groups_for(user, request.path, counts) if signed_in else [],
        "nav_roles": sorted(str(role_label(name)) for name in user.groups.values_list("name", flat=True))
        if signed_in else [],
    }
