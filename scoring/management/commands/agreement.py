import json
from dataclasses import asdict

from annotator.management.lookup import collection_and_docset
from annotator.text.plurals import counted
from scoring.agreement.records import (
    peer_agreement,
    pyramid_agreement,
    pyramids_left_in_progress,
    score_agreement,
)
from scoring.management.reading import ReadingCommand
from scoring.numbers import json_ready, number, p_value
from scoring.scores.records import collection_annotations, work_counts


def in_progress_marked(names: list[str], in_progress: list[str]) -> list[str]:
    return [f"{name} (in progress)" if name in in_progress else name for name in names]


class Command(ReadingCommand):
    help = (
        "Inter-annotator agreement (Passonneau 2009 §4.1): Krippendorff's alpha for peer "
        "annotations (1 - Dice, Binary, Binary') with score correlations and the ANOVA by "
        "annotator, or for pyramids (MASI as Passonneau 2009 and as NLTK define it, Jaccard, "
        "nominal)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--collection", required=True)
        parser.add_argument("--docset", help="only this docset")
        parser.add_argument("--kind", choices=["peers", "pyramids"], default="peers")
        parser.add_argument("--format", choices=["table", "json"], default="table")
        parser.add_argument(
            "--adjudicated",
            action="store_true",
            help="submitted consensus work in place of its sources (without it, consensus work is "
            "left out, as from every score)",
        )
        parser.add_argument(
            "--include-in-progress",
            action="store_true",
            help="count work in progress too (peer annotations, or pyramids, still being made; "
            "each pyramid in progress marked); without it, submitted work only, as in every score",
        )

    def handle(self, *args, **options):
        collection = collection_and_docset(options["collection"], options["docset"])
        docset, adjudicated, include = (
            options["docset"],
            options["adjudicated"],
            options["include_in_progress"],
        )
        if options["kind"] == "peers":
            peers, pooled = peer_agreement(
                collection, docset, adjudicated, include_in_progress=include
            )
            correlations, anovas = score_agreement(
                collection, docset, adjudicated, include_in_progress=include
            )
            left_out = work_counts(
                collection_annotations(collection, docset), adjudicated, include, scored=False
            ).in_progress_left_out
            if options["format"] == "json":
                document = {
                    "peers": [asdict(p) for p in peers],
                    "pooled": [asdict(p) for p in pooled],
                    "score_correlations": [asdict(c) for c in correlations],
                    "anova_by_annotator": [asdict(a) for a in anovas],
                    "annotations_in_progress_left_out": left_out,
                }
                self.stdout.write(json.dumps(json_ready(document), indent=2))
                return
            self._peers_table(peers, pooled, correlations, anovas)
            if left_out:
                self.stderr.write(
                    f"{counted(left_out, 'peer annotation')} in progress left out "
                    "(--include-in-progress counts them)"
                )
        else:
            results, skipped = pyramid_agreement(
                collection, docset, adjudicated, include_in_progress=include
            )
            left_out = pyramids_left_in_progress(
                collection, docset, adjudicated, include_in_progress=include
            )
            if options["format"] == "json":
                self.stdout.write(
                    json.dumps(
                        json_ready(
                            {
                                "pyramids": [asdict(r) for r in results],
                                "skipped": skipped,
                                "pyramids_in_progress_left_out": left_out,
                            }
                        ),
                        indent=2,
                    )
                )
                return
            self.stdout.write(
                "docset\tpyramids\tannotators\twords\talpha_masi\talpha_masi_nltk\talpha_jaccard\talpha_nominal"
            )
            for r in results:
                self.stdout.write(
                    "\t".join(
                        [
                            r.docset,
                            ",".join(in_progress_marked(r.pyramids, r.in_progress)),
                            ",".join(r.annotators),
                            str(r.units),
                            *(
                                number(r.alpha[k])
                                for k in ("masi", "masi_nltk", "jaccard", "nominal")
                            ),
                        ]
                    )
                )
            for reason in skipped:
                self.stderr.write(f"skipped {reason}")
            if not results:
                self.stderr.write(
                    "No docset has two or more "
                    + ("" if include else "submitted ")
                    + "pyramids of the same model summaries."
                )
            if left_out:
                self.stderr.write(
                    f"{counted(left_out, 'pyramid')} in progress left out (--include-in-progress "
                    "compares " + ("it)" if left_out == 1 else "them)")
                )

    def _peers_table(self, peers, pooled, correlations, anovas):
        write = self.stdout.write
        write(
            "docset\tpeer\tannotators\tSCUs\talpha_dice\talpha_binary\talpha_binary'\tmatched_jaccard"
        )
        for p in peers:
            write(
                "\t".join(
                    [
                        p.docset,
                        p.peer,
                        ",".join(p.annotators),
                        str(p.units),
                        *(number(p.alpha[k]) for k in ("dice", "binary", "binary_reduced")),
                        number(p.matched_jaccard),
                    ]
                )
            )
        for p in pooled:
            write(
                "\t".join(
                    [
                        p.scope,
                        f"({counted(p.peers, 'peer')})",
                        "",
                        str(p.units),
                        *(number(p.alpha[k]) for k in ("dice", "binary", "binary_reduced")),
                        "",
                    ]
                )
            )
        if not peers:
            self.stderr.write("No peer is annotated twice against the same pyramid.")
            return
        write("")
        write("annotators\tscore\tpeer\tn\tpearson_r\tp\tci95_low\tci95_high")
        for c in correlations:
            write(
                "\t".join(
                    [
                        " vs ".join(c.annotators),
                        c.score,
                        c.scope,
                        str(c.n),
                        number(c.r),
                        p_value(c.p),
                        number(c.low),
                        number(c.high),
                    ]
                )
            )
        write("")
        write("score\tANOVA F (annotator as factor)\tp")
        for a in anovas:
            write("\t".join([a.score, number(a.f), p_value(a.p)]))
