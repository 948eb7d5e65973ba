from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from annotator.api import docs
from annotator.api.root import Router
from annotator.campaigns import api as campaigns
from annotator.coverage import api as coverage
from annotator.peer_annotation import api as peer_annotation
from annotator.pyramids import api as pyramids
from annotator.transfer.api import archives, imports
from scoring.coverage.api import CoverageScoresView
from scoring.scores.api import ScoresView

# "api-" before every basename: the pages have names such as "collection-list" and
# "pyramid-detail", and the API root would link to them (issue 15). The root (root.py) describes
# the API, links its documentation and lists the scores too.
router = Router()
router.register("collections", campaigns.CollectionViewSet, basename="api-collection")
router.register("docsets", campaigns.DocsetViewSet, basename="api-docset")
router.register("summaries", campaigns.SummaryViewSet, basename="api-summary")
router.register("pyramids", pyramids.PyramidViewSet, basename="api-pyramid")
router.register("scus", pyramids.SCUViewSet, basename="api-scu")
router.register("contributors", pyramids.ContributorViewSet, basename="api-contributor")
router.register("spans", pyramids.SpanViewSet, basename="api-span")
router.register(
    "peer-annotations", peer_annotation.PeerAnnotationViewSet, basename="api-peerannotation"
)
router.register("pses", peer_annotation.PSEViewSet, basename="api-pse")
router.register("assignments", campaigns.AssignmentViewSet, basename="api-assignment")
router.register("pyramid-changes", pyramids.PyramidChangeViewSet, basename="api-pyramidchange")
router.register(
    "peer-annotation-changes",
    peer_annotation.PeerAnnotationChangeViewSet,
    basename="api-peerannotationchange",
)
router.register("judgments", campaigns.JudgmentViewSet, basename="api-judgment")
# Coverage judgments (issue 21); "judgments" above are the human judgments of whole summaries.
router.register("unit-sets", coverage.UnitSetViewSet, basename="api-unitset")
router.register("units", coverage.UnitViewSet, basename="api-unit")
router.register("judgment-tasks", coverage.JudgmentTaskViewSet, basename="api-judgmenttask")
router.register(
    "coverage-judgments", coverage.CoverageJudgmentViewSet, basename="api-coveragejudgment"
)
router.register("archive-jobs", archives.ArchiveJobViewSet, basename="api-archivejob")
router.register("import-jobs", imports.ImportJobViewSet, basename="api-importjob")

urlpatterns = [
    path("scores/", ScoresView.as_view(), name="api-scores"),
    path("coverage-scores/", CoverageScoresView.as_view(), name="api-coverage-scores"),
    path(
        "collections/<int:pk>/archive/",
        archives.CollectionArchiveView.as_view(),
        name="api-collection-archive",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The documentation pages (pages: anonymous visitors are sent to log in), under the CSP:
    # docs.py.
    path("docs/", docs.swagger_ui, name="api-docs"),
    path("redoc/", docs.redoc, name="api-redoc"),
    *router.urls,
]
