"""What every page's navigation needs to know about the user's roles."""

from annotator.campaigns.access import is_site_administrator, visible_collections


def roles(request):
    user = getattr(request, "user", None)
    if not (user and user.is_authenticated):
        return {}
    # Lazy: evaluated only where a template asks (a page's navigation does, an edit's answer does
    # not: two queries of permissions per action, issue 32).
    return {
        "site_administrator": lambda: is_site_administrator(user),
        "has_collections": lambda: visible_collections(user).exists(),
    }
