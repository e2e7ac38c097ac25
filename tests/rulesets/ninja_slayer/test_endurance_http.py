"""ニンジャ耐久力の発露 over HTTP with manual faces (2-12, L143, L145, L149).

「君のニンジャの【体力】がマイナス値になった場合、それは直ちに爆発四散し…ただし、
【精神力】が残っていればまだ望みはある」 and, hit while 気絶, 「それがニンジャであり、
かつ【精神力】が残っているならば、上記の『ニンジャ耐久力の発露』ルールに従って
軽減を続けられる」.
"""

from __future__ import annotations

from .script import Script
from .test_seed_fixes_http import begin, character, of_type, to_phase


def test_a_ninja_with_seishin_left_holds_at_tairyoku_zero(script: Script) -> None:
    """A hit of 6 on Aki (体力 5, 精神力 2): the 1 below 0 comes off 【精神力】; 気絶,
    not 爆発四散."""
    begin(script, "aki", "ben", "boss")
    to_phase(script, "boss", "attack")
    script.attack("gm", [{"target": "aki", "faces": [4, 1, 1, 1, 1, 1, 1]}], base_damage=6)
    (taken,) = of_type(script.evade("seat:1", "aki", script.damages(), [1, 1]), "DamageTaken")
    assert (taken["public"]["status"], taken["public"]["endured"]) == ("気絶", 1)
    aki = character(script, "aki")
    assert (aki["status"], aki["now"]["tairyoku"], aki["now"]["seishin"]) == ("気絶", 0, 1)


def test_hits_while_fainted_keep_taking_seishin_then_the_ninja_explodes(script: Script) -> None:
    """Attacks on a 気絶 ninja hit automatically and cannot be evaded; while 【精神力】 is left
    it takes the damage (「軽減を続けられる」); with none left the ninja is 爆発四散."""
    begin(script, "aki", "ben", "boss")
    to_phase(script, "boss", "attack")
    script.attack("gm", [{"target": "ben", "faces": [4, 1, 1, 1, 1, 1, 1]}], base_damage=3)
    script.evade("seat:2", "ben", script.damages(), [1])  # 体力 2 - 3: 精神力 2 → 1
    ben = character(script, "ben")
    assert (ben["status"], ben["now"]["tairyoku"], ben["now"]["seishin"]) == ("気絶", 0, 1)
    script.advance()
    to_phase(script, "boss", "attack")  # the next turn
    hit = script.attack("gm", [{"target": "ben", "faces": [1, 1, 1, 1, 1, 1, 1]}])
    (taken,) = of_type(hit, "DamageTaken")  # no evasion: taken at once
    assert (taken["public"]["status"], taken["public"]["endured"]) == ("気絶", 1)
    assert character(script, "ben")["now"]["seishin"] == 0
    script.advance()
    to_phase(script, "boss", "attack")
    (taken,) = of_type(
        script.attack("gm", [{"target": "ben", "faces": [1, 1, 1, 1, 1, 1, 1]}]), "DamageTaken"
    )
    assert (taken["public"]["status"], taken["public"]["endured"]) == ("爆発四散", 0)


def test_what_seishin_cannot_absorb_still_blows_the_ninja_up(script: Script) -> None:
    """A hit of 5 on Ben (体力 2, 精神力 2): 2 come off 【精神力】, 1 is left below 0."""
    begin(script, "aki", "ben", "boss")
    to_phase(script, "boss", "attack")
    script.attack("gm", [{"target": "ben", "faces": [4, 1, 1, 1, 1, 1, 1]}], base_damage=5)
    (taken,) = of_type(script.evade("seat:2", "ben", script.damages(), [1]), "DamageTaken")
    assert (taken["public"]["status"], taken["public"]["endured"]) == ("爆発四散", 2)
    ben = character(script, "ben")
    assert (ben["now"]["tairyoku"], ben["now"]["seishin"]) == (-1, 0)


def test_a_sixth_sense_reroll_gives_the_seishin_back(script: Script) -> None:
    """●ニンジャ第六感 turning the failed evasion into a success undoes 【精神力】 too."""
    begin(script, "aki", "ben", "boss")
    to_phase(script, "boss", "attack")
    script.attack("gm", [{"target": "ben", "faces": [4, 1, 1, 1, 1, 1, 1]}], base_damage=3)
    (evasion,) = of_type(script.evade("seat:2", "ben", script.damages(), [1]), "EvasionRolled")
    rerolled = script.do(
        "seat:2", "sixth_sense", character="ben", check_seq=evasion["seq"], faces=[6]
    )
    (undone,) = of_type(rerolled, "DamageUndone")
    assert (undone["public"]["amount"], undone["public"]["seishin"]) == (2, 1)
    ben = character(script, "ben")
    assert (ben["status"], ben["now"]["tairyoku"], ben["now"]["seishin"]) == ("active", 2, 2)


def test_an_unrevealed_boss_endures_without_its_seishin_in_the_open(script: Script) -> None:
    """The boss (体力 3, 精神力 3, sheet sealed): a 5-damage hit leaves it 気絶 at 体力 0 with
    精神力 1; the public event does not say how much 【精神力】 it had."""
    begin(script, "aki", "ben", "boss")
    to_phase(script, "aki", "attack")
    script.attack("seat:1", [{"target": "boss", "faces": [4, 1, 1, 1, 1]}], base_damage=5)
    (taken,) = of_type(script.evade("gm", "boss", script.damages(), [1]), "DamageTaken")
    assert (taken["public"]["status"], taken["public"]["endured"]) == ("気絶", 0)
    boss = character(script, "boss")  # the GM's view
    assert (boss["now"]["tairyoku"], boss["now"]["seishin"]) == (0, 1)
