"""NinjaSlayer2 `WS{n}`: the Wasshoi! check, 2D6 succeeding when the total is at most n."""

from __future__ import annotations

from dataclasses import dataclass

from domain.dice.words import DiceRequest, Roller, RollResult

_ENTRY = "ニンジャスレイヤー=サンのエントリーだ!!"


@dataclass(frozen=True, slots=True)
class WasshoiCommand:
    target: int
    """The highest 【DKK】 present, with its modifiers."""

    def render(self) -> str:
        return f"WS{self.target}"

    def requests(self) -> tuple[DiceRequest, ...]:
        return (DiceRequest(2, 6),)

    def rerolls(self) -> bool:
        return False

    def evaluate(self, roller: Roller) -> RollResult:
        faces = roller.roll(2, 6)
        total = sum(faces)
        success = total <= self.target
        head = f"Wasshoi!判定(2D6) ＞ ({'+'.join(map(str, faces))}) ＞ {total}"
        if success:
            explanation = f"{head}(<={self.target}) 判定成功!! {_ENTRY}"
        else:
            explanation = f"{head}(>{self.target}) 判定失敗"
        return RollResult(
            text=self.render(),
            total=total,
            success=success,
            explanation=explanation,
            faces=faces,
        )
