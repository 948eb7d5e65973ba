"""The forms of uploads, imports and archive restores: files checked (sizes, names, a zip's
directory) before anything is stored."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model

from annotator.campaigns.models import Collection
from annotator.transfer import archive, uploads

User = get_user_model()


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


def check_sizes(files, max_file_bytes: int | None = None) -> None:
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
        check_sizes(files, uploads.SUMMARY_MAX_BYTES)
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
        check_sizes(files, uploads.DUCVIEW_MAX_BYTES)
        return files

    def identity_options(self) -> dict[str, str]:
        """The docset, peer and annotator given for every file (annotator.ducview.names)."""
        return {
            key: self.cleaned_data[key].strip()
            for key in ("docset", "peer", "annotator")
            if self.cleaned_data[key].strip()
        }


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
        check_sizes([file])
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
