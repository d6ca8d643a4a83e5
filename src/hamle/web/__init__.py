"""The web site: FastAPI routers over the engines' public APIs, games kept in SQLite.

>>> from hamle.web import create_app
>>> app = create_app(":memory:", warm=False)
>>> "/api/tour/games/{game_id}/hint" in app.openapi()["paths"]
True
"""

__all__ = ["create_app"]


def __getattr__(name: str):
    # (imported when asked for, so that the command line's settings of ``hamle serve``
    # can come from the site's modules without loading FastAPI)
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
