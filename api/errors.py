"""RFC 9457 problem details for every error, each with a stable `code`."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from domain.dice import DiceError
from domain.errors import KirokuError

PROBLEM_JSON = "application/problem+json"
STATUS_BY_KIND = {
    "invalid": 422,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "conflict": 409,
}


class Problem(BaseModel):
    type: str
    title: str
    status: int
    code: str
    detail: str
    errors: list[dict[str, Any]] | None = None


def problem(status: int, code: str, detail: str, **extra: Any) -> JSONResponse:
    body = Problem(
        type=f"https://kiroku.invalid/problems/{code}",
        title=code.replace("_", " ").capitalize(),
        status=status,
        code=code,
        detail=detail,
        **extra,
    )
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(
        body.model_dump(exclude_none=True), status, media_type=PROBLEM_JSON, headers=headers
    )


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(KirokuError)
    async def kiroku_error(_: Request, error: KirokuError) -> JSONResponse:
        return problem(STATUS_BY_KIND[error.kind], error.code, error.message)

    @app.exception_handler(DiceError)
    async def dice_error(_: Request, error: DiceError) -> JSONResponse:
        return problem(422, error.code, str(error))

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, error: RequestValidationError) -> JSONResponse:
        # Only location, message and kind: never echo values back into logs or proxies.
        errors = [
            {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
            for e in error.errors()
        ]
        first = errors[0] if errors else {"loc": [], "msg": "invalid request", "type": ""}
        if first["type"] == "union_tag_invalid":
            # pydantic's message names the unknown type and every known one.
            detail = str(first["msg"]).replace("Input tag", "Command type")
            return problem(422, "unknown_command", detail)
        where = ".".join(str(part) for part in first["loc"] if part != "body") or "request"
        return problem(422, "invalid_request", f"{where}: {first['msg']}", errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        return problem(error.status_code, code, str(error.detail))
