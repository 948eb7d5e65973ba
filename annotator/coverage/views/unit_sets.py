"""A docset's unit sets (issue 21): making them (SEE from the models, presence from a pyramid or
written by hand) and editing their units before judging starts.

Who: the collection's readers (administrators, organizers, adjudicators) see a unit set's page;
only its administrators make and edit unit sets (403 for the other readers); anyone who does not
read the collection gets 404, or 403 where they have work in it, as on the docset's page
(annotator.campaigns.guards).

Edits are form posts (they work without JavaScript: a redirect back to the page), sent by htmx
where it runs: the answer is the list of units as it now is, the focus put on the unit edited. A
refused edit answers with the units as they now are and says why: 409 for a stale version,
403 once judging has started, 422 for a broken rule (static/js/unit-set.js lets htmx swap those).
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from annotator.assist import lexical
from annotator.campaigns.access import can_administer, visible_collections
from annotator.campaigns.guards import ADMINISTER, READ, collection_for, docset_for
from annotator.campaigns.models import Summary
from annotator.coverage import splitting, unit_editing, unit_sets
from annotator.coverage.models import Judgment, Unit, UnitSet
from annotator.editing.actions import LARGEST_ID, parse_version, status_for
from annotator.editing.errors import EditError, RuleBroken
from annotator.pyramids.models import Pyramid
from annotator.text.plurals import counted

PAGE = "coverage/unit_set_detail.html"
UNITS = "coverage/_unit_set.html"


# -- the three forms of the "New unit sets" page --------------------------------------------------


class SeeForm(forms.Form):
    models = forms.ModelMultipleChoiceField(
        queryset=Summary.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label="Model summaries",
        help_text='One unit set each, named after the model ("SEE model A"): a peer is judged '
        "against one model, as in SEE.",
    )
    scale = forms.ChoiceField(
        choices=[(s.value, s.label) for s in unit_sets.SEE_SCALES],
        initial=UnitSet.Scale.FIVE_POINT,
        widget=forms.RadioSelect,
        label="Scale",
    )

    def __init__(self, *args, docset, **kwargs):
        super().__init__(*args, prefix="see", **kwargs)
        field = self.fields["models"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = docset.summaries.filter(kind=Summary.Kind.MODEL).order_by("author")
        field.label_from_instance = lambda summary: f"Model {summary.author}"
        self.initial.setdefault("models", list(field.queryset))


class PyramidForm(forms.Form):
    pyramid = forms.ModelChoiceField(
        queryset=Pyramid.objects.none(),
        label="Submitted pyramid",
        help_text="A unit per SCU: its label, with its weight.",
    )
    name = forms.CharField(max_length=200, initial="Presence (SCU labels)", label="Name")

    def __init__(self, *args, docset, **kwargs):
        super().__init__(*args, prefix="pyramid", **kwargs)
        field = self.fields["pyramid"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = docset.pyramids.filter(status=Pyramid.Status.SUBMITTED).order_by("name")
        if field.queryset.count() == 1:  # the usual case: offer it chosen
            self.initial.setdefault("pyramid", field.queryset.get())


class HandForm(forms.Form):
    name = forms.CharField(max_length=200, initial="Presence (written)", label="Name")
    lines = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}),
        label="Units",
        help_text="One short sentence a line.",
        strip=False,
    )
    model = forms.ModelChoiceField(
        queryset=Summary.objects.none(),
        required=False,
        label="Written from (optional)",
        empty_label="No model in particular",
    )

    def __init__(self, *args, docset, **kwargs):
        super().__init__(*args, prefix="hand", **kwargs)
        field = self.fields["model"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = docset.summaries.filter(kind=Summary.Kind.MODEL).order_by("author")
        field.label_from_instance = lambda summary: f"Model {summary.author}"


FORMS = {"see": SeeForm, "pyramid": PyramidForm, "hand": HandForm}


def _make(kind: str, docset, form) -> list[UnitSet]:
    data = form.cleaned_data
    if kind == "see":
        return unit_sets.see_unit_sets(docset, data["models"], data["scale"])
    if kind == "pyramid":
        return [unit_sets.presence_from_pyramid(docset, data["pyramid"], data["name"])]
    return [
        unit_sets.presence_by_hand(
            docset, data["name"], unit_sets.hand_lines(data["lines"]), data["model"]
        )
    ]


@login_required
def unit_set_create(request, pk):
    docset = docset_for(request, pk, ADMINISTER)
    kind = request.POST.get("kind") if request.method == "POST" else None
    if kind is not None and kind not in FORMS:
        raise Http404("no such kind of unit set")
    built = {
        name: form_class(request.POST if name == kind else None, docset=docset)
        for name, form_class in FORMS.items()
    }
    if kind is not None and built[kind].is_valid():
        try:
            made = _make(kind, docset, built[kind])
        except unit_sets.UnitSetError as refused:
            built[kind].add_error(None, refused.message)
        else:
            names = ", ".join(unit_set.name for unit_set in made)
            messages.success(request, f"Made the unit set{'s' if len(made) > 1 else ''} {names}.")
            if len(made) == 1:
                return redirect("unit-set-detail", pk=made[0].pk)
            return redirect(reverse("docset-detail", args=[docset.pk]) + "#unit-sets")
    return render(
        request,
        "coverage/unit_set_create.html",
        {
            "docset": docset,
            "collection": docset.collection,
            "see_form": built["see"],
            "pyramid_form": built["pyramid"],
            "hand_form": built["hand"],
            "failed": kind,
        },
        status=200 if kind is None else 422,
    )


# -- a unit set's page ----------------------------------------------------------------------------


def _unit_set_for(request, pk: int, need: str = READ) -> UnitSet:
    """The unit set `pk` if the user sees its collection (else 404) and has the role `need` in it
    (else 403), as docset_for answers for a docset."""
    unit_set = get_object_or_404(
        UnitSet.objects.filter(
            docset__collection__in=visible_collections(request.user)
        ).select_related("docset__collection", "pyramid"),
        pk=pk,
    )
    collection_for(request, unit_set.docset.collection_id, need)
    return unit_set


@dataclass
class Row:
    """A unit as its page shows it: in its model's sentence(s) (`before`, `marked`, `after`; None
    `marked` for a unit without a span), `edited` when its text is no longer the span's words, the
    places it may be split, and the control of it that takes the focus ("" for none)."""

    unit: Unit
    split_points: list[tuple[int, str]]
    focus: str = ""
    before: str = ""
    marked: str | None = None
    after: str = ""
    edited: bool = False
    kept: str | None = None  # typed, not saved (a refused edit): shown in its box again


def _row(unit: Unit, sentences: dict[int, list[int]], focus: str) -> Row:
    row = Row(unit, splitting.word_starts(unit.text), focus)
    if unit.model is None or unit.start is None or unit.end is None:
        return row
    text = unit.model.text
    bounds = sentences.setdefault(unit.model.pk, lexical.sentence_bounds(text))
    first = max(b for b in bounds if b <= unit.start)
    last = min((b for b in bounds if b >= unit.end and b > first), default=len(text))
    row.before = text[first : unit.start]
    row.marked = text[unit.start : unit.end]
    row.after = text[unit.end : last].rstrip()
    row.edited = row.marked != unit.text
    return row


def _model_texts(units: list[Unit]) -> list[dict[str, object]]:
    """Each model the units were cut from, its text in pieces: plain, or a unit's words marked with
    its number (a part already marked by an earlier unit is not marked twice)."""
    by_model: dict[int, tuple[Summary, list[tuple[int, int, Unit]]]] = {}
    for unit in units:
        if unit.model is not None and unit.start is not None and unit.end is not None:
            cut = by_model.setdefault(unit.model.pk, (unit.model, []))[1]
            cut.append((unit.start, unit.end, unit))
    shown: list[dict[str, object]] = []
    for model, cut in by_model.values():
        pieces: list[dict[str, object]] = []
        at = 0
        for n, (start, end, unit) in enumerate(sorted(cut, key=lambda c: (c[0], c[2].position))):
            start = max(start, at)
            if start >= end:
                continue
            if start > at:
                pieces.append({"text": model.text[at:start]})
            pieces.append({"text": model.text[start:end], "unit": unit, "shade": n % 2})
            at = end
        if at < len(model.text):
            pieces.append({"text": model.text[at:]})
        shown.append({"model": model, "pieces": pieces})
    return shown


def units_context(
    unit_set: UnitSet,
    user,
    message: str = "",
    level: str = "",
    focus: tuple[int | None, str] | None = None,
    kept: tuple[int | None, str] | None = None,
) -> dict:
    """The unit set's page (and its list of units, which edits swap) as it now is. `focus`: the
    unit and the control of it to put the focus on after an edit (None unit: the new unit's text
    box at the end); without it, after a message, the status line takes the focus. `kept`: a text
    the administrator typed that a refused edit did not save, and the unit whose box shows it
    again (None: the box to add a unit), so that Enter sends it again; the focus goes there."""
    units = list(unit_set.units.select_related("model", "scu").order_by("position"))
    judgments = Judgment.objects.filter(unit__unit_set=unit_set).count()
    sentences: dict[int, list[int]] = {}
    rows = []
    for n, unit in enumerate(units):
        control = focus[1] if focus and focus[0] == unit.pk else ""
        # Moved to an end, the unit has no button on that side: the other one takes the focus.
        if control == "move-up" and n == 0:
            control = "move-down"
        elif control == "move-down" and n == len(units) - 1:
            control = "move-up"
        rows.append(_row(unit, sentences, control))
        if kept and kept[0] == unit.pk:
            rows[-1].kept = kept[1]
    administers = can_administer(user, unit_set.docset.collection_id)
    return {
        "unit_set": unit_set,
        "docset": unit_set.docset,
        "collection": unit_set.docset.collection,
        "rows": rows,
        "model_texts": _model_texts(units) if unit_set.method == UnitSet.Method.SEE else [],
        "judgments": judgments,
        "administers": administers,
        "can_edit": judgments == 0 and administers,
        "kept_new": kept[1] if kept and kept[0] is None else None,
        "message": message,
        "level": level,
        "focus_status": bool(message) and focus is None,
        "focus_add": focus is not None and focus[0] is None,
        "described": bool(message) and kept is not None,  # the focused box, by the message
        "judging_started": unit_editing.JUDGING_STARTED,
    }


@login_required
def unit_set_detail(request, pk):
    unit_set = _unit_set_for(request, pk)
    return render(request, PAGE, units_context(unit_set, request.user))


# -- deleting -------------------------------------------------------------------------------------


@login_required
def unit_set_delete(request, pk):
    """GET: the confirmation (what goes with the unit set, or why it cannot go); POST: delete it
    (annotator.coverage.unit_sets.delete_unit_set), back to the docset's page. Administrators only,
    as for editing; refused (403) once a judgment is given."""
    unit_set = _unit_set_for(request, pk, ADMINISTER)
    docset = unit_set.docset
    refusal = ""
    if request.method == "POST":
        try:
            name, units, tasks = unit_sets.delete_unit_set(unit_set.pk)
        except unit_sets.UnitSetError as refused:
            refusal = refused.message
        else:
            gone = counted(units, "unit") + (
                f", {counted(tasks, 'judgment task')}" if tasks else ""
            )
            messages.success(request, f"Deleted the unit set “{name}” ({gone}).")
            return redirect(reverse("docset-detail", args=[docset.pk]) + "#unit-sets")
    judgments = unit_sets.judgments_given(unit_set)
    if judgments and not refusal:
        refusal = unit_sets.deletion_refused(judgments)
    return render(
        request,
        "coverage/unit_set_delete.html",
        {
            "unit_set": unit_set,
            "docset": docset,
            "collection": docset.collection,
            "units": unit_set.units.count(),
            "tasks": unit_set.tasks.count(),
            "refusal": refusal,
        },
        status=403 if refusal and request.method == "POST" else 200,
    )


# -- editing --------------------------------------------------------------------------------------

# After an edit, the control the focus goes to (on the unit the edit names): where the next step
# of the same kind starts (the merged unit's text to check; the moved unit's button to move again).
FOCUS_AFTER = {
    "relabel": "text",
    "merge": "text",
    "split": "text",
    "delete": "text",
    "move": "move",
}


def _arguments(post, fields: list[str]) -> list:
    """The edit's arguments, as posted: numbers, and the text (RuleBroken for a bad one)."""
    values: list = []
    for field in fields:
        name = field.rstrip("?")
        raw = post.get(name, "")
        if raw == "" and field.endswith("?"):
            values.append(None)
        elif name == "text":
            values.append(raw)
        else:
            try:
                value = int(raw)
                if not 0 <= value <= LARGEST_ID:
                    raise ValueError
            except ValueError:
                raise RuleBroken(f"The request's {name!r} is not valid: reload the page.") from None
            values.append(value)
    return values


