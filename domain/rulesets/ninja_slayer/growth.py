"""The sheet changed by logged events: growth and purchases in the 余暇, weapons picked up in
the 本編 (2-1 即応ダイスの個数, 2-2).

L37 「続く「余暇」では、【万札】を費やして成長や強化を行ったり」: growth is a 余暇 matter; L28
「シナリオ中に武器を拾うと、その占有スロット分だけ即応ダイスが失われてしまう」: a weapon gained in
the 本編 costs its slots in 即応ダイス at once (one gained in the 余暇 counts from the next
scenario's start). The costs of growth and items are not in the scrape: the change says what
【万札】 it spends (`manzatsu`), and it never goes below 0.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from domain.model.audience import GM
from domain.model.commands import Command
from domain.model.errors import Forbidden, KirokuError, RuleViolation
from domain.model.events import Event
from domain.model.logline import Names
from domain.model.messages import N_, Message, read, source
from domain.model.records import Draft

from . import checks, guards
from .campaign import stage
from .changes import noted, with_characters
from .fields import CharacterId
from .rules import NINJA_SLAYER, NinjaTable
from .sheet import Sheet, Weapon
from .state import NinjaState
from .words import STATS, joined, said

ChangeKind = Literal["成長", "装備", "購入", "その他"]
CHANGE_WORDS = (N_("成長"), N_("装備"), N_("購入"), N_("その他"))  # how a refusal reads a kind
NUMBERS: dict[str, str] = {
    **{key: name for key, name in STATS.items() if key != "dkk"},  # 【DKK】 is `adjust`'s
    "manzatsu": N_("万札"),
    "emergency_dice": N_("緊急回避ダイス"),
    "multi_attack": N_("連続攻撃"),
    "multi_shot": N_("連射"),
    "evasion_modifier": N_("回避修正"),
    "initiative_modifier": N_("機先修正"),
}
# Sheet numbers whose current value moves with them (the 【体力】 and 【精神力】 maxima too).
CURRENT = {
    "karate": "karate",
    "neuron": "neuron",
    "wazamae": "wazamae",
    "jitsu": "jitsu",
    "kyakuryoku": "kyakuryoku",
    "tairyoku": "tairyoku",
    "seishin": "seishin",
    "emergency_dice": "emergency",
}


class SheetChange(BaseModel):
    """What one logged change does to a sheet."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ChangeKind
    changes: dict[str, int] = Field(default_factory=dict, max_length=13)
    add_weapons: tuple[Weapon, ...] = Field(default=(), max_length=5)
    remove_weapons: tuple[str, ...] = Field(default=(), max_length=5)
    add_skills: tuple[str, ...] = Field(default=(), max_length=10)
    remove_skills: tuple[str, ...] = Field(default=(), max_length=10)
    reason: str = Field(min_length=1, max_length=200)

    def applied(self, sheet: Sheet) -> Sheet:
        numbers = {key: getattr(sheet, key) + delta for key, delta in self.changes.items()}
        gone = set(self.remove_weapons)
        weapons = (*[w for w in sheet.weapons if w.name not in gone], *self.add_weapons)
        skills = [s for s in sheet.skills if s not in set(self.remove_skills)]
        update = {**numbers, "weapons": weapons, "skills": (*skills, *self.add_skills)}
        # Validated again: a change may not take the sheet out of its bounds.
        return Sheet.model_validate({**sheet.model_dump(), **update})

    def words(self) -> Message:
        """「成長: 【カラテ】+1 【万札】-3 (カラテ特訓)」: numbers by the rulebook's names,
        weapons and skills as their sheet names them, the reason as it was written."""
        parts = [
            Message(N_("【{number}】{delta}"), {"number": NUMBERS[k], "delta": f"{v:+d}"})
            for k, v in self.changes.items()
        ]
        parts += [Message(N_("武器+{weapon}"), {"weapon": said(w.name)}) for w in self.add_weapons]
        parts += [Message(N_("武器-{weapon}"), {"weapon": said(n)}) for n in self.remove_weapons]
        parts += [Message(N_("スキル+{skill}"), {"skill": n}) for n in self.add_skills]
        parts += [Message(N_("スキル-{skill}"), {"skill": n}) for n in self.remove_skills]
        kind = next(word for word in CHANGE_WORDS if word == self.kind)
        return Message(
            N_("{kind}: {parts} ({reason})"),
            {"kind": kind, "parts": joined(parts), "reason": self.reason},
        )

    def says(self) -> str:
        """`words` in Japanese, for the sheet's history."""
        words = self.words()
        return read(words.key, words.params, source)


