"""Chapter 5's combat as the server knows it: hands and the deck included, never shown unfiltered.

One combat at a time lives on `ChojinState.combat` (None outside combat). Immutable like the
rest of the state: folds copy (`changes.combat`, `changes.fighter`), never mutate.

Who is in it: `fighters`, keyed by an id — a player's seat number for a character (1…N), or
101 and up for an NPC or obstacle (6.2), so the two never collide.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from domain.rulesets.chojin_locke.playing_cards import PlayingCard

NPC_IDS_START = 101

# 5.1's flow: (1) 戦闘参加 → (2) コマ移動 → (3) 戦闘前 → (4) 手札 → (5) イニシアチブ →
# (6) 戦闘手番 → (7) ラウンド終了 → back to (2), or over
Step = Literal["joining", "moving", "before", "hands", "initiative", "turns", "round_end"]
# 5.2: a combat turn's phases
CombatPhase = Literal["check", "support1", "main", "support2"]
Kind = Literal["攻撃", "防御", "逃避", "特殊"]
HAND_LIMIT = 7  # 5.1 (4): 「基本的に手札上限枚数は7枚です。」


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Maintained(_Frozen):
    """A defence kept up (5.4): no other defence or escape while it stands; an attack of its
    LV or more pierces it."""

    card: str
    lv: int


class Fighter(_Frozen):
    """A participant (6.1 戦闘参加者): a character, an obstacle (障害), a 残留思念, or an エスパー
    NPC (6.2 l.1320–1332: a character of the NPCs, with a hand, played by the host)."""

    id: int
    name: str  # the character's name once public, else "Seat N"; the NPC's name
    kind: Literal["character", "obstacle", "remnant", "esper"] = "character"
    seat: int | None = None  # the player who controls it (a character's own seat)
    joined_round: int = 1
    hand_limit: int = HAND_LIMIT  # raised by [手下:X] (3.1, line 323)
    minions: int = 0  # 手下 declared (their number only, 3.1 line 322–323)
    minion_level: int | None = None  # secret to the seat: the X of [手下:X]
    initiative: PlayingCard | None = None  # dealt face up each round (5.1 (5))
    acted: bool = False  # its combat turn this round is over (or skipped by 同調)
    defence: Maintained | None = None
    proxy: bool = False  # a [代理:X] fights in its place (public: 「代理を使用することだけを宣言」)
    # 気絶状態 (6.1 l.1264–1270, combat/fainting.py): fainted through the end of this round
    # (0: not fainted)
    fainted_until: int = 0
    left: bool = False  # escaped the combat (逃避) and waits for 5.7
    moved: bool = False  # left, and its piece moved (5.7: 「戦闘から離脱しコマを移動させた」)
    # obstacles (6.2): one participant, each member's endurance kept apart
    # remaining endurance per member; an エスパー's own as its one member; empty for a character
    members: Sequence[int] = []
    firepower: int = 0  # an obstacle's (total) weapon firepower; a remnant's 火力
    jammer: bool = False  # holds a working ESPジャマー (6.1 l.1248–1262, 6.2 l.1303–1310)
    jammer_lv: int = 0  # its X (ESPジャマーLV:X)
    illusion_immune: bool = False  # 「幻覚の効果を受けない」 (6.2 l.1312–1318)
    esp_level: int = 0  # an エスパー NPC's ESP能力レベル (6.2 l.1322–1324; its power is infinite)
    shift: int = 0  # an エスパー NPC's [格闘:X]
    from_square: bool = False  # an NPC the square's effect brought in (6.2 l.1341–1344)


class Attack(_Frozen):
    """An attack being resolved (5.4–5.6): from the card's reveal to the damage roll."""

    attacker: int
    target: int
    card: str | None = None  # None: a 格闘 attack (5.6), an obstacle's weapons, a 残留思念's
    weapon: bool = False  # an obstacle's attack with its weapons (6.2 l.1295), not 格闘
    remnant: bool = False  # a 残留思念's attack (6.1 l.1184–1199): no answer, no LV, no suit
    lv: int  # the final LV (同調 raises it by one per joining card, 5.5)
    firepower: int
    joiners: Sequence[int] = []  # fighters who joined by 同調 (a 残留思念's: by its 同調)
    joined_cards: Sequence[str] = []  # the cards that joined, one per joiner (an ESPジャマー)
    hinderers: Sequence[int] = []  # 残留思念 that hindered a 残留思念's attack (妨害)
    awaiting: Literal["sync", "response", "endurance", "counter"] = "response"
    defended_by: str | None = None  # the C-card the target answered with, if any
    declared_endurance: int | None = None  # 格闘: the attacker's declared endurance (= firepower)
    counter: int | None = None  # 格闘: the target's declared firepower when it fights back
    # 5.5: who may still answer the 同調 request (each joins or declines); the attacker itself
    # while it has 手下 to join from its hand (3.1 l.325–329)
    sync_waiting: Sequence[int] = []
    minion_joins: int = 0  # 手下 who joined (each from the attacker's hand, no power spent)
    shift: int = 0  # 格闘: the attacker's declared [格闘:X] total (public, 3.1 l.334–335)
    # 5.4 l.1048, 1057: the [対抗(攻撃)] abilities and ability cards its target used against it
    # (named aloud, public; each once per attack — combat/counter.py)
    counters: Sequence[str] = []
    # SEALED to the attacker (never in a view): its 格闘 endurance includes its [スーツ:X], so
    # the counter's damage goes to the suit (3.1 l.366–367)
    suit: bool = False

    @property
    def melee(self) -> bool:
        """A 格闘 attack (5.6): no card, not an obstacle's weapons, not a 残留思念's."""
        return self.card is None and not self.weapon and not self.remnant


