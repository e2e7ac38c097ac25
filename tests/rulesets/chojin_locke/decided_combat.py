"""A 超人ロック game driven through the lifecycle decider, with a combat laid on the table at a
chosen step: five seats on 惑星編's planet 0 (the combat on square 0:1)."""

from __future__ import annotations

import json
from typing import Any

from domain.model.errors import KirokuError
from domain.rulesets.chojin_locke.catalog import sample
from domain.rulesets.chojin_locke.combat.state import Combat, Fighter
from domain.rulesets.chojin_locke.state import ChojinState, Player, Position, Turn
from tests.decided import DecidedGame
from tests.rulesets.chojin_locke.lines import described

GAME = "6f1c1f4e-0000-4000-8000-0000000c0b01"
SEED = "ab" * 32
SQUARE = "0:1"

# seat → (character, square or None, condition)
SEATS: dict[int, tuple[str, int | None, str]] = {
    1: ("ロック", 1, "normal"),  # on the square, fighting
    2: ("オクタヴィアス", 1, "normal"),  # on the square, fighting; [手下:2]
    3: ("ヘルダイバー", 4, "normal"),  # away; a party's leader; a [戦闘前] ability
    4: ("クーガー大尉", None, "dead"),
    5: ("ニア", 4, "partner"),  # seat 3's partner
}


class CombatGame(DecidedGame):
    def __init__(self, step: str = "joining", round_: int = 1) -> None:
        super().__init__(
            "chojin_locke", game_id=GAME, server_seed=SEED, seats=5, dice_policy="both"
        )
        catalog = sample()
        players = {}
        for seat, (name, square, condition) in SEATS.items():
            sheet = catalog.character(name)
            players[seat] = Player(
                seat=seat,
                sheet=sheet,
                side="explorer",
                revealed_silhouette=sheet.silhouette,
                condition=condition,  # type: ignore[arg-type]
                position=Position(planet=0, square=square) if square is not None else None,
                endurance_damage=sheet.endurance if condition == "dead" else 0,
            )
        fighters = {n: Fighter(id=n, name=f"Seat {n}", seat=n) for n in (1, 2)}
        fight = Combat(
            square=SQUARE,
            stage="planet",
            started_by=1,
            round=round_,
            step=step,  # type: ignore[arg-type]
            fighters=fighters,
        )
        rules = ChojinState(
            catalog=catalog,
            seats=5,
            stage="planet",
            fixed=True,
            players=players,
            parties={3: [5]},
            turn=Turn(seat=1, number=1, phase="combat"),
            combat=fight,
        )
        self.state = self.state.model_copy(update={"rules": rules})

    @property
    def rules(self) -> ChojinState:
        rules: ChojinState = self.state.rules
        return rules

    @property
    def combat(self) -> Combat:
        assert self.rules.combat is not None
        return self.rules.combat

    def set_combat(self, **update: Any) -> None:
        rules = self.rules.model_copy(update={"combat": self.combat.model_copy(update=update)})
        self.state = self.state.model_copy(update={"rules": rules})

    def do(self, actor: str, name: str, **fields: Any) -> list[Any]:
        return self.decide(actor, {"type": f"chojin_locke.{name}", **fields})

    def refused(self, actor: str, name: str, code: str, **fields: Any) -> KirokuError:
        return self.refuse(actor, {"type": f"chojin_locke.{name}", **fields}, code)

    def lines(self, viewer: str = "public") -> list[str]:
        """Each of this ruleset's events' log lines (after GameCreated) as `viewer` reads it."""
        out = []
        for r in self.records[1:]:
            sealed = r.envelope.sealed
            secret = r.body if sealed is not None and viewer in sealed.audience else None
            said = described(r.envelope.type, r.envelope.public, secret)
            if said is not None:
                out.append(said[1])
        return out

    def public_bytes(self) -> str:
        """Every envelope's public part, as any seat or the public reads it."""
        return "".join(json.dumps(r.envelope.public, ensure_ascii=False) for r in self.records[1:])
