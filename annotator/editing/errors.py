"""The refusals an edit can meet, raised by the engine and every domain's operations, and answered
by the pages (annotator.editing.refusals) and the API alike: one home, which imports nothing."""


class EditError(Exception):
    """An edit that was refused; `message` says why, for the annotator."""

    def __init__(self, message: str, fix: dict | None = None):
        super().__init__(message)
        self.message = message
        self.fix = fix  # an action that would do what was meant, where there is one


class RuleBroken(EditError):
    """The edit breaks a rule of the method or refers to something that is not there."""


class NotAllowed(EditError):
    """The user may not edit this record (not assigned, or it is submitted)."""


class StaleVersion(EditError):
    """The edit was based on an older version of the record."""

    def __init__(self, current_version: int, record: str = "pyramid"):
        super().__init__(
            f"Not saved: this {record} was changed elsewhere (another tab or person); "
            "it is shown here as it now is."
        )
        self.current_version = current_version
