"""The records of a Pyramid evaluation, named as in the method (Passonneau 2009 §2).

Collection > Docset > Summary (model or peer).
Pyramid: built from a docset's model summaries; its SCUs group Contributors, whose Spans lie in
the model summaries. PeerAnnotation: a peer summary matched against a pyramid; its PSEs point to
an SCU of that pyramid, or to none (a zero-weight PSE), and have spans in the peer summary.

Offsets are Python code points into Summary.text, 0-based, end exclusive. An SCU's weight is
derived from its contributors (see Collection.weight_convention), never stored.

Each domain's records live in its package (`annotator/<package>/models.py`: campaigns, pyramids,
peer_annotation, editing, adjudication, transfer, assist, worktime, coverage); Django reads them
here, all in the annotator app and its migrations. No model module imports a service.
"""

from annotator.adjudication.models import (
    AnnotationMerge,
    PyramidMerge,
    PyramidMergeSource,
    merges_of,
)
from annotator.assist.models import (
    Proposal,
)
from annotator.campaigns.models import (
    Assignment,
    AverageRounding,
    Collection,
    Docset,
    HumanJudgment,
    Membership,
    Role,
    Summary,
    WeightConvention,
    WorkRecord,
    WorkStatus,
)
from annotator.coverage.models import (
    Judgment,
    JudgmentTask,
    Unit,
    UnitSet,
)
from annotator.editing.models import (
    ChangeRecord,
    PeerAnnotationChange,
    PyramidChange,
)
from annotator.peer_annotation.models import (
    PSE,
    PeerAnnotation,
    PeerSCUComment,
    PSESpan,
)
from annotator.pyramids.models import (
    SCU,
    Contributor,
    Pyramid,
    PyramidModel,
    SCUQuerySet,
    Span,
    TextSpan,
    scu_weight,
)
from annotator.transfer.models import (
    INTERRUPTION_PREFIXES,
    ArchiveJob,
    ArchiveJobChunk,
    BackgroundJob,
    ImportJob,
    ImportJobChunk,
    JobChunk,
    WorkerBeat,
    WorkerBeatQuerySet,
)
from annotator.worktime.models import (
    WorkTime,
)

__all__ = [
    "WeightConvention",
    "AverageRounding",
    "WorkStatus",
    "WorkRecord",
    "Collection",
    "Role",
    "Membership",
    "Docset",
    "Summary",
    "Assignment",
    "HumanJudgment",
    "Pyramid",
    "PyramidModel",
    "scu_weight",
    "SCUQuerySet",
    "SCU",
    "Contributor",
    "TextSpan",
    "Span",
    "PeerAnnotation",
    "PSE",
    "PSESpan",
    "PeerSCUComment",
    "ChangeRecord",
    "PyramidChange",
    "PeerAnnotationChange",
    "merges_of",
    "PyramidMerge",
    "PyramidMergeSource",
    "AnnotationMerge",
    "INTERRUPTION_PREFIXES",
    "BackgroundJob",
    "ImportJob",
    "ArchiveJob",
    "JobChunk",
    "ImportJobChunk",
    "ArchiveJobChunk",
    "WorkerBeatQuerySet",
    "WorkerBeat",
    "Proposal",
    "WorkTime",
    "UnitSet",
    "Unit",
    "JudgmentTask",
    "Judgment",
]
