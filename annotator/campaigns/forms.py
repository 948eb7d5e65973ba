"""The administration pages' forms: what an administrator types, checked before anything is
stored."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from annotator.campaigns import assignments, summaries
from annotator.campaigns.models import Assignment, Collection, Docset, Membership, Role, Summary
from annotator.pyramids.models import Pyramid

User = get_user_model()


class CollectionForm(forms.ModelForm):
    class Meta:
        model = Collection
        fields = ["name", "description", "weight_convention", "average_rounding"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}


class DocsetForm(forms.ModelForm):
    class Meta:
        model = Docset
        fields = ["name", "title"]

    def __init__(self, *args, collection: Collection, **kwargs):
        super().__init__(*args, **kwargs)
        self.collection = collection

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if self.collection.docsets.filter(name=name).exists():
            raise forms.ValidationError(f"{self.collection.name} already has a docset {name}.")
        return name

    def save(self, commit=True):
        self.instance.collection = self.collection
        return super().save(commit)


class SummaryForm(forms.ModelForm):
    """A summary pasted in."""

    class Meta:
        model = Summary
        fields = ["kind", "author", "name", "text"]
        widgets = {"text": forms.Textarea(attrs={"rows": 12})}

    def __init__(self, *args, docset: Docset, **kwargs):
        super().__init__(*args, **kwargs)
        self.docset = docset

    # What is stored, and what is refused, is annotator.campaigns.summaries' (as for the API):
    # the form says it field by field; the view stores through summaries.create_summary.
    def clean_text(self):
        try:
            return summaries.clean_text(self.cleaned_data["text"])
        except summaries.SummaryRefused as refused:
            raise forms.ValidationError(refused.message) from None

    def clean(self):
        data = super().clean()
        if data.get("kind") and data.get("author"):
            data["author"] = summaries.clean_author(data["kind"], data["author"])
            try:
                summaries.check_new(self.docset, data["kind"], data["author"])
            except summaries.SummaryRefused as refused:
                raise forms.ValidationError(refused.message) from None
        return data


class MemberForm(forms.Form):
    user = forms.ModelChoiceField(
        queryset=User.objects.filter(is_active=True).order_by("username"), to_field_name="username"
    )
    role = forms.ChoiceField(choices=Role.choices)

    def __init__(self, *args, collection: Collection, **kwargs):
        super().__init__(*args, **kwargs)
        self.collection = collection

    def clean(self):
        data = super().clean()
        if (
            data.get("user")
            and Membership.objects.filter(
                collection=self.collection, user=data["user"], role=data.get("role")
            ).exists()
        ):
            raise forms.ValidationError(
                f"{data['user'].username} is already {data['role']} of {self.collection.name}."
            )
        return data


class PyramidChoiceField(forms.ModelChoiceField):
    """A pyramid labelled with its docset's name: "<docset>: <pyramid>"."""

    def label_from_instance(self, obj: Pyramid) -> str:
        return f"{obj.docset.name}: {obj.name}"


class AssignForm(forms.Form):
    task = forms.ChoiceField(
        choices=Assignment.Task.choices,
        widget=forms.RadioSelect,
        initial=Assignment.Task.ANNOTATE_PEER,
    )
    docsets = forms.ModelMultipleChoiceField(
        queryset=Docset.objects.none(), widget=forms.SelectMultiple(attrs={"size": 8})
    )
    annotators = forms.ModelMultipleChoiceField(
        queryset=User.objects.none(), widget=forms.SelectMultiple(attrs={"size": 8})
    )
    mode = forms.ChoiceField(
        choices=[
            (assignments.EVERY_ANNOTATOR, "Every annotator gets each docset (agreement studies)"),
            (assignments.ROUND_ROBIN, "Round robin: the work is shared out in turn"),
        ],
        initial=assignments.EVERY_ANNOTATOR,
        widget=forms.RadioSelect,
    )
    pyramid = PyramidChoiceField(
        queryset=Pyramid.objects.none(),
        required=False,
        help_text=(
            "For peer annotation: the pyramid to annotate against. Leave empty for each docset's "
            "latest submitted pyramid."
        ),
    )

    def __init__(self, *args, collection: Collection, **kwargs):
        super().__init__(*args, **kwargs)
        self.collection = collection
        # The fields declared above, typed as what they are (self.fields holds them as Field).
        docsets = self.fields["docsets"]
        annotators = self.fields["annotators"]
        pyramid = self.fields["pyramid"]
        assert isinstance(docsets, forms.ModelMultipleChoiceField)
        assert isinstance(annotators, forms.ModelMultipleChoiceField)
        assert isinstance(pyramid, PyramidChoiceField)
        docsets.queryset = collection.docsets.order_by("name")
        # Any active user may be given work: they become an annotator of the collection.
        annotators.queryset = User.objects.filter(is_active=True).order_by("username")
        pyramid.queryset = (
            Pyramid.objects.filter(docset__collection=collection, status=Pyramid.Status.SUBMITTED)
            .select_related("docset")
            .order_by("docset__name", "name")
        )
        # The rules of the work given (a chosen pyramid for its own docset only, ...) are the
        # service's, as for the API: annotator.campaigns.assignments.assign.


class ReassignForm(forms.Form):
    to = forms.ModelChoiceField(
        queryset=User.objects.filter(is_active=True).order_by("username"),
        to_field_name="username",
        label="Reassign to",
    )
