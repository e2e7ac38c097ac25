"""4.1 setup commands: deal, 拒否/直前拒否, fixing the characters."""

from __future__ import annotations

from typing import Literal

from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.records import Draft
from domain.rulesets.chojin_locke.dealing import deal_cards, deal_sheets
from domain.rulesets.chojin_locke.guards import living, playing, stage
from domain.rulesets.chojin_locke.rules import CHOJIN_LOCKE, ChojinTable
from domain.rulesets.chojin_locke.setup_events import CharactersFixed, SheetRefused


@CHOJIN_LOCKE.command("deal")
class Deal(Command):
    """Host: deal the character sheets (again, after a refusal)."""


@CHOJIN_LOCKE.decides(Deal)
def deal(t: ChojinTable, command: Deal, actor: str) -> list[Draft]:
    t.referee_only(actor, "deal the character sheets")
    state = playing(t)
    stage(state, "deal")
    if state.deals:
        raise RuleViolation("already_dealt", "The sheets are dealt; they are redealt on 拒否.")
    return deal_sheets(t)


@CHOJIN_LOCKE.command("refuse")
class Refuse(Command):
    """拒否 (once a game) or 直前拒否 (any number of times): the sheets are dealt again."""

    kind: Literal["refuse", "refuse_previous"] = "refuse"


@CHOJIN_LOCKE.decides(Refuse)
def refuse(t: ChojinTable, command: Refuse, actor: str) -> list[Draft]:
    number = t.seat_of(actor)
    state = playing(t)
    stage(state, "deal")
    if not state.deals or state.fixed:
        raise RuleViolation("nothing_to_refuse", "There is no open deal to refuse.")
    player = living(state, number)
    if command.kind == "refuse" and player.refused:
        raise RuleViolation("refusal_used", "拒否 may be declared once per game.")
    # 直前拒否 is for last game's character or one refused this game; Kiroku cannot know the
    # previous game, so it is taken on trust (docs/rulings.md).
    event = SheetRefused(seat=number, kind=command.kind)
    return [Draft(event), *deal_sheets(t)]


@CHOJIN_LOCKE.command("fix_characters")
class FixCharacters(Command):
    """Host: nobody refuses any more; deal the playing cards."""


@CHOJIN_LOCKE.decides(FixCharacters)
def fix_characters(t: ChojinTable, command: FixCharacters, actor: str) -> list[Draft]:
    t.referee_only(actor, "fix the characters")
    state = playing(t)
    stage(state, "deal")
    if not state.deals or state.fixed:
        raise RuleViolation("nothing_to_fix", "Deal the sheets first.")
    seats = sorted(state.players)
    return [Draft(CharactersFixed(evil=state.evil_dealt())), *deal_cards(t, seats)]
