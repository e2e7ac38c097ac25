"""The pages a table plays through: server-rendered shells (Jinja2, autoescaped) and small ES
modules under /static. The shells carry no game data: the page's scripts read it through the
same API and the same redaction as every other client, signed in by the session cookie."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, pass_context
from jinja2.runtime import Context

from api.deps import GameId
from api.pages import i18n
from domain.model.audience import GM, HOST, seat_number
from domain.model.errors import KirokuError
from domain.model.messages import N_
from domain.rulesets import all_rulesets

HERE = Path(__file__).parent
STATIC_DIR = HERE / "static"


@pass_context
def _context_gettext(context: Context, message: str) -> str:
    return i18n.gettext(message, str(context.get("lang", i18n.DEFAULT)))


@pass_context
def _context_ngettext(context: Context, singular: str, plural: str, n: int) -> str:
    return i18n.Translations(str(context.get("lang", i18n.DEFAULT))).ngettext(singular, plural, n)


_env = Environment(
    loader=FileSystemLoader(HERE / "templates"), autoescape=True, extensions=["jinja2.ext.i18n"]
)
# The page's language rides in its context (`lang`): one environment serves every reader.
_env.install_gettext_callables(  # type: ignore[attr-defined]
    _context_gettext, _context_ngettext, newstyle=True
)
templates = Jinja2Templates(env=_env)
router = APIRouter(include_in_schema=False)


def render(request: Request, name: str, context: dict[str, Any]) -> HTMLResponse:
    """A page in this browser's language (its cookie, else Accept-Language, else Japanese)."""
    language = i18n.language_of(request)
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    full = {**context, "lang": language, "here": here, "languages": i18n.LANGUAGES}
    response = templates.TemplateResponse(request, name, full)
    response.headers["Content-Language"] = language
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


@router.get("/i18n/{language}.json")
def catalog(language: str) -> JSONResponse:
    """The catalog the pages' scripts read (static/i18n.js), from the same .po files."""
    chosen = language if language in i18n.LANGUAGES else i18n.DEFAULT
    return JSONResponse(dict(i18n.CATALOGS[chosen]), headers={"Cache-Control": "no-cache"})


@router.get("/lang/{language}")
def choose_language(language: str, next: str = "/") -> RedirectResponse:
    """The pages' language switch: remembered in a cookie, then back to the page."""
    # Only a path of this site: never another host (`//host`, `/\\host`, `https://host`).
    target = urlsplit(next)
    local = next.startswith("/") and not next.startswith("//") and "\\" not in next
    back = next if local and not target.netloc and not target.scheme else "/"
    response = RedirectResponse(back, status_code=303)
    if language in i18n.LANGUAGES:
        response.set_cookie(
            i18n.COOKIE, language, max_age=i18n.COOKIE_MAX_AGE, samesite="lax", path="/"
        )
    return response


def static_files() -> StaticFiles:
    return StaticFiles(directory=STATIC_DIR)


# The home page's menu names a ruleset in words, never by its id.
RULESET_NAMES = {
    "freeform": N_("Free play (any dice, no ruleset)"),
    "chojin_locke": N_("Chojin Locke (card game)"),
    "ninja_slayer": N_("Ninja Slayer TRPG 2nd edition"),
    "mech_d20": N_("Mech d20"),
}


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    """Create a game: ruleset, title, seats, options; then the links to hand out."""
    rulesets = [
        (r.id, r.default_referee, r.hosted, RULESET_NAMES.get(r.id, r.id)) for r in all_rulesets()
    ]
    return render(request, "home.html", {"rulesets": rulesets, "page": "home"})


@router.get("/g/{game_id}/join", response_class=HTMLResponse)
def join_page(request: Request, game_id: GameId) -> HTMLResponse:
    """Takes the invite (or token) from the URL fragment, which never reaches a server."""
    return render(request, "join.html", {"game_id": game_id, "page": "join"})


PANES_DIR = STATIC_DIR / "panes"


def ruleset_panes() -> list[str]:
    """Rulesets with a pane of their own: `static/panes/<ruleset id>.js` (see its README)."""
    return sorted(path.stem for path in PANES_DIR.glob("*.js"))


@router.get("/g/{game_id}", response_class=HTMLResponse)
def table_page(request: Request, game_id: GameId) -> HTMLResponse:
    context = {"game_id": game_id, "page": "table", "panes": " ".join(ruleset_panes())}
    return render(request, "table.html", context)


@router.get("/g/{game_id}/replay", response_class=HTMLResponse)
def replay_page(request: Request, game_id: GameId) -> HTMLResponse:
    """Step through the game as one audience saw it (the replay API, signed in by the cookie);
    after the end, the dispute report beside the log."""
    context = {"game_id": game_id, "page": "replay", "panes": " ".join(ruleset_panes())}
    return render(request, "replay.html", context)


SESSION_PREFIX = "kiroku_"


@router.get("/my/tables")
def my_tables(request: Request) -> JSONResponse:
    """ "My tables": every game this browser holds a live session for (its cookies are one per
    game, `kiroku_<game id>`), newest activity first: title, system, status, last activity and
    who this browser is there. A revoked or unknown session is left out, never named."""
    service = request.app.state.service
    auth = request.app.state.auth
    language = i18n.language_of(request)
    tables: list[dict[str, Any]] = []
    for name, session in request.cookies.items():
        if not name.startswith(SESSION_PREFIX) or name == i18n.COOKIE:
            continue
        game_id = name.removeprefix(SESSION_PREFIX)
        try:
            actor = auth.session_audience(game_id, session)
            state = service.state(game_id)
            last = next(iter(service.records(game_id, after=state.version - 1)), None)
        except KirokuError:
            continue
        number = seat_number(actor)
        seat = state.seat(number) if number is not None else None
        chairs = {GM: "GM", HOST: i18n.gettext("Host", language)}
        who = seat.name if seat is not None else chairs.get(actor, "")
        tables.append(
            {
                "game_id": game_id,
                "title": state.title,
                "system": i18n.gettext(RULESET_NAMES.get(state.ruleset, state.ruleset), language),
                "status": i18n.gettext(STATUS_NAMES.get(state.status, state.status), language),
                "last_activity": last.envelope.at if last is not None else None,
                "you": who,
            }
        )
    tables.sort(key=lambda table: str(table["last_activity"] or ""), reverse=True)
    return JSONResponse(tables, headers={"Cache-Control": "no-store"})


STATUS_NAMES = {
    "setup": N_("waiting to start"),
    "started": N_("in play"),
    "ended": N_("ended"),
}
