"""4.1 setup commands: deal, 拒否/直前拒否, fixing the characters."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.game import GameState
from domain.records import Draft
from domain.rulesets.chojin_locke.commands import Deal, FixCharacters, Refuse
from domain.rulesets.chojin_locke.dealing import deal_cards, deal_sheets
from domain.rulesets.chojin_locke.events import CharactersFixed, SheetRefused
from domain.rulesets.chojin_locke.guards import host, living, playing, seat, stage


def deal(game: GameState, command: Deal, actor: str) -> list[Draft]:
    host(actor, "deal the character sheets")
    state = playing(game)
    stage(state, "deal")
    if state.deals:
        raise RuleViolation("already_dealt", "The sheets are dealt; they are redealt on 拒否.")
    return deal_sheets(game, game.draws + 1)


def refuse(game: GameState, command: Refuse, actor: str) -> list[Draft]:
    number = seat(actor)
    state = playing(game)
    stage(state, "deal")
    if not state.deals or state.fixed:
        raise RuleViolation("nothing_to_refuse", "There is no open deal to refuse.")
    player = living(state, number)
    if command.kind == "refuse" and player.refused:
        raise RuleViolation("refusal_used", "拒否 may be declared once per game.")
    # 直前拒否 is for last game's character or one refused this game; Kiroku cannot know the
    # previous game, so it is taken on trust (docs/rulings.md).
    event = SheetRefused(seat=number, kind=command.kind)
    return [Draft(event), *deal_sheets(game, game.draws + 1)]


def fix_characters(game: GameState, command: FixCharacters, actor: str) -> list[Draft]:
    host(actor, "fix the characters")
    state = playing(game)
    stage(state, "deal")
    if not state.deals or state.fixed:
        raise RuleViolation("nothing_to_fix", "Deal the sheets first.")
    seats = sorted(state.players)
    return [
        Draft(CharactersFixed(evil=state.evil_dealt())),
        *deal_cards(game, seats, game.draws + 1),
    ]
