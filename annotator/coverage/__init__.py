"""Coverage judgments beside pyramids (issue 21): SEE coverage (Harman & Over 2004) and unit
presence (Lite Pyramid, REALSumm, atomic content units), sharing one design:

- a UnitSet of a docset holds its Units (a model's clauses for SEE; SCU labels or short sentences
  for presence);
- a JudgmentTask gives a judge one peer summary to judge against a unit set;
- a Judgment is the judge's answer for one unit of that peer.

Also:

- `api.py` — coverage judgments in the REST API (issue 21)
- `import_form.py` — the upload page's form for unit sets
  (annotator.transfer.views.imports.units_import)
- `importing.py` — storing unit sets read from REALSumm's or Lite Pyramid's files
  (annotator.coverage.formats), and reading them back for export
- `judging.py` — judging a peer against a unit set (issue 21)
- `judging_assignment.py` — giving out coverage judgments (issue 21)
- `judging_forms.py` — the form of the judging assignment page
  (annotator.coverage.views.judging.judging_assign)
- `judging_page.py` — what the judging page shows (annotator.coverage.views.judging)
- `judging_progress.py` — how far the judging has come (issue 21)
- `majority.py` — the majority vote of unit presence judgments
- `models.py` — the records of coverage judgments (issue 21)
- `serializers.py` — how the coverage records look in the REST API (issue 21)
- `splitting.py` — cutting a text into clauses
- `unit_editing.py` — editing a unit set's units before judging starts (issue 21)
- `unit_sets.py` — making a docset's unit sets (issue 21), each in one transaction, its units in
  one bulk insert
- `formats/` — reading and writing unit sets in the formats the community uses (issue 21)
- `views/` — the coverage pages (issue 21)
"""
