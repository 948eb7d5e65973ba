"""Coverage judgments beside pyramids (issue 21): SEE coverage (Harman & Over 2004) and unit
presence (Lite Pyramid, REALSumm, atomic content units), sharing one design:

- a UnitSet of a docset holds its Units (a model's clauses for SEE; SCU labels or short sentences
  for presence);
- a JudgmentTask gives a judge one peer summary to judge against a unit set;
- a Judgment is the judge's answer for one unit of that peer.
"""
