"""The upload page's form for unit sets (annotator.transfer.views.imports.units_import): the same
checks of names and sizes as the other uploads (annotator.transfer.forms)."""

from __future__ import annotations

from django import forms

from annotator.coverage.importing import DEFAULT_UNIT_SET
from annotator.transfer import uploads
from annotator.transfer.forms import MultipleFileField, check_sizes

FORMAT_CHOICES = [
    ("realsumm", "REALSumm: SCUs_list.csv and crowd batch CSVs"),
    ("lite-pyramid", "Lite²/Lite³Pyramid: ids.txt, SCUs.txt, summaries/, labels/"),
]
SUFFIXES = (".csv", ".txt", ".summary", ".label", ".zip")


class UnitsImportForm(forms.Form):
    format = forms.ChoiceField(choices=FORMAT_CHOICES, widget=forms.RadioSelect)
    files = MultipleFileField(  # type: ignore[assignment]  # as the other upload forms
        label="Files",
        help_text="REALSumm: SCUs_list.csv and the batch CSVs (choose them together), or a .zip. "
        "Lite Pyramid: a .zip of the folder, or its files (ids.txt, SCUs.txt, *.summary, "
        "*.label).",
    )
    unit_set = forms.CharField(
        required=False,
        max_length=200,
        label="Unit set name",
        help_text=f'Default: "{DEFAULT_UNIT_SET["realsumm"]}" or '
        f'"{DEFAULT_UNIT_SET["lite-pyramid"]}".',
    )

    def clean_files(self):
        files = self.cleaned_data["files"]
        wrong = [f.name for f in files if not f.name.lower().endswith(SUFFIXES)]
        if wrong:
            raise forms.ValidationError(
                f"{', '.join(wrong)}: expected .csv, .txt, .summary or .label files, or a .zip."
            )
        if len(files) > 1 and any(f.name.lower().endswith(".zip") for f in files):
            raise forms.ValidationError("Upload one zip, or several files, not both.")
        check_sizes(files, uploads.DUCVIEW_MAX_BYTES)
        return files

    def options(self) -> dict[str, str]:
        return {
            "format": self.cleaned_data["format"],
            "unit_set": self.cleaned_data["unit_set"].strip(),
        }
