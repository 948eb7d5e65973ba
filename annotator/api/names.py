"""The names DRF gives the API's pages (the browsable API's headings and breadcrumbs, the `name` of
an OPTIONS answer), from the records' own names: "SCUs" and "SCU", "PSEs", "Peer annotations", "API
root". DRF's own come from the class names (SCUViewSet: "Scu List", PSEViewSet: "Pse Instance",
"Api Root"), which spelled the method's abbreviations as words (issue 17)."""

from django.utils.text import capfirst
from rest_framework.views import get_view_name as drf_view_name


def view_name(view) -> str:
    if getattr(view, "name", None) is not None:  # an action's own name ("Withdraw"), or one given
        return view.name
    suffix, model = getattr(view, "suffix", None), _model(view)
    if model is not None and suffix in ("List", "Instance"):
        names = model._meta
        return capfirst(names.verbose_name_plural if suffix == "List" else names.verbose_name)
    return drf_view_name(view).replace("Api ", "API ")


def _model(view):
    """The model a view serves: its queryset's, or its serializer's (most views filter in
    get_queryset)."""
    queryset = getattr(view, "queryset", None)
    if queryset is not None:
        return queryset.model
    meta = getattr(getattr(view, "serializer_class", None), "Meta", None)
    return getattr(meta, "model", None)
