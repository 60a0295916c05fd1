"""The one place that turns rows into the rules core's facts and records new facts.

- ``reading``: find a match by its link and read it once per request (``load_match``): the row and the
  rules core's ``Match``; its current version alone, for the sheet's ETag.
- ``writing``: every change to a match, checked by the rules core, in one transaction that bumps the
  match's version (an edit made on an older version is refused: ``StaleEdit``).
- ``write_keys``: the key a form or an API client names a write with, so that a repeat counts once.
- ``describe``: a stored deal or fact in a few words, for the messages of a lost race.
"""
