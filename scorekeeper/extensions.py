"""The Flask extensions the blueprints share, made here and bound to the app in ``create_app``."""

from __future__ import annotations

from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