@require_POST
@login_required
def unit_set_edit(request, pk, action):
    """One edit of the units (annotator.coverage.unit_editing.ACTIONS)."""
    if action not in unit_editing.ACTIONS:
        raise Http404("no such edit")
    unit_set = _unit_set_for(request, pk, ADMINISTER)
    edit, fields = unit_editing.ACTIONS[action]
    version = parse_version(request.POST.get("version"))
    try:
        edited = edit(unit_set.pk, request.user, version, *_arguments(request.POST, fields))
    except EditError as refused:
        unit_set.refresh_from_db()
        kept, note = _kept(unit_set, action, request.POST)
        context = units_context(
            unit_set,
            request.user,
            f"{refused.message} {note}".strip(),
            "conflict" if status_for(refused) == 409 else "error",
            # The message says "press Enter in it": the focus in the box that holds the text (the
            # message is read from the live region, and describes that box).
            focus=(kept[0], "text") if kept else None,
            kept=kept,
        )
        return render(request, UNITS if request.htmx else PAGE, context, status=status_for(refused))
    if not request.htmx:
        messages.success(request, edited.message)
        return redirect(reverse("unit-set-detail", args=[unit_set.pk]) + f"#unit-{edited.unit_id}")
    context = units_context(
        edited.unit_set,
        request.user,
        edited.message,
        "saved",
        # Added: the focus stays in the box for the next one.
        focus=(None, "text")
        if action == "add"
        else (edited.unit_id, FOCUS_AFTER[action] + _direction(action, request.POST)),
    )
    return render(request, UNITS, context)


