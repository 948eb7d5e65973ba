"""The form of the judging assignment page (annotator.coverage.views.judging.judging_assign)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from annotator.campaigns.models import Collection
from annotator.coverage.judging import short_method
from annotator.coverage.models import UnitSet

User = get_user_model()


class UnitSetChoiceField(forms.ModelMultipleChoiceField):
    """A unit set labelled with its docset and method in a word: "D0601: SEE model A (SEE)"."""

    def label_from_instance(self, obj: UnitSet) -> str:
        return f"{obj.docset.name}: {obj.name} ({short_method(obj.method)})"


class JudgingAssignForm(forms.Form):
    unit_sets = UnitSetChoiceField(
        queryset=UnitSet.objects.none(),
        required=False,
        label="Unit sets",
        widget=forms.SelectMultiple(attrs={"size": 8}),
        help_text="The unit sets whose docsets' peers are judged.",
    )
    method = forms.ChoiceField(
        choices=[("", "Only the unit sets chosen above"), *UnitSet.Method.choices],
        required=False,
        label="Or every unit set of a method",
        help_text="Every unit set of the collection judged by this method (the list above aside).",
    )
    per_peer = forms.IntegerField(
        min_value=1,
        max_value=50,
        initial=1,
        label="Judges per peer",
        help_text="Each peer goes to this many of the judges, in turn (round robin).",
    )
    judges = forms.ModelMultipleChoiceField(
        queryset=User.objects.none(), widget=forms.SelectMultiple(attrs={"size": 8})
    )

    def __init__(self, *args, collection: Collection, **kwargs):
        super().__init__(*args, **kwargs)
        self.collection = collection
        unit_sets = self.fields["unit_sets"]
        judges = self.fields["judges"]
        assert isinstance(unit_sets, UnitSetChoiceField)
        assert isinstance(judges, forms.ModelMultipleChoiceField)
        unit_sets.queryset = (
            UnitSet.objects.filter(docset__collection=collection)
            .select_related("docset")
            .order_by("docset__name", "name")
        )
        # Any active user may be given work: they become an annotator of the collection.
        judges.queryset = User.objects.filter(is_active=True).order_by("username")

    def clean(self):
        data = super().clean()
        if not data.get("unit_sets") and not data.get("method"):
            raise forms.ValidationError("Choose unit sets, or a method for all of them.")
        return data

    def chosen_unit_sets(self) -> list[UnitSet]:
        """The unit sets chosen, or every unit set of the method chosen (docset order)."""
        data = self.cleaned_data
        if data.get("method"):
            return list(
                UnitSet.objects.filter(docset__collection=self.collection, method=data["method"])
                .select_related("docset")
                .order_by("docset__name", "name")
            )
        return list(data["unit_sets"])
