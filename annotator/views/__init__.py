from .pages import annotation_detail, home
from .pyramid import pyramid_detail, pyramid_edit, pyramid_history

__all__ = ["annotation_detail", "home", "pyramid_detail", "pyramid_edit", "pyramid_history"]
