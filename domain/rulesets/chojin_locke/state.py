"""The ruleset's state as the server knows it: secrets included, never shown unfiltered.

Immutable: frozen models and read-only collections (Sequence, Mapping; lists and dicts at run
time, as a snapshot restores them). A fold builds a new state (changes.py) and never changes the
one it is given, so an earlier state stays what it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.rulesets.chojin_locke.cards import Catalog, CharacterSheet
from domain.rulesets.chojin_locke.combat.state import Aftermath, Combat
from domain.rulesets.chojin_locke.playing_cards import PlayingCard

Stage = Literal["deal", "silhouettes", "rebalance", "ambush", "planet", "keys", "base", "over"]
# black_hole: fell in (4.4: dead); disabled: 永続的に行動不能, alive but never acts again
Condition = Literal["normal", "bound", "arrested", "partner", "dead", "black_hole", "disabled"]
Phase = Literal[
    "check",
    "support1",
    "main",
    "square",
    "support2",
    "combat",
    # the 2002 rulebook's turn (ch. 9)
    "victory",
    "recovery",
    "move",
    "instruction",
    "destruction",
]
PHASES: tuple[Phase, ...] = ("check", "support1", "main", "square", "support2", "combat")
PHASES_2002: tuple[Phase, ...] = (
    "victory",
    "recovery",
    "move",
    "instruction",
    "combat",
    "destruction",
)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Position(_Frozen):
    planet: int = Field(ge=0, le=5)
    square: int = Field(ge=0, le=5)  # 0 is the spaceport


class Cell(_Frozen):
    """A square of 秘密基地編's 6×6 base (rows and columns 0–5)."""

    row: int = Field(ge=0, le=5)
    col: int = Field(ge=0, le=5)


class Player(_Frozen):
    seat: int
    sheet: CharacterSheet | None = None  # secret to the seat until opened or the end
    refused: bool = False  # 拒否 used this game
    refused_names: Sequence[str] = []
    card: PlayingCard | None = None  # secret to the seat
    silhouette: str | None = None  # secret until all are revealed
    revealed_silhouette: str | None = None
    side: Literal["explorer", "base"] | None = None
    step: int = 0  # index into the sheet's alignment steps (改心)
    flags: Sequence[str] = []  # factions that have tried to convert this character
    endurance_damage: int = 0
    willpower_damage: int = 0
    power_spent: int = 0
    # [スーツ:X] (3.1 l.354–366), secret to the seat: damage on the suit, and whether it broke
    # (「死亡するまで使用できなくなります」)
    suit_damage: int = 0
    suit_broken: bool = False
    # [代理:X] (3.1 l.368–376): damage on the proxy (kept when it withdraws), and destroyed
    proxy_damage: int = 0
    proxy_broken: bool = False
    condition: Condition = "normal"
    prison_failures: int = 0
    info: int = 0  # 情報入手 cards held
    position: Position | None = None  # 惑星編
    cell: Cell | None = None  # 秘密基地編, inside the base
    outside: bool = False  # 秘密基地周辺: waiting to pass 侵入チェック
    intrusion_failures: int = 0
    sheet_open: bool = False
    abilities: Sequence[str] = []  # ability cards held (face up or down), secret to the seat
    # 4.7: cards turned face up by using them, still held until death (public: they lie open)
    face_up: Sequence[str] = []
    inspections: int = 0  # base players' sheets this player may still look at (4.5)
    inspected: Mapping[int, CharacterSheet] = {}  # secret to this player

    @property
    def faction(self) -> str:
        assert self.sheet is not None
        return self.sheet.steps[self.step]

    @property
    def alive(self) -> bool:
        return self.condition not in ("dead", "black_hole")

    @property
    def active(self) -> bool:
        """Still able to act: neither dead, in the black hole nor permanently disabled."""
        return self.alive and self.condition != "disabled"


class PartyTeleport(_Frozen):
    """A leader's teleport waiting for each partner's own ESP level declaration (6.1)."""

    declared: Mapping[int, int]
    direction: Literal["left", "right"] | None = None
    faces: Sequence[int] | None = None
    waiting: Sequence[int]


