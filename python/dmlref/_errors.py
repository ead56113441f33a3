"""dmlref's exceptions: one base class, a subclass per kind of failure."""


class Error(Exception):
    """A failure the library reported.

    status    the library's status name ("DMLREF_ERROR_SIZES")
    operator  the operator's name ("GATHER"), or None
    field     the descriptor field the rule is about ("IndicesTensor"), or ""
    rule      the rule's id in docs/operators.md ("G9"), or ""
    message   the library's message, as printed by the command
    """

    def __init__(self, message, *, status, operator=None, field="", rule=""):
        super().__init__(message)
        self.message = message
        self.status = status
        self.operator = operator
        self.field = field
        self.rule = rule


class InvalidDescriptor(Error, ValueError):
    """The descriptor breaks a rule at the feature level (dmlref_validate's verdict)."""


class BindingError(Error):
    """A buffer cannot be bound (DMLREF_ERROR_BINDING: size, overlap, alignment)."""


class IndexOutOfRange(Error, IndexError):
    """check_indices=True: an index is out of range (DMLREF_ERROR_INDEX_OUT_OF_RANGE)."""


class DuplicateIndex(Error):
    """check_indices=True: two SCATTER_ND updates hit one element (DMLREF_ERROR_DUPLICATE_INDEX)."""


class OutOfMemory(Error, MemoryError):
    """An allocation failed, in the library (DMLREF_ERROR_OUT_OF_MEMORY) or in the command
    (its exit status 8): no verdict on the descriptor or the case, never InvalidDescriptor."""


class CannotVerify(Error):
    """dmlref cannot decide whether the descriptor is valid (DMLREF_ERROR_CANNOT_VERIFY: an
    interleaved output layout its bounded search could not settle; the command's exit 7).
    Not a verdict: never InvalidDescriptor."""


_BY_STATUS = {
    "DMLREF_ERROR_BINDING": BindingError,
    "DMLREF_ERROR_INDEX_OUT_OF_RANGE": IndexOutOfRange,
    "DMLREF_ERROR_DUPLICATE_INDEX": DuplicateIndex,
    "DMLREF_ERROR_OUT_OF_MEMORY": OutOfMemory,
    "DMLREF_ERROR_HOST_LIMIT": Error,
    "DMLREF_ERROR_CANNOT_VERIFY": CannotVerify,
}


def from_status(status, message, rule="", field="", operator=None):
    """The exception for a status name: InvalidDescriptor for every validation status (not
    CANNOT_VERIFY, OUT_OF_MEMORY, HOST_LIMIT: no verdict)."""
    cls = _BY_STATUS.get(status, InvalidDescriptor)
    return cls(message, status=status, operator=operator, field=field, rule=rule)