def _kept(unit_set: UnitSet, action: str, post) -> tuple[tuple[int | None, str] | None, str]:
    """After a refused relabel or add, the text typed (so it is not lost: the page shows the units
    as they now are): (the unit whose box shows it again, None for the box to add a unit; the
    text), and a sentence saying where it is. Once judging has started no box is left: the
    sentence shows the text itself."""
    text = " ".join(post.get("text", "").split())
    if action not in ("relabel", "add") or not text:
        return None, ""
    if unit_editing.judging_started(unit_set):
        return None, f"Your text was not saved: “{text}”."
    if action == "add":
        return (
            None,
            text,
        ), "Your text is kept in the box to add a unit: press Enter in it to add it."
    raw = post.get("unit", "")
    unit_id = int(raw) if raw.isdigit() and int(raw) <= LARGEST_ID else None
    position = (
        unit_set.units.filter(pk=unit_id).values_list("position", flat=True).first()
        if unit_id is not None
        else None
    )
    if unit_id is None or position is None:
        return (None, text), (
            f"The unit you edited is no longer in this unit set. Your text, “{text}”, is kept in "
            "the box to add a unit: press Enter in it to add it."
        )
    return (unit_id, text), (
        f"Your text for this unit is kept in its box (now unit {position}): press Enter in it to "
        "save it."
    )


def _direction(action: str, post) -> str:
    """For a move: which of the unit's two move buttons was used ("-up", "-down")."""
    return f"-{post.get('direction')}" if action == "move" and post.get("direction") else ""
