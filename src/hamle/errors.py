"""What every engine error shares: an English message, and the code and values it is
made of, so a user interface can say it in its own language."""

from __future__ import annotations


class HamleError(Exception):
    """An error whose message is ``template`` filled in with ``params``; ``code`` names
    the kind of error (stable across versions; empty for errors a user interface never
    shows). Without a code the template is the message as it stands.

    >>> error = HamleError("{cell} is already filled", code="tour.filled", cell="E5")
    >>> str(error), error.code, error.params
    ('E5 is already filled', 'tour.filled', {'cell': 'E5'})
    """

    def __init__(self, template: str, *, code: str = "", **params) -> None:
        super().__init__(template.format(**params) if code else template)
        self.template, self.code, self.params = template, code, params

    def recast(self, kind: type[HamleError], context: str = "") -> HamleError:
        """The same error as a ``kind``, its message after ``context: `` if given (the
        ``context`` param then names what it is about).

        >>> class OddError(HamleError): ...
        >>> error = HamleError("{n} is odd", code="odd", n=3).recast(OddError, "Cruiser")
        >>> str(error), error.params
        ('Cruiser: 3 is odd', {'context': 'Cruiser', 'n': 3})
        """
        if not self.code:
            return kind(f"{context}: {self}" if context else str(self))
        if not context:
            return kind(self.template, code=self.code, **self.params)
        return kind("{context}: " + self.template, code=self.code, context=context, **self.params)
