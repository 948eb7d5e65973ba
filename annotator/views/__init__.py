from .annotation import annotation_detail, annotation_edit, annotation_history, annotation_suggestions, assignment_start
from .pages import home
from .pyramid import pyramid_detail, pyramid_edit, pyramid_history

__all__ = [
    "annotation_detail", "annotation_edit", "annotation_history", "annotation_suggestions", "assignment_start", "home",
    "pyramid_detail", "pyramid_edit", "pyramid_history",
]
