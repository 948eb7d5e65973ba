class DucviewError(ValueError):
    """A DUCView file that cannot be read: the message names what is wrong and where."""
