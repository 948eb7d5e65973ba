from django.urls import path

from . import views

urlpatterns = [
    path("collections/<int:pk>/scores/", views.collection_scores, name="collection-scores"),
]
