from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("pyramids/<int:pk>/", views.pyramid_detail, name="pyramid-detail"),
    path("pyramids/<int:pk>/edit/<slug:action>/", views.pyramid_edit, name="pyramid-edit"),
    path("pyramids/<int:pk>/history/", views.pyramid_history, name="pyramid-history"),
    path("annotations/<int:pk>/", views.annotation_detail, name="annotation-detail"),
    path("annotations/<int:pk>/edit/<slug:action>/", views.annotation_edit, name="annotation-edit"),
    path("annotations/<int:pk>/suggestions/", views.annotation_suggestions, name="annotation-suggestions"),
    path("annotations/<int:pk>/history/", views.annotation_history, name="annotation-history"),
    path("assignments/<int:pk>/start/", views.assignment_start, name="assignment-start"),
]
