"""`/docs` (Swagger UI) and `/redoc` from the vendored bundles under `/ui/vendor/` (see
`api/web/vendor.json`): the API's documentation pages work offline."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)
VENDOR = "/ui/vendor"
OAUTH2_REDIRECT = "/docs/oauth2-redirect"
# the pages load nothing from elsewhere (ReDoc's sidebar would fetch its maker's logo)
SAME_ORIGIN = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:; "
    "font-src 'self' data:"
}


def _openapi_url(request: Request) -> str:
    root = str(request.scope.get("root_path", "")).rstrip("/")
    return f"{root}{request.app.openapi_url}"


@router.get("/docs")
def swagger_ui(request: Request) -> HTMLResponse:
    root = str(request.scope.get("root_path", "")).rstrip("/")
    page = get_swagger_ui_html(
        openapi_url=_openapi_url(request),
        title=f"{request.app.title} API",
        swagger_js_url=f"{root}{VENDOR}/swagger-ui/swagger-ui-bundle.js",
        swagger_css_url=f"{root}{VENDOR}/swagger-ui/swagger-ui.css",
        swagger_favicon_url=f"{root}{VENDOR}/swagger-ui/favicon-32x32.png",
        oauth2_redirect_url=f"{root}{OAUTH2_REDIRECT}",
        # no validator badge: it would send the schema to validator.swagger.io
        swagger_ui_parameters={"validatorUrl": None},
    )
    page.headers.update(SAME_ORIGIN)
    return page


@router.get(OAUTH2_REDIRECT)
def swagger_ui_redirect() -> HTMLResponse:
    return get_swagger_ui_oauth2_redirect_html()


@router.get("/redoc")
def redoc(request: Request) -> HTMLResponse:
    root = str(request.scope.get("root_path", "")).rstrip("/")
    page = get_redoc_html(
        openapi_url=_openapi_url(request),
        title=f"{request.app.title} API",
        redoc_js_url=f"{root}{VENDOR}/redoc/redoc.standalone.js",
        redoc_favicon_url=f"{root}{VENDOR}/swagger-ui/favicon-32x32.png",
        with_google_fonts=False,
    )
    page.headers.update(SAME_ORIGIN)
    return page
