from django.urls import path

from scoring.reports import views as report_views
from scoring.scores import views

urlpatterns = [
    path("collections/<int:pk>/scores/", views.collection_scores, name="collection-scores"),
    path("collections/<int:pk>/reports/", report_views.reports_index, name="collection-reports"),
    path(
        "collections/<int:pk>/reports/<slug:kind>/",
        report_views.report_detail,
        name="collection-report",
    ),
]
