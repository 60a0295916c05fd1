"""Flask-WTF forms, one module per area. Values are checked by the rules core, never restated here."""
