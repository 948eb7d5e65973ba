"""Inter-annotator agreement (Passonneau 2009 §4.1): Krippendorff's alpha with the distances the
paper uses, over peer annotations and pyramids, and the annotators' scores compared.

- `alpha.py` — Krippendorff's alpha and the distances (1 − Dice, MASI, Jaccard, …; pure);
- `units.py` — the units alpha is taken over (pure);
- `pyramids.py` — two pyramids' SCUs matched for alpha (MASI over their contributors);
- `records.py` — the records loaded in bulk: peers annotated twice, pyramids built twice, and
  the annotators' scores (Pearson's r, the ANOVA by annotator).
"""
