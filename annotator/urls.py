from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("pyramids/<int:pk>/", views.pyramid_detail, name="pyramid-detail"),
    path("annotations/<int:pk>/", views.annotation_detail, name="annotation-detail"),
]
