"""The Flask extensions the blueprints share, made here and bound to the app in ``create_app``."""

from __future__ import annotations

from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect

compress = Compress()
csrf = CSRFProtect()
