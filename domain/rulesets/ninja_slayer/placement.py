"""2-9 ターン終了フェイズ: 新たなキャラの配置, and ニンジャスレイヤー's entry after Wasshoi! (2-15).

「ここでマスターが行う最も重要な処理は、「新たなキャラの配置」である。ターン終了フェイズで他にも
処理すべきルールがある場合、「新たなキャラの配置」を一番最後に処理すること。」 A placed character
joins the combat: the next turn gives it 回避ダイス, a place in the initiative order and a 手番.
Until then it is not in the fight and cannot be attacked.
"""

from __future__ import annotations

from pydantic import Field

from domain.model.audience import GM
from domain.model.commands import Command
from domain.model.errors import RuleViolation
from domain.model.events import Event
from domain.model.messages import N_, Message
from domain.model.records import Draft

from . import guards
from .combat_events import CharactersPlaced
from .equipment import require_owned
from .events import CharacterAdded
from .fields import CharacterId
from .rules import NINJA_SLAYER, NinjaTable
from .sheet import Sheet
from .state import Combat, NinjaState

NINJA_SLAYER_ID = "ninja_slayer"
NINJA_SLAYER_NAME = "ニンジャスレイヤー"
# ◆ニンジャスレイヤー (種別:ニンジャ), 2-15: カラテ 13 体力 13 / ニューロン 7 精神力 9 /
# ワザマエ 10 脚力 7 / ジツ 0; 攻撃/射撃/機先/電脳 13/10/7/7; 回避 14 (13 + 1).
NINJA_SLAYER_SHEET = Sheet(
    karate=13,
    neuron=7,
    wazamae=10,
    jitsu=0,
    tairyoku=13,
    seishin=9,
    kyakuryoku=7,
    evasion=True,
    evasion_modifier=1,
    sokushi_resistance=True,  # ●即死耐性
    strike_tsuda=1,  # 「出目【6】を含んで成功した各『近接攻撃』は、『痛打+1』となる」
    multi_attack=3,
    multi_shot=2,
    skills=(
        "装備:家族の写真、パーソナルメンポ、伝統的ニンジャ装束",
        "●連続攻撃3",
        "●連射2",
        "●時間差",
        "●マルチターゲット",
        "◉ランスキック",
        "◉◉憎悪:ニンジャソウルの闇",
        "◉ヘルタツマキ",
        "◉ツヨイ・スリケン",
        "◉ナラク・ウィズイン",
        "●即死耐性",
        "回避判定: あらゆる近接攻撃とスリケン射撃に対して回避難易度−1",
        "素手近接攻撃: 出目【6】を含んで成功した各『近接攻撃』は『痛打+1』",
    ),
)


def _placeable(state: NinjaState, combat: Combat, ids: list[str]) -> None:
    for i in ids:
        found = guards.character(state, i)
        if i in combat.participants:
            raise RuleViolation(
                "already_in_combat",
                "{found} is already in the combat.",
                params={"found": found.name},
            )
        if not found.on_map:
            raise RuleViolation(
                "not_on_map", "{found} is no longer on the map.", params={"found": found.name}
            )


@NINJA_SLAYER.command("place_characters")
class PlaceCharacters(Command):
    """GM, ターン終了フェイズ, last of all: new characters join the combat from the next turn."""

    characters: list[str] = Field(min_length=1, max_length=40)
    weapons: dict[str, str] = Field(
        default_factory=dict, max_length=40, description="Declared weapons; else 素手&スリケン"
    )


@NINJA_SLAYER.decides(PlaceCharacters)
def place(t: NinjaTable, command: PlaceCharacters, actor: str) -> list[Draft]:
    state, combat = guards.at_turn_end(t, actor, "place new characters")
    ids = list(dict.fromkeys(command.characters))
    _placeable(state, combat, ids)
    for i, weapon in command.weapons.items():
        if i not in ids:
            named = state.characters[i].name if i in state.characters else i
            raise RuleViolation("not_in_combat", "{i} is not being placed.", params={"i": named})
        require_owned(state.characters[i], weapon)
    return [Draft(CharactersPlaced(characters=tuple(ids), weapons=command.weapons))]


@NINJA_SLAYER.command("ninja_slayer_enters")
class NinjaSlayerEnters(Command):
    """GM, ターン終了フェイズ after a successful Wasshoi!: ニンジャスレイヤー is placed (his
    statblock is the rulebook's, public); the entry table says how he appears."""

    id: str = CharacterId


@NINJA_SLAYER.event
class NinjaSlayerArrived(Event):
    """He arrives outside a combat, after a Wasshoi! rolled there (ruling NS-050): he is in the
    scene; a combat the GM begins may include him."""

    character: str


@NINJA_SLAYER.folds(NinjaSlayerArrived)
def _arrived(state: NinjaState, event: NinjaSlayerArrived, seq: int) -> NinjaState:
    return state.model_copy(update={"wasshoi_success": False, "entry_rolls": 0})


@NINJA_SLAYER.says(NinjaSlayerArrived)
def _says_arrived(e: NinjaSlayerArrived) -> Message:
    # the character is the one named ニンジャスレイヤー (`_added`, NINJA_SLAYER_NAME): his name
    # is the line's, in the reader's language
    return Message(N_("Wasshoi! ニンジャスレイヤー=サン参上!"))


def _added(state: NinjaState, character_id: str) -> list[Draft]:
    """His statblock as the rulebook prints it, unless he is already in the game."""
    if character_id not in state.characters:
        added = CharacterAdded(
            id=character_id,
            name=NINJA_SLAYER_NAME,
            owner=GM,
            kind="boss",
            sheet=NINJA_SLAYER_SHEET,
        )
        return [Draft(added)]
    if state.characters[character_id].name != NINJA_SLAYER_NAME:
        raise RuleViolation(
            "duplicate_character",
            "{name} has already entered the game in ニンジャスレイヤー's place.",
            params={"name": guards.label(state, character_id)},
        )
    return []


@NINJA_SLAYER.decides(NinjaSlayerEnters)
def enters(t: NinjaTable, command: NinjaSlayerEnters, actor: str) -> list[Draft]:
    state = t.started()
    if state.combat is None:  # 2-15 L191–L192: a Wasshoi! outside a combat
        t.referee_only(actor, "bring ニンジャスレイヤー in")
        if not state.wasshoi_success:
            raise RuleViolation(
                "no_wasshoi", "ニンジャスレイヤー enters after a successful Wasshoi!."
            )
        return [*_added(state, command.id), Draft(NinjaSlayerArrived(character=command.id))]
    state, combat = guards.at_turn_end(t, actor, "bring ニンジャスレイヤー in")
    if not combat.wasshoi_success:
        raise RuleViolation(
            "no_wasshoi",
            "ニンジャスレイヤー enters after a successful Wasshoi! at this turn end.",
        )
    drafts = _added(state, command.id)
    if not drafts:
        _placeable(state, combat, [command.id])
    drafts.append(Draft(CharactersPlaced(characters=(command.id,))))
    return drafts