class Turn(_Frozen):
    seat: int
    number: int
    phase: Phase = "check"
    main: str | None = None  # the main action taken, once
    converted: Sequence[int] = []  # targets of 改心 this turn
    teleport: int | None = None  # 秘密基地編: squares a successful teleport still has to go
    supported: Sequence[str] = []  # [支援] abilities used this turn (each once per turn)
    party_teleport: PartyTeleport | None = None
    # 4.4 (line 705): bound at any time this turn, so everything but the check phase is
    # skipped even once released: 「拘束状態が解除されたターンでは
    # チェックフェイズ以外の全てのフェイズがスキップされます。」
    bound: bool = False
    # 3.2 (lines 398–399): the turn began beside a character with the identical silhouette card
    must_pass: bool = False


class Victory(_Frozen):
    """A victory declaration waiting for every other living player's answer."""

    seat: int
    faction: str
    waiting: Sequence[int]


class Proposal(_Frozen):
    """パーティーを組む: the leader's offer, waiting for every proposed partner's answer."""

    leader: int
    partners: Sequence[int]
    waiting: Sequence[int]


class Board(_Frozen):
    cards: Mapping[str, str] = {}  # "planet:square" → card name (secret until turned)
    turned: Mapping[str, str] = {}  # public: cards turned face up
    ambushes: Sequence[str] = []  # squares holding 待ち伏せ (secret to base players)
    # 4.5 (l.744–745): the base player who handles each 待ち伏せ, its placer (secret likewise)
    ambush_handlers: Mapping[str, int] = {}
    lafnor: Sequence[str] = []  # cards swapped out by ambushes (惑星ラフノール pile)
    base: Mapping[str, str] = {}  # "row:col" → base card (secret until turned)
    base_turned: Mapping[str, str] = {}
    keys: Sequence[str] = []  # squares holding 重要拠点 (secret to base players)
    destroyed: Sequence[str] = []  # 重要拠点 destroyed (public)
    unused: Sequence[str] = []  # planet cards left in the deck, in shuffled order (secret)
    ability_deck: Sequence[str] = []  # in shuffled order, secret; drawn from the front


EndReason = Literal[
    "victory", "sole_victory", "keys_destroyed", "all_dead", "all_out", "vigil", "host"
]


class Ending(_Frozen):
    reason: EndReason
    faction: str | None = None
    seat: int | None = None


class ChojinState(_Frozen):
    catalog: Catalog
    seats: int
    rules: Literal["2020", "2002"] = "2020"
    stage: Stage = "deal"
    deals: int = 0
    fixed: bool = False
    choosing: Sequence[int] = []  # seats that must (re)choose a silhouette
    choice_order: Sequence[int] = []  # the choosing seats in the order of their current choice
    players: Mapping[int, Player] = {}
    turn: Turn | None = None
    board: Board = Board()
    victory: Victory | None = None
    proposal: Proposal | None = None
    parties: Mapping[int, Sequence[int]] = {}  # leader → partners
    ending: Ending | None = None
    vigil_turns: int = 1000  # 4.2: the Evil declarer's unmoved turns that end the game
    vigils: Mapping[int, int] = {}  # Evil victory declarer → turns begun since it last moved
    combat: Combat | None = None  # chapter 5, while a combat runs (combat/state.py)
    aftermath: Aftermath | None = None  # 5.7, after a combat some fighters left (combat/leaving.py)
    # 5.1 (1)③: onlookers who made 実は参加していたチェック (once per person per game)
    joined_persons: Sequence[str] = []
    # 6.2 l.1344 「マスの効果によるNPCの発生は最初の1回のみです。」: the squares ("stage:square")
    # whose effect has brought an NPC into a combat (combat/square_npc.py)
    npc_squares: Sequence[str] = []
    last_event: int = 0

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def party_of(self, seat: int) -> list[int]:
        """Everyone in `seat`'s party (itself included), or just itself."""
        for leader, partners in self.parties.items():
            if seat == leader or seat in partners:
                return [leader, *partners]
        return [seat]

    def evil_dealt(self) -> int:
        return sum(1 for p in self.players.values() if p.sheet and p.sheet.steps[0] == "E")
