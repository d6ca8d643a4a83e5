"""The web site: FastAPI routers over the engines' public APIs, games kept in SQLite.

>>> app = create_app(":memory:", warm=False)
>>> "/api/health" in {route.path for route in app.routes}
True
"""

from .app import create_app

__all__ = ["create_app"]
