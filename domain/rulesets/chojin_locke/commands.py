"""The ruleset's commands (type `chojin_locke.*`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from domain.commands import Command

Stat = Literal["esp_level", "esp_power", "endurance", "willpower"]
Faces = list[int] | None
_FACES = Field(default=None, max_length=2, description="Physical dice, if the dice policy allows")


class Deal(Command):
    """Host: deal the character sheets (again, after a refusal)."""

    type: Literal["chojin_locke.deal"] = "chojin_locke.deal"


class Refuse(Command):
    """拒否 (once a game) or 直前拒否 (any number of times): the sheets are dealt again."""

    type: Literal["chojin_locke.refuse"] = "chojin_locke.refuse"
    kind: Literal["refuse", "refuse_previous"] = "refuse"


class FixCharacters(Command):
    """Host: nobody refuses any more; deal the playing cards."""

    type: Literal["chojin_locke.fix_characters"] = "chojin_locke.fix_characters"


class ChooseSilhouette(Command):
    type: Literal["chojin_locke.choose_silhouette"] = "chojin_locke.choose_silhouette"
    silhouette: str = Field(min_length=1, max_length=60)


class ChangeSilhouette(Command):
    """Rebalancing: a player of the larger side changes silhouette in the open."""

    type: Literal["chojin_locke.change_silhouette"] = "chojin_locke.change_silhouette"
    silhouette: str = Field(min_length=1, max_length=60)


class CloseRebalance(Command):
    type: Literal["chojin_locke.close_rebalance"] = "chojin_locke.close_rebalance"


class PlaceAmbush(Command):
    type: Literal["chojin_locke.place_ambush"] = "chojin_locke.place_ambush"
    planet: int = Field(ge=0, le=5)
    square: int = Field(ge=0, le=5)


class Enter(Command):
    """An explorer puts their piece on a planet's spaceport."""

    type: Literal["chojin_locke.enter"] = "chojin_locke.enter"
    planet: int = Field(ge=0, le=5)


class BeginPlanets(Command):
    """Host: roll for the first player and start 惑星編."""

    type: Literal["chojin_locke.begin_planets"] = "chojin_locke.begin_planets"


class PlaceKey(Command):
    """A base player's secret placement of a 重要拠点."""

    type: Literal["chojin_locke.place_key"] = "chojin_locke.place_key"
    row: int = Field(ge=0, le=5)
    col: int = Field(ge=0, le=5)


class EnterBase(Command):
    """An explorer with the most 情報入手 enters on one of the 20 outer squares."""

    type: Literal["chojin_locke.enter_base"] = "chojin_locke.enter_base"
    row: int = Field(ge=0, le=5)
    col: int = Field(ge=0, le=5)


class InspectSheet(Command):
    """4.5: after 惑星編 ends on 情報入手, look at a base player's sheet (one per card held)."""

    type: Literal["chojin_locke.inspect_sheet"] = "chojin_locke.inspect_sheet"
    target: int = Field(ge=1, le=16)


class BeginBase(Command):
    """Host: the others wait around the base, base players go to random squares; first turn."""

    type: Literal["chojin_locke.begin_base"] = "chojin_locke.begin_base"


class Intrude(Command):
    """侵入チェック: ESP level check, −1 on the dice per earlier failure; success enters at
    the outer square given."""

    type: Literal["chojin_locke.intrude"] = "chojin_locke.intrude"
    declared: int = Field(ge=0, le=12)
    row: int = Field(ge=0, le=5)
    col: int = Field(ge=0, le=5)
    faces: Faces = _FACES


class TeleportTo(Command):
    """秘密基地編: after a successful teleport, the square reached (exactly the rolled number
    of steps, turning as you like, never through a square twice)."""

    type: Literal["chojin_locke.teleport_to"] = "chojin_locke.teleport_to"
    row: int = Field(ge=0, le=5)
    col: int = Field(ge=0, le=5)


class NextPhase(Command):
    """The turn player ends the current phase."""

    type: Literal["chojin_locke.next_phase"] = "chojin_locke.next_phase"


class Check(Command):
    """A (stat) check asked for by a card or effect: declare the stat, roll 2D6 ≤ declared."""

    type: Literal["chojin_locke.check"] = "chojin_locke.check"
    stat: Stat
    declared: int = Field(ge=0, le=99)
    reason: str = Field(default="", max_length=200)
    faces: Faces = _FACES


class Move(Command):
    """通常移動: one square left or right, or from a spaceport to another planet's."""

    type: Literal["chojin_locke.move"] = "chojin_locke.move"
    direction: Literal["left", "right", "up", "down"] | None = None
    planet: int | None = Field(default=None, ge=0, le=5)