class JoinRequest(_Frozen):
    """実は参加していたチェック (5.1 (1)③): an onlooker's check, waiting for every player's
    consent (combat/joining.py)."""

    person: str
    waiting: Sequence[int]


class Combat(_Frozen):
    square: str  # board key: "planet:square" (惑星編) or "row:col" (秘密基地編)
    stage: Literal["planet", "base"]
    started_by: int  # the seat whose 戦闘発生 (or square) began it
    round: int = 1
    step: Step = "joining"
    fighters: Mapping[int, Fighter] = {}
    order: Sequence[int] = []  # this round's initiative order (5.1 (5))
    current: int | None = None  # whose combat turn it is
    phase: CombatPhase = "check"
    main_done: bool = False  # 5.2: one main action per combat turn
    converted: Sequence[int] = []  # 改心 targets tried this combat turn (4.3: once each)
    supported: Sequence[str] = []  # [支援] abilities used this combat turn (3.1: once each)
    # 3.1 l.293–300: the [攻撃]/[逃避] actions the fighter whose combat turn it is has taken
    # in it by a main or support action; each excludes the other (combat/exclusive.py)
    turn_actions: Sequence[Literal["攻撃", "逃避"]] = []
    attacked: bool = False  # an attack action this round (even a misfire, 5.4 1.)
    attack: Attack | None = None
    # the C-card deck (secret order, drawn from the front), the discard pile, and each hand:
    # a hand is sealed to its seat; only the count is public
    deck: Sequence[str] = []
    discard: Sequence[str] = []
    face_down: Sequence[int] = []  # indices into `discard` laid face down (sealed to their seat)
    hands: Mapping[int, Sequence[str]] = {}
    locked: Mapping[int, Sequence[str]] = {}  # back in hand by an ESPジャマー until round end
    # 6.1 l.1195: a target attacked by a 残留思念 → the round it was (combat/remnant.py)
    haunted: Mapping[int, int] = {}
    continuing: Mapping[int, bool] = {}  # 5.1 (7)②: who wants to go on
    discarding: Sequence[int] = []  # 5.1 (7)③: fighters still to discard down (or keep)
    initiative_deck: Sequence[str] = []  # this round's playing-card order, secret
    # 5.1 (1) 戦闘参加 and (3) 戦闘前 (combat/joining.py, combat/before.py)
    join_checked: Sequence[int] = []  # seats that made 実はそこにいた/実は生きていた this combat
    join_request: JoinRequest | None = None  # 実は参加していた, waiting for every consent
    mystery: Sequence[int] = []  # fighters that declared 謎の特殊能力 in this combat
    # [戦闘前] abilities used in this combat, by fighter (secret: the names are sealed)
    before_used: Mapping[int, Sequence[str]] = {}
    # 3.1 l.284–285 [死亡時]: the characters that have just died and may still use such an
    # ability, each with those it used (named aloud: public); what follows from their deaths
    # waits for them (combat/death.py)
    dying: Mapping[int, Sequence[str]] = {}

    def living(self) -> list[Fighter]:
        return [f for f in self.fighters.values() if not f.left]


AftermathPhase = Literal["square", "support", "combat"]


class Aftermath(_Frozen):
    """5.7 戦闘離脱後の処理 (combat/leaving.py): once the combat they left is over, each fighter
    that left it and moved its piece plays マスの効果発動 → 支援 → 戦闘発生 still treated as in
    combat: its spent ESP power and its hand are kept until its phases are over."""

    queue: Sequence[int]  # the leavers still to go, nearest the turn player first; [0] plays
    phase: AftermathPhase = "square"
    # each leaver's kept C-cards, SEALED to its seat (only the count is public)
    hands: Mapping[int, Sequence[str]] = {}
    ends_turn: bool = False  # the combat was the turn's 戦闘発生フェイズ: the turn ends after
    converted: Sequence[int] = []  # 改心 targets tried in the current leaver's 支援フェイズ
    supported: Sequence[str] = []  # [支援] abilities used in it (3.1: each once per 手番)
