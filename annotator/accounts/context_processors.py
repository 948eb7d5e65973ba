"""What every page's navigation needs to know about the user's roles."""

from annotator.campaigns.access import is_site_administrator, visible_collections


def roles(request):
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated):
        return {}
    return {
        "site_administrator": is_site_administrator(user),
        # Lazy: evaluated only where a template asks.
        "has_collections": lambda: visible_collections(user).exists(),
    }
