from .navigation import entries_for


def navigation(request):
    user = getattr(request, "user", None)
    if user is None:
        return {"nav_items": []}
    return {
        "nav_items": entries_for(user),
        "nav_roles": sorted(user.groups.values_list("name", flat=True)) if user.is_authenticated else [],
    }
