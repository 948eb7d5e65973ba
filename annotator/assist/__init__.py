"""Assistance for the annotator (issue 20): rankers that suggest the SCU a peer's words express.

The annotator stays in charge: everything here ranks or proposes, nothing assigns by itself.

The API others call (proposals, help while building a pyramid), in annotator.assist.rankers:

- `ScuTexts(uid, label, weight, contributors)`: what a ranker reads of an SCU;
- `pyramid_index(pyramid, ranker=None)`: a pyramid's SCUs prepared for a ranker, cached per
  pyramid version (annotator.assist.caching: in the process and in the cache every app server
  shares); `prepare(scus, ranker=None)` does the same for given SCUs;
- `rank(index, text, limit=8)`: `Suggestion`s (uid, label, weight, score, shared words), best first;
- `default_ranker()`: "semantic" where the extra is installed (`pip install -e '.[semantic]'`),
  else "lexical"; `RANKERS` names them all.

NumPy, bm25s and WordLlama are imported where used, never when Django starts (issue 19); an app
server loads them before its first request (annotator.assist.warmup, from config/gunicorn.py).
"""