@NINJA_SLAYER.event
class SheetChanged(Event):
    character: str
    stage: str  # the stage it happened in (a weapon in the 本編 costs 即応ダイス)
    change: SheetChange | None = None
    secret: SheetChange | None = None  # a private PC's, or an unrevealed NPC's


@NINJA_SLAYER.folds(SheetChanged)
def _changed(state: NinjaState, event: SheetChanged, seq: int) -> NinjaState:
    change = event.change or event.secret
    found = state.characters.get(event.character)
    if change is None or found is None:
        return state
    now = {
        CURRENT[k]: getattr(found.now, CURRENT[k]) + v
        for k, v in change.changes.items()
        if k in CURRENT
    }
    if event.stage == "本編":
        slots = sum(w.slots for w in change.add_weapons)
        now["reaction"] = max(0, found.now.reaction - slots)
    update = {"sheet": change.applied(found.sheet), "now": found.now.model_copy(update=now)}
    state = with_characters(state, found.model_copy(update=update))
    return noted(state, event.character, seq, change.says())


@NINJA_SLAYER.says_named(SheetChanged)
def _says(e: SheetChanged, names: Names) -> Message:
    change = e.change or e.secret
    return Message(
        N_("{character} シートの変更 — {change}"),
        {
            "character": names.of(e.character),
            "change": change.words() if change else Message(N_("(非公開)")),
        },
    )


@NINJA_SLAYER.command("change_sheet")
class ChangeSheet(Command):
    """The sheet changes: 成長 and 購入 in the 余暇 (the GM, or the player for their PC), a weapon
    picked up in the 本編 (GM). `changes` add to the sheet's numbers (【万札】 spent: negative)."""

    character: str = CharacterId
    change: SheetChange


@NINJA_SLAYER.decides(ChangeSheet)
def change_sheet(t: NinjaTable, command: ChangeSheet, actor: str) -> list[Draft]:
    state = t.started()
    found = guards.controlled(state, command.character, actor)
    change = command.change
    if actor != GM and state.stage != "余暇":
        raise Forbidden("gm_only", "余暇の外では、シートの変更はGMが行う。")
    if change.kind in ("成長", "購入"):
        stage(state, "余暇", what=change.kind)
    unknown = sorted(set(change.changes) - set(NUMBERS))
    if unknown:
        raise KirokuError(
            "unknown_value",
            "シートの{unknown}は変えられない。",
            params={"unknown": ", ".join(unknown)},
        )
    if found.sheet.manzatsu + change.changes.get("manzatsu", 0) < 0:
        raise RuleViolation(
            "not_enough_manzatsu",
            "{found}の【万札】は{manzatsu}しかない。",
            params={"found": found.name, "manzatsu": found.sheet.manzatsu},
        )
    missing = set(change.remove_weapons) - {w.name for w in found.sheet.weapons}
    if missing:
        raise RuleViolation(
            "unknown_weapon",
            "{found}は{missing}を持っていない。",
            params={"found": found.name, "missing": "・".join(sorted(missing))},
        )
    try:
        change.applied(found.sheet)
    except ValidationError as error:
        field = ".".join(str(p) for p in error.errors()[0]["loc"])
        raise KirokuError(
            "bad_sheet_change",
            "その変更ではシートが成り立たない ({field})。",
            params={"field": field},
        ) from None
    shown, sealed, audience = checks.placed(found, change)
    event = SheetChanged(character=found.id, stage=state.stage, change=shown, secret=sealed)
    return [Draft(event, audience=audience)]
