from django.urls import path

from annotator.accounts.views import users
from annotator.adjudication.views import compare, consensus
from annotator.assist import builder_views
from annotator.assist import views as proposal_views
from annotator.campaigns.views import collections, home, work
from annotator.coverage.views import judging
from annotator.coverage.views import unit_sets as coverage_unit_sets
from annotator.peer_annotation import views as peer_annotation
from annotator.pyramids import views as pyramids
from annotator.transfer.views import archives, downloads, imports
from annotator.worktime import views as worktime

urlpatterns = [
    path("", home.home, name="home"),
    path("pyramids/<int:pk>/", pyramids.pyramid_detail, name="pyramid-detail"),
    path("pyramids/<int:pk>/edit/<slug:action>/", pyramids.pyramid_edit, name="pyramid-edit"),
    path("pyramids/<int:pk>/history/", pyramids.pyramid_history, name="pyramid-history"),
    path("pyramids/<int:pk>/builder-help/", builder_views.builder_help, name="builder-help"),
    path("annotations/<int:pk>/", peer_annotation.annotation_detail, name="annotation-detail"),
    path(
        "annotations/<int:pk>/edit/<slug:action>/",
        peer_annotation.annotation_edit,
        name="annotation-edit",
    ),
    path(
        "annotations/<int:pk>/suggestions/",
        peer_annotation.annotation_suggestions,
        name="annotation-suggestions",
    ),
    path(
        "annotations/<int:pk>/history/",
        peer_annotation.annotation_history,
        name="annotation-history",
    ),
    path("assignments/<int:pk>/start/", peer_annotation.assignment_start, name="assignment-start"),
    # Proposals to confirm (issue 20): annotator.assist.views
    path("annotations/<int:pk>/proposals/", proposal_views.proposal_list, name="proposal-list"),
    path("annotations/<int:pk>/proposals/propose/", proposal_views.propose, name="propose"),
    path(
        "annotations/<int:pk>/proposals/<int:proposal>/accept/",
        proposal_views.accept,
        name="proposal-accept",
    ),
    path(
        "annotations/<int:pk>/proposals/<int:proposal>/reject/",
        proposal_views.reject,
        name="proposal-reject",
    ),
    path(
        "annotations/<int:pk>/proposals/<int:proposal>/reopen/",
        proposal_views.reopen,
        name="proposal-reopen",
    ),
    # Coverage judgments (issue 21): annotator.coverage.views.judging
    path("judging/<int:pk>/", judging.judging_task, name="judging-task"),
    path("judging/<int:pk>/answer/", judging.judging_answer, name="judging-answer"),
    path("judging/<int:pk>/submit/", judging.judging_submit, name="judging-submit"),
    path("judging/<int:pk>/reopen/", judging.judging_reopen, name="judging-reopen"),
    path("judging/<int:pk>/withdraw/", judging.judging_withdraw, name="judging-withdraw"),
    path("judging/<int:pk>/reassign/", judging.judging_reassign, name="judging-reassign"),
    path("collections/<int:pk>/judging/assign/", judging.judging_assign, name="judging-assign"),
    path("work/<slug:kind>/<int:pk>/activity/", worktime.activity, name="work-activity"),
    # Administration
    path("collections/", collections.collection_list, name="collection-list"),
    path("collections/new/", collections.collection_create, name="collection-create"),
    path("collections/restore/", archives.collection_restore, name="collection-restore"),
    path("collections/<int:pk>/", collections.collection_detail, name="collection-detail"),
    path(
        "collections/<int:pk>/settings/",
        collections.collection_settings,
        name="collection-settings",
    ),
    path(
        "collections/<int:pk>/members/", collections.collection_members, name="collection-members"
    ),
    path(
        "collections/<int:pk>/members/<int:member_pk>/remove/",
        collections.member_remove,
        name="member-remove",
    ),
    path("collections/<int:pk>/docsets/new/", collections.docset_create, name="docset-create"),
    path("collections/<int:pk>/upload/", imports.summaries_upload, name="summaries-upload"),
    path("collections/<int:pk>/import/", imports.ducview_import, name="ducview-import"),
    path("collections/<int:pk>/import-units/", imports.units_import, name="units-import"),
    path("collections/<int:pk>/assign/", work.assign, name="assign"),
    path("collections/<int:pk>/progress/", work.collection_progress, name="collection-progress"),
    path(
        "collections/<int:pk>/ducview.zip", downloads.collection_ducview, name="collection-ducview"
    ),
    path("collections/<int:pk>/units.zip", downloads.collection_units, name="collection-units"),
    path("collections/<int:pk>/archive/", archives.collection_export, name="collection-archive"),
    path("docsets/<int:pk>/", collections.docset_detail, name="docset-detail"),
    path("docsets/<int:pk>/summaries/new/", collections.summary_create, name="summary-create"),
    # Unit sets of coverage judgments (issue 21): annotator.coverage.views.unit_sets
    path(
        "docsets/<int:pk>/unit-sets/new/",
        coverage_unit_sets.unit_set_create,
        name="unit-set-create",
    ),
    path("unit-sets/<int:pk>/", coverage_unit_sets.unit_set_detail, name="unit-set-detail"),
    path("unit-sets/<int:pk>/delete/", coverage_unit_sets.unit_set_delete, name="unit-set-delete"),
    path(
        "unit-sets/<int:pk>/edit/<slug:action>/",
        coverage_unit_sets.unit_set_edit,
        name="unit-set-edit",
    ),
    path("docsets/<int:pk>/compare/", compare.pyramid_comparison, name="pyramid-comparison"),
    path(
        "docsets/<int:pk>/peers-annotated-twice/",
        compare.peer_disagreements,
        name="peer-disagreements",
    ),
    path(
        "docsets/<int:pk>/consensus/",
        compare.pyramid_consensus_start,
        name="pyramid-consensus-start",
    ),
    path("pyramids/<int:pk>/merge/", consensus.pyramid_merge, name="pyramid-merge"),
    path(
        "pyramids/<int:pk>/merge/<slug:action>/",
        consensus.pyramid_merge_decide,
        name="pyramid-merge-decide",
    ),
    path(
        "pyramids/<int:pyramid_pk>/peers/<int:peer_pk>/",
        consensus.peer_comparison,
        name="peer-comparison",
    ),
    path(
        "pyramids/<int:pyramid_pk>/peers/<int:peer_pk>/consensus/",
        consensus.peer_consensus_start,
        name="peer-consensus-start",
    ),
    path(
        "pyramids/<int:pyramid_pk>/peers/<int:peer_pk>/merge/<slug:action>/",
        consensus.peer_merge_decide,
        name="peer-merge-decide",
    ),
    path("summaries/<int:pk>/", collections.summary_detail, name="summary-detail"),
    path("jobs/<int:pk>/", imports.job_detail, name="job-detail"),
    path("jobs/<int:pk>/resume/", imports.job_resume, name="job-resume"),
    path("archives/<int:pk>/", archives.archive_job, name="archive-job"),
    path("archives/<int:pk>/resume/", archives.archive_job_resume, name="archive-job-resume"),
    path("archives/<int:pk>/download/", archives.archive_download, name="archive-download"),
    path("assignments/<int:pk>/withdraw/", work.assignment_withdraw, name="assignment-withdraw"),
    path("assignments/<int:pk>/reassign/", work.assignment_reassign, name="assignment-reassign"),
    path("users/", users.user_list, name="user-list"),
    path("users/new/", users.user_create, name="user-create"),
]
