from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from annotator.api import docs, views
from annotator.api.root import Router
from annotator.transfer.api import archives, imports
from scoring.api import ScoresView

# "api-" before every basename: the pages have names such as "collection-list" and
# "pyramid-detail", and the API root would link to them (issue 15). The root (root.py) describes
# the API, links its documentation and lists the scores too.
router = Router()
router.register("collections", views.CollectionViewSet, basename="api-collection")
router.register("docsets", views.DocsetViewSet, basename="api-docset")
router.register("summaries", views.SummaryViewSet, basename="api-summary")
router.register("pyramids", views.PyramidViewSet, basename="api-pyramid")
router.register("scus", views.SCUViewSet, basename="api-scu")
router.register("contributors", views.ContributorViewSet, basename="api-contributor")
router.register("spans", views.SpanViewSet, basename="api-span")
router.register("peer-annotations", views.PeerAnnotationViewSet, basename="api-peerannotation")
router.register("pses", views.PSEViewSet, basename="api-pse")
router.register("assignments", views.AssignmentViewSet, basename="api-assignment")
router.register("pyramid-changes", views.PyramidChangeViewSet, basename="api-pyramidchange")
router.register(
    "peer-annotation-changes",
    views.PeerAnnotationChangeViewSet,
    basename="api-peerannotationchange",
)
router.register("judgments", views.JudgmentViewSet, basename="api-judgment")
router.register("archive-jobs", archives.ArchiveJobViewSet, basename="api-archivejob")
router.register("import-jobs", imports.ImportJobViewSet, basename="api-importjob")

urlpatterns = [
    path("scores/", ScoresView.as_view(), name="api-scores"),
    path(
        "collections/<int:pk>/archive/",
        archives.CollectionArchiveView.as_view(),
        name="api-collection-archive",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The documentation pages (pages: anonymous visitors are sent to log in), under the CSP: docs.py.
    path("docs/", docs.swagger_ui, name="api-docs"),
    path("redoc/", docs.redoc, name="api-redoc"),
    *router.urls,
]