class Teleport(Command):
    """テレポート移動: declare ESP level, 1D6 ≤ declared moves that many squares one way."""

    type: Literal["chojin_locke.teleport"] = "chojin_locke.teleport"
    declared: int = Field(ge=0, le=12)
    direction: Literal["left", "right"] | None = None  # 惑星編 only: one way round the planet
    faces: Faces = _FACES


class DeclareTeleport(Command):
    """A partner's own ESP level declaration for the leader's teleport."""

    type: Literal["chojin_locke.declare_teleport"] = "chojin_locke.declare_teleport"
    declared: int = Field(ge=0, le=12)


class Recover(Command):
    type: Literal["chojin_locke.recover"] = "chojin_locke.recover"
    stat: Literal["endurance", "willpower"]


class Treat(Command):
    type: Literal["chojin_locke.treat"] = "chojin_locke.treat"
    target: int = Field(ge=1, le=16)


class Pass(Command):
    type: Literal["chojin_locke.pass"] = "chojin_locke.pass"


class FormParty(Command):
    """パーティーを組む (main action): propose to characters on your square."""

    type: Literal["chojin_locke.form_party"] = "chojin_locke.form_party"
    partners: list[int] = Field(min_length=1, max_length=10)


class AnswerParty(Command):
    type: Literal["chojin_locke.answer_party"] = "chojin_locke.answer_party"
    accepts: bool


class DissolveParty(Command):
    """パーティーの解散 (support action of the leader)."""

    type: Literal["chojin_locke.dissolve_party"] = "chojin_locke.dissolve_party"


class DestroyKey(Command):
    """2002 rules: a Good character on a turned 重要拠点 declares 破壊 (the move-phase action)."""

    type: Literal["chojin_locke.destroy_key"] = "chojin_locke.destroy_key"


class Escape(Command):
    """脱出チェック: an arrested player's main action."""

    type: Literal["chojin_locke.escape"] = "chojin_locke.escape"
    faces: Faces = _FACES


class UseAbility(Command):
    """Use a special ability of your sheet by naming it (checked against the sealed sheet)."""

    type: Literal["chojin_locke.use_ability"] = "chojin_locke.use_ability"
    ability: str = Field(min_length=1, max_length=60)


class UseAbilityCard(Command):
    """Turn an ability card from your hand face up and use it (its effect is the table's)."""

    type: Literal["chojin_locke.use_ability_card"] = "chojin_locke.use_ability_card"
    card: str = Field(min_length=1, max_length=60)


class OpenSheet(Command):
    type: Literal["chojin_locke.open_sheet"] = "chojin_locke.open_sheet"


class Convert(Command):
    """改心: open your sheet, ESP level check against a character on your square."""

    type: Literal["chojin_locke.convert"] = "chojin_locke.convert"
    target: int = Field(ge=1, le=16)
    declared: int = Field(ge=0, le=12)
    faces: Faces = _FACES


class DeclareVictory(Command):
    type: Literal["chojin_locke.declare_victory"] = "chojin_locke.declare_victory"
    sole: bool = False


class AnswerVictory(Command):
    type: Literal["chojin_locke.answer_victory"] = "chojin_locke.answer_victory"
    objects: bool


class SetCondition(Command):
    """Host: apply damage or a state from something Kiroku does not resolve (combat, cards)."""

    type: Literal["chojin_locke.set_condition"] = "chojin_locke.set_condition"
    seat: int = Field(ge=1, le=16)
    condition: Literal["normal", "bound", "arrested", "dead", "black_hole", "disabled"] = "normal"
    endurance_damage: int = Field(default=0, ge=0, le=99)
    willpower_damage: int = Field(default=0, ge=0, le=99)
    reason: str = Field(min_length=1, max_length=200)


COMMANDS: tuple[type[Command], ...] = (
    Deal,
    Refuse,
    FixCharacters,
    ChooseSilhouette,
    ChangeSilhouette,
    CloseRebalance,
    PlaceAmbush,
    Enter,
    BeginPlanets,
    PlaceKey,
    EnterBase,
    InspectSheet,
    BeginBase,
    Intrude,
    TeleportTo,
    DeclareTeleport,
    NextPhase,
    Check,
    Move,
    Teleport,
    Recover,
    Treat,
    Pass,
    Escape,
    DestroyKey,
    FormParty,
    AnswerParty,
    DissolveParty,
    UseAbility,
    UseAbilityCard,
    OpenSheet,
    Convert,
    DeclareVictory,
    AnswerVictory,
    SetCondition,
)
