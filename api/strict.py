"""Strict parameters: a query parameter an operation does not declare, or one given twice,
is refused (422 problem+json) rather than ignored — `view?seq=-1` must not read as a valid
request that was honoured. What each declared parameter may hold is its route's business
(types and bounds in its signature, `seq`/`as` checked against the game there)."""

from __future__ import annotations

from fastapi import Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from domain.model.errors import KirokuError

_KNOWN: dict[int, frozenset[str]] = {}


def _declared(route: APIRoute) -> frozenset[str]:
    known = _KNOWN.get(id(route))
    if known is None:
        known = _KNOWN[id(route)] = frozenset(_query_names(route.dependant))
    return known


def _query_names(dependant: Dependant) -> set[str]:
    """The query parameters of an operation and of every dependency it has."""
    names = {param.alias for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


async def known_query(request: Request) -> None:
    """An app-wide dependency for the API's operations (the pages, outside the document, take
    whatever a browser adds to their address)."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not route.include_in_schema:
        return
    params = request.query_params
    if not params:
        return
    known = _declared(route)
    unknown = sorted({name for name in params if name not in known})
    if unknown:
        names = "、".join(unknown)
        allowed = "、".join(sorted(known)) or "なし"
        raise KirokuError(
            "unknown_parameter",
            "この操作は問い合わせパラメータ {names} を受け付けません（使えるもの: {allowed}）。",
            params={"names": names, "allowed": allowed},
        )
    repeated = sorted({name for name in params if len(params.getlist(name)) > 1})
    if repeated:
        names = "、".join(repeated)
        raise KirokuError(
            "repeated_parameter",
            "問い合わせパラメータ {names} が二度以上指定されています。一度だけにしてください。",
            params={"names": names},
        )
