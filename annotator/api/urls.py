from django.contrib.auth.decorators import login_required
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from scoring.api import ScoresView

from . import archives, imports, views

router = DefaultRouter()
router.register("collections", views.CollectionViewSet, basename="collection")
router.register("docsets", views.DocsetViewSet, basename="docset")
router.register("summaries", views.SummaryViewSet, basename="summary")
router.register("pyramids", views.PyramidViewSet, basename="pyramid")
router.register("scus", views.SCUViewSet, basename="scu")
router.register("contributors", views.ContributorViewSet, basename="contributor")
router.register("spans", views.SpanViewSet, basename="span")
router.register("peer-annotations", views.PeerAnnotationViewSet, basename="peerannotation")
router.register("pses", views.PSEViewSet, basename="pse")
router.register("assignments", views.AssignmentViewSet, basename="assignment")
router.register("pyramid-changes", views.PyramidChangeViewSet, basename="pyramidchange")
router.register("peer-annotation-changes", views.PeerAnnotationChangeViewSet, basename="peerannotationchange")
router.register("judgments", views.JudgmentViewSet, basename="judgment")
router.register("archive-jobs", archives.ArchiveJobViewSet, basename="archivejob")
router.register("import-jobs", imports.ImportJobViewSet, basename="importjob")

urlpatterns = [
    path("scores/", ScoresView.as_view(), name="api-scores"),
    path("collections/<int:pk>/archive/", archives.CollectionArchiveView.as_view(), name="api-collection-archive"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The documentation pages are pages: anonymous visitors are sent to log in.
    path("docs/", login_required(SpectacularSwaggerView.as_view(url_name="api-schema")), name="api-docs"),
    path("redoc/", login_required(SpectacularRedocView.as_view(url_name="api-schema")), name="api-redoc"),
    *router.urls,
]
