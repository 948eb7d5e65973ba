"""The administration pages' forms: what an administrator types, checked before anything is
stored."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import Group

from annotator.campaigns import assignments, summaries
from annotator.campaigns.models import Assignment, Collection, Docset, Membership, Role, Summary
from annotator.pyramids.models import Pyramid
from annotator.transfer import archive, uploads

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


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files from one <input type=file multiple> (Django's documented recipe)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        return (
            [single(d, initial) for d in data]
            if isinstance(data, (list, tuple))
            else [single(data, initial)]
        )


def _check_sizes(files, max_file_bytes: int | None = None) -> None:
    """Refused before anything is stored: an upload over MAX_UPLOAD_MB, a file over the per-file
    limit, a zip whose directory says it breaks a limit
    (annotator.transfer.uploads.check_before_storing)."""
    limit = settings.MAX_UPLOAD_BYTES
    too_big = [f"{f.name}: {f.size:,} bytes" for f in files if f.size > limit]
    if too_big or sum(f.size for f in files) > limit:
        raise forms.ValidationError(
            f"An upload may hold at most {limit // (1024 * 1024)} MB; "
            + ("; ".join(too_big) or "these files together are larger")
        )
    if max_file_bytes is None:
        # One file checked as a whole (a collection archive: annotator.transfer.archive checks its
        # inside).
        return
    try:
        uploads.check_before_storing(files, max_file_bytes, limit)
    except uploads.UploadRefused as refused:
        raise forms.ValidationError(refused.problems) from None


# The upload field is named `files` (the name the pages, the API and its error keys use). Django's
# form metaclass moves declared fields into `base_fields`, so a form's `files` attribute stays
# BaseForm's uploaded files at run time; the stubs only see the class attribute clashing with it.
class SummaryUploadForm(forms.Form):
    files = MultipleFileField(  # type: ignore[assignment]  # the field named `files`: see above
        help_text=".txt files, or one .zip of them, named as shown below."
    )

    def clean_files(self):
        files = self.cleaned_data["files"]
        if len(files) > 1 and any(f.name.lower().endswith(".zip") for f in files):
            raise forms.ValidationError("Upload one zip, or several .txt files, not both.")
        _check_sizes(files, uploads.SUMMARY_MAX_BYTES)
        return files


class DucviewImportForm(forms.Form):
    files = MultipleFileField(  # type: ignore[assignment]  # the field named `files`: see above
        label="Files",
        help_text=".pyr and .pan files (choose as many as you like), or one .zip of them.",
    )
    docset = forms.CharField(
        required=False, help_text="Docset of every file, if their names do not say it."
    )
    peer = forms.CharField(
        required=False, help_text="Peer of every .pan, if their names do not say it."
    )
    annotator = forms.CharField(
        required=False, help_text="Annotator id of every .pan, if their names do not say it."
    )

    def clean_files(self):
        files = self.cleaned_data["files"]
        wrong = [f.name for f in files if not f.name.lower().endswith((".pyr", ".pan", ".zip"))]
        if wrong:
            raise forms.ValidationError(
                f"{', '.join(wrong)}: expected .pyr or .pan files, or a .zip of them."
            )
        if len(files) > 1 and any(f.name.lower().endswith(".zip") for f in files):
            raise forms.ValidationError("Upload one zip, or several .pyr and .pan files, not both.")
        _check_sizes(files, uploads.DUCVIEW_MAX_BYTES)
        return files

    def identity_options(self) -> dict[str, str]:
        """The docset, peer and annotator given for every file (annotator.ducview.names)."""
        return {
            key: self.cleaned_data[key].strip()
            for key in ("docset", "peer", "annotator")
            if self.cleaned_data[key].strip()
        }


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


SITE_ROLES = [
    ("", "No site-wide role"),
    ("Organizers", "Organizer of every collection"),
    ("Administrators", "Administrator of every collection"),
]


class NewUserForm(UserCreationForm):
    """A new account; its collection roles are given on the collection's members page."""

    email = forms.EmailField(required=False)
    site_role = forms.ChoiceField(choices=SITE_ROLES, required=False)

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "first_name", "last_name", "email")

    def save(self, commit=True):
        user = super().save(commit=False)
        user.is_staff = (
            self.cleaned_data.get("site_role") == "Administrators"
        )  # the Django admin too
        if commit:
            user.save()
            if self.cleaned_data.get("site_role"):
                user.groups.add(Group.objects.get(name=self.cleaned_data["site_role"]))
        return user


class ArchiveRestoreForm(forms.Form):
    """A collection archive (annotator.transfer.archive) to restore as a new collection."""

    file = forms.FileField(
        label="Archive", help_text="A .zip written by Export an archive or export_archive."
    )
    name = forms.CharField(
        required=False,
        max_length=200,
        label="New name",
        help_text="Leave empty to keep the archive's name; a name in use is refused.",
    )

    def clean_file(self):
        file = self.cleaned_data["file"]
        _check_sizes([file])
        if not file.name.lower().endswith(".zip"):
            raise forms.ValidationError(f"{file.name}: expected a collection archive (.zip).")
        return file

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if name and Collection.objects.filter(name=name).exists():
            raise forms.ValidationError(f"A collection named {name} exists already.")
        return name

    def clean(self):
        data = super().clean()
        file = data.get("file")
        if file and "name" in data:
            # What the restore would refuse first (not an archive, a version unknown here, the
            # archive's own name in use) is said now, with the form, rather than by a failed job.
            try:
                archive.check(file, data["name"])
            except archive.ArchiveError as problem:
                self.add_error("name" if "exists already" in str(problem) else "file", str(problem))
            finally:
                file.seek(0)
        return data
