from django.urls import path

from . import views
from .views import collections, compare, imports, users, work

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
    # Administration
    path("collections/", collections.collection_list, name="collection-list"),
    path("collections/new/", collections.collection_create, name="collection-create"),
    path("collections/<int:pk>/", collections.collection_detail, name="collection-detail"),
    path("collections/<int:pk>/settings/", collections.collection_settings, name="collection-settings"),
    path("collections/<int:pk>/members/", collections.collection_members, name="collection-members"),
    path("collections/<int:pk>/members/<int:member_pk>/remove/", collections.member_remove, name="member-remove"),
    path("collections/<int:pk>/docsets/new/", collections.docset_create, name="docset-create"),
    path("collections/<int:pk>/upload/", imports.summaries_upload, name="summaries-upload"),
    path("collections/<int:pk>/import/", imports.ducview_import, name="ducview-import"),
    path("collections/<int:pk>/assign/", work.assign, name="assign"),
    path("collections/<int:pk>/progress/", work.collection_progress, name="collection-progress"),
    path("docsets/<int:pk>/", collections.docset_detail, name="docset-detail"),
    path("docsets/<int:pk>/summaries/new/", collections.summary_create, name="summary-create"),
    path("docsets/<int:pk>/compare/", compare.pyramid_comparison, name="pyramid-comparison"),
    path("docsets/<int:pk>/peers-annotated-twice/", compare.peer_disagreements, name="peer-disagreements"),
    path("summaries/<int:pk>/", collections.summary_detail, name="summary-detail"),
    path("jobs/<int:pk>/", imports.job_detail, name="job-detail"),
    path("assignments/<int:pk>/withdraw/", work.assignment_withdraw, name="assignment-withdraw"),
    path("assignments/<int:pk>/reassign/", work.assignment_reassign, name="assignment-reassign"),
    path("users/", users.user_list, name="user-list"),
    path("users/new/", users.user_create, name="user-create"),
]
