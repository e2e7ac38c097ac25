"""The pages a table plays through: server-rendered shells (Jinja2, autoescaped) and small ES
modules under /static. The shells carry no game data: the page's scripts read it through the
same API and the same redaction as every other client, signed in by the session cookie."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader

from api.deps import GameId
from domain.rulesets import all_rulesets

HERE = Path(__file__).parent
STATIC_DIR = HERE / "static"
templates = Jinja2Templates(
    env=Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True)
)
router = APIRouter(include_in_schema=False)


def static_files() -> StaticFiles:
    return StaticFiles(directory=STATIC_DIR)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    """Create a game: ruleset, title, seats, options; then the links to hand out."""
    rulesets = [(r.id, r.default_referee, r.hosted) for r in all_rulesets()]
    return templates.TemplateResponse(request, "home.html", {"rulesets": rulesets, "page": "home"})


@router.get("/g/{game_id}/join", response_class=HTMLResponse)
def join_page(request: Request, game_id: GameId) -> HTMLResponse:
    """Takes the invite (or token) from the URL fragment, which never reaches a server."""
    return templates.TemplateResponse(request, "join.html", {"game_id": game_id, "page": "join"})


PANES_DIR = STATIC_DIR / "panes"


def ruleset_panes() -> list[str]:
    """Rulesets with a pane of their own: `static/panes/<ruleset id>.js` (see its README)."""
    return sorted(path.stem for path in PANES_DIR.glob("*.js"))


@router.get("/g/{game_id}", response_class=HTMLResponse)
def table_page(request: Request, game_id: GameId) -> HTMLResponse:
    context = {"game_id": game_id, "page": "table", "panes": " ".join(ruleset_panes())}
    return templates.TemplateResponse(request, "table.html", context)


@router.get("/g/{game_id}/replay", response_class=HTMLResponse)
def replay_page(request: Request, game_id: GameId) -> HTMLResponse:
    """Step through the game as one audience saw it (the replay API, signed in by the cookie);
    after the end, the dispute report beside the log."""
    context = {"game_id": game_id, "page": "replay", "panes": " ".join(ruleset_panes())}
    return templates.TemplateResponse(request, "replay.html", context)
