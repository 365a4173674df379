"""The HTTP API: `create_app(settings)`."""

from citewise.api.app import create_app

__all__ = ["create_app"]
