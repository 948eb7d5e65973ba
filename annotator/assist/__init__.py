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

Also:

- `builder_evaluation.py` — how well the builder's help finds a model's contributor (issue 20),
  on stored pyramids
- `builder_help.py` — help while building a pyramid (issue 20)
- `builder_views.py` — the pyramid builder's help (annotator.assist.builder_help)
- `caching.py` — what the assistants prepare once and read many times (a pyramid's index for the
  suggestions, its models' phrases for the builder's help)
- `evaluation.py` — how well a ranker finds the SCU: stored PSEs replayed (`evaluate_suggestions`)
- `lexical.py` — lexical rankers: BM25 and word overlap over an SCU's label and contributors
- `proposal_evaluation.py` — how right the proposals are (annotator.assist.proposals), on stored
  human matches
- `proposals.py` — proposals to confirm (issue 20)
- `rankers.py` — ranking a pyramid's SCUs for a peer's words: the one API the page, proposals
  and the builder's help call
- `semantic.py` — the semantic ranker: WordLlama's word vectors with BM25 (the `[semantic]` extra)
- `views.py` — the peer page's proposals to confirm (annotator.assist.proposals)
- `warmup.py` — loading the suggestions' rankers before a server's first request (issue 32)
- `models.py` — proposals to confirm (issue 20)
"""
