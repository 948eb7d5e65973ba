"""Small REALSumm and Lite Pyramid files for the tests of tests/coverage, written here (never
copied from the research data), with the oddities real files have."""

from pathlib import Path

SCUS_LIST = """eventId,questionId,questionText,answer,author,sourceSummaryId,forUse
D1,0,Armstrong walked on the Moon.,Y,,D1,1
D1,1,Apollo 11 landed in 1969.,Y,,D1,1
D1,2,BLANK,N,,D1,1
D2,10,Aldrin followed Armstrong.,Y,,D2,1
D2,3,Collins stayed in orbit.,Y,,D2,1
D2,4,"The crew returned on July 24, 1969.",Y,,D2,1
"""

_HEADER = (
    "Input.eventId,Input.summaryId,Input.qIdList,Input.summary_text,"
    "Input.statement_1,Input.statement_2,Input.statement_3,"
    "Answer.S3Answer,Answer.S1Answer,Answer.S2Answer,\n"
)
# Answers are written S3, S1, S2 (MTurk's order); a trailing comma as in REALSumm's files.
BATCH = _HEADER + (
    "D1,sys1,\"['0', '1', '2']\",Armstrong walked.,Armstrong walked on the Moon.,"
    "Apollo 11 landed in 1969.,BLANK,n,p,n,\n"
    "D1,sys1,\"['0', '1', '2']\",Armstrong walked.,Armstrong walked on the Moon.,"
    "Apollo 11 landed in 1969.,BLANK,p,p,p,\n"  # a BLANK statement answered p
    "D1,sys1,\"['0', '1', '2']\",Armstrong walked.,Armstrong walked on the Moon.,"
    "Apollo 11 landed in 1969.,BLANK,n,p,,\n"  # no answer for unit 1
    "D2,sys1,\"['3', '4', '10']\",\"Collins orbited; the crew returned.\",Collins stayed in orbit.,"
    "The crew came back.,Aldrin followed Armstrong.,x,n,p,\n"  # text differs; x
    "D2,sys1,\"['3', '4', '10']\",\"Collins orbited; the crew returned.\",Collins stayed in orbit.,"
    '"The crew returned on July 24, 1969.",Aldrin followed Armstrong.,p,p,p,\n'
    "D2,sys2,\"['3', '4', '10']\",Nothing.,Collins stayed in orbit.\n"  # ragged: 5 fields
)

# (docset, system, judge) -> {unit position: present}, as BATCH should be stored.
BATCH_ANSWERS = {
    ("D1", "sys1", "crowd 1"): {1: True, 2: False},
    ("D1", "sys1", "crowd 2"): {1: True, 2: True},
    ("D1", "sys1", "crowd 3"): {1: True},
    ("D2", "sys1", "crowd 1"): {1: False, 2: True},
    ("D2", "sys1", "crowd 2"): {1: True, 2: True, 3: True},
}

LITE = {
    "ids.txt": "D1\nD2\n",
    "SCUs.txt": "Armstrong walked on the Moon.\tApollo 11 landed in 1969.\n"
    "Collins stayed in orbit.\tThe crew returned.\tAldrin followed.\n",
    "references.txt": "Apollo 11 landed in 1969. Armstrong walked on the Moon.\n"
    "Collins stayed in orbit while Aldrin followed Armstrong; the crew returned.\n",
    "summaries/abs_sys.summary": "Armstrong walked on the Moon.\nThe crew returned.\n",
    "labels/abs_sys.label": "1\t0\n0\t1\n",  # D2: 2 labels for 3 units
    "summaries/ext_other.summary": "Apollo 11 landed.\n\n",  # no labels; nothing for D2
    "labels/orphan.label": "1\t1\n1\t1\t1\n",  # no summaries/orphan.summary
    "README.md": "not read\n",
}


def write_realsumm(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SCUs_list.csv").write_text(SCUS_LIST, encoding="utf-8")
    (folder / "sys1_Batch.csv").write_text(BATCH, encoding="utf-8")
    return [folder / "SCUs_list.csv", folder / "sys1_Batch.csv"]


def write_lite(folder: Path, files: dict[str, str] = LITE) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def stored(collection: str) -> dict:
    """Everything an import stored in the collection (in the docsets with unit sets), in plain
    values, to compare two collections."""
    from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet
    from annotator.models import Summary

    return {
        "unit_sets": sorted(
            UnitSet.objects.filter(docset__collection__name=collection).values_list(
                "docset__name", "name", "method", "scale", "source"
            )
        ),
        "units": sorted(
            Unit.objects.filter(unit_set__docset__collection__name=collection).values_list(
                "unit_set__docset__name", "position", "text", "external_id", "model__author"
            ),
            key=str,
        ),
        "summaries": sorted(
            Summary.objects.filter(
                docset__collection__name=collection, docset__unit_sets__isnull=False
            )
            .distinct()
            .values_list("docset__name", "kind", "author", "text")
        ),
        "tasks": sorted(
            JudgmentTask.objects.filter(unit_set__docset__collection__name=collection).values_list(
                "unit_set__docset__name", "peer__author", "judge_code", "status"
            )
        ),
        "judgments": sorted(
            Judgment.objects.filter(
                task__unit_set__docset__collection__name=collection
            ).values_list(
                "task__unit_set__docset__name",
                "task__peer__author",
                "task__judge_code",
                "unit__position",
                "value",
            )
        ),
    }


def answers(collection: str) -> dict:
    from annotator.coverage.models import Judgment

    found: dict = {}
    for docset, system, judge, position, value in Judgment.objects.filter(
        task__unit_set__docset__collection__name=collection
    ).values_list(
        "task__unit_set__docset__name",
        "task__peer__author",
        "task__judge_code",
        "unit__position",
        "value",
    ):
        found.setdefault((docset, system, judge), {})[position] = value == 1.0
    return found
