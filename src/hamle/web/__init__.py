"""The web site: FastAPI routers over the engines' public APIs, games kept in SQLite.

>>> app = create_app(":memory:", warm=False)
>>> "/api/tour/games/{game_id}/hint" in app.openapi()["paths"]
True
"""

from .app import create_app

__all__ = ["create_app"]
