"""The ruleset kit: a ruleset is written once, checked at import.

A ruleset is a decider (Chassaing) plugged into the shared lifecycle (domain/model/lifecycle.py):
the lifecycle handles what every game has — seats, rolls, notes, rulings, reveals, the end —
and hands the ruleset its own commands and every event. Each command is declared once, with
its decider beside it; each event once, with its fold beside it (eventsourcing's aggregate7
registers folds by event type the same way):

    RULES = Ruleset("my_game", "1", state=MyState, options=MyOptions, initial=start)

    @RULES.command("advance")              # HTTP type "my_game.advance"
    class Advance(Command):
        phase: str

    @RULES.decides(Advance)
    def advance(t: Table[MyState], command: Advance, actor: str) -> list[Draft]: ...

    @RULES.event                           # stored type "my_game.Advanced"
    class Advanced(Event):
        phase: str

    @RULES.folds(Advanced)
    def _advanced(state: MyState, event: Advanced, seq: int) -> MyState: ...

    RULES.dice_words(MY_DICE)              # its own dice commands (domain/dice/words.py)

The type strings, the HTTP union (`commands`) and the dispatch tables are derived from these
declarations. `complete()` (called by the ruleset's package once its modules are loaded, and
by the registry) refuses a ruleset whose command has no decider or whose event has neither a
fold nor an explicit `ignores`, naming it. docs/how-to/write-a-ruleset.md walks through one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, Generic, Literal, TypeVar, cast

from pydantic import BaseModel, ValidationError, create_model

from domain import dice
from domain.dice.words import DiceWords
from domain.model.canonical import sha256_hex
from domain.model.commands import Command
from domain.model.errors import KirokuError
from domain.model.events import Event, register_event_type
from domain.model.game import GameState
from domain.model.glimpse import Glimpse
from domain.model.lifecycle_events import GameCreated
from domain.model.logline import Names
from domain.model.messages import N_, Invalid, Message, Term
from domain.model.records import Draft, Recorded
from domain.model.secrecy import RulesView, strip
from domain.model.table import Table, TableView
from domain.model.verification import Worded

S = TypeVar("S", bound=BaseModel)  # the ruleset's state
Opt = TypeVar("Opt", bound=BaseModel)  # its options
C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)
EC = TypeVar("EC", bound=type[Event])
R = TypeVar("R", bound=BaseModel)  # a ruleset's reference data

Decider = Callable[[Table[S], C, str], list[Draft]]
Fold = Callable[[S, E, int], S]
View = Callable[[TableView[S], str], RulesView]
# (kind, words) of a log line, or None for the default words: the words a `Message` whose keys
# are the line's Japanese (a reader in another language reads it through the catalogs), or
# text in the rulebook's Japanese as it is.
Line = tuple[str, str | Message] | None
Describe = Callable[[dict[str, Any], dict[str, Any] | None], Line]
# The same, told who sits where (seat number → the seat's name), for a line that names a seat.
DescribeNamed = Callable[[dict[str, Any], dict[str, Any] | None, Mapping[int, str]], Line]
Audit = Callable[
    [Sequence[Recorded], Callable[[GameCreated], S], Callable[[S, Recorded], S]],
    list["DeclarationCheck"],
]


class DeclarationCheck(Worded):
    """One rule-checked declaration set beside the truth that was sealed when it was made.
    Its texts (`what`, `note`, and a declared or true value said in words) are catalog
    messages (`said`): each field holds the Japanese, `read` gives them in a language."""

    seq: int
    actor: str
    what: str  # e.g. "teleport distance (ESP)"
    declared: Any
    truth: Any
    verdict: Literal["legal", "understated", "overstated", "unknown"]
    note: str = ""  # e.g. "let through by manual faces" or "amended at seq 41"

    @classmethod
    def of(
        cls,
        seq: int,
        actor: str,
        what: Message,
        declared: object,
        truth: object,
        verdict: Literal["legal", "understated", "overstated", "unknown"],
        note: Message | None = None,
    ) -> DeclarationCheck:
        """A check whose texts are messages; a declared or true value given as a `Message`
        or a `Term` (「ヒット」) reads in the reader's language too."""
        said: dict[str, Message | None] = {"what": what, "note": note}
        for name, value in (("declared", declared), ("truth", truth)):
            if isinstance(value, Message | Term):
                said[name] = (
                    value if isinstance(value, Message) else Message(N_("{term}"), {"term": value})
                )
        check = cls(seq=seq, actor=actor, what="", declared=declared, truth=truth, verdict=verdict)
        return check.worded(**{name: m for name, m in said.items() if m is not None})


class RulesetIncomplete(TypeError):
    """A ruleset's declarations do not add up (raised at import, naming what is missing)."""


def _ignore(state: Any, event: Any, seq: int) -> Any:
    return state


class Ruleset(Generic[S, Opt]):
    """One ruleset: its declarations, and the decider the lifecycle composes with its own."""

    def __init__(
        self,
        id: str,
        version: str,
        *,
        state: type[S],
        options: type[Opt],
        initial: Callable[[Opt, int], S],
        summary: str,
        check_seats: Callable[[int], None] | None = None,
        referee: str = "GM",
        hosted: bool | None = None,
        prefix: str | None = None,
    ) -> None:
        """`version` names the rules and the shape of `state`: bump it when either changes
        (snapshots taken under another version are dropped and the game folded again).
        `prefix` is prepended to command and event names (default "<id>."); `referee` is who
        runs a game by default: "GM" (an omniscient referee) or "host" (no referee: the
        creator sees only what its audience may, docs/explanation/design/index.md); `hosted` says
        whether a game
        may be created with a host at all (default: when the host is the default);
        `summary` is the line the server's list of rulesets shows."""
        self.id = id
        self.version = version
        self.summary = summary
        self.State = state
        self.Options = options
        self._initial = initial
        self._check_seats = check_seats
        self.referee = referee
        self.default_referee = "host" if referee == "host" else "gm"
        self.hosted = referee == "host" if hosted is None else hosted
        self.prefix = f"{id}." if prefix is None else prefix
        self._commands: dict[str, type[Command]] = {}
        self._deciders: dict[type[Command], Decider[S, Any]] = {}
        self._events: dict[str, type[Event]] = {}
        self._folds: dict[type[Event], Fold[S, Any]] = {}
        self._after_fold: Callable[[S, S], S] | None = None
        self._view: View[S] | None = None
        self._audit: Audit[S] | None = None
        self._describers: dict[str, Describe] = {}
        self._named_describers: dict[str, DescribeNamed] = {}
        self._people: Callable[[Any, str], Mapping[str, str]] | None = None
        self._glance: Callable[[Glimpse, Names, str], list[object]] | None = None
        self._reference: Callable[[Opt], BaseModel] | None = None
        self.Reference: type[BaseModel] | None = None
        self.words: tuple[DiceWords, ...] = ()
        """The dice words its typed dice read besides the common commands (dice_words)."""
        self._complete = False

    # ------------------------------------------------------------------ declarations

    def command(self, name: str) -> Callable[[type[C]], type[C]]:
        """Declare a command; its HTTP `type` is the prefix and `name`."""

        def declare(cls: type[C]) -> type[C]:
            self._open(f"command {name!r}")
            type_name = self.prefix + name
            if type_name in self._commands:
                raise RulesetIncomplete(f"{self.id}: command {type_name!r} is declared twice")
            literal = cast(Any, Literal)[type_name]
            declared = create_model(  # the same model, with its derived `type` field
                cls.__name__,
                __base__=cls,
                __module__=cls.__module__,
                __doc__=cls.__doc__,
                type=(literal, type_name),
            )
            declared.__qualname__ = cls.__qualname__
            self._commands[type_name] = declared
            return declared

        return declare

    def decides(self, command: type[C]) -> Callable[[Decider[S, C]], Decider[S, C]]:
        """Declare the decider of one of this ruleset's commands."""

        def declare(decider: Decider[S, C]) -> Decider[S, C]:
            self._open(f"a decider for {command.__name__}")
            if self._commands.get(_type_of(command)) is not command:
                raise RulesetIncomplete(
                    f"{self.id}: {command.__name__} is not a command declared by this ruleset"
                )
            if command in self._deciders:
                raise RulesetIncomplete(f"{self.id}: {command.__name__} has two deciders")
            self._deciders[command] = decider
            return decider

        return declare

    def event(self, cls: EC) -> EC:
        """Declare an event; its stored `type` is the prefix and the class name. Renaming the
        class renames the type, and games already stored would no longer read: a renamed
        event keeps its stored type with `event_named`."""
        return self.event_named(self.prefix + cls.__name__)(cls)

    def event_named(self, type_name: str) -> Callable[[EC], EC]:
        """Declare an event whose stored `type` is `type_name` exactly (a renamed event, or
        one stored before the prefix existed)."""

        def declare(cls: EC) -> EC:
            self._open(f"event {cls.__name__}")
            if type_name in self._events:
                raise RulesetIncomplete(f"{self.id}: event {type_name!r} is declared twice")
            cls.type = type_name
            register_event_type(cls)
            self._events[type_name] = cls
            return cls

        return declare

    def folds(self, event: type[E]) -> Callable[[Fold[S, E]], Fold[S, E]]:
        """Declare how an event (this ruleset's, or a lifecycle one) changes the state.
        A fold returns a new state; it never changes the one it is given."""

        def declare(fold: Fold[S, E]) -> Fold[S, E]:
            self._open(f"a fold for {event.__name__}")
            if event in self._folds:
                raise RulesetIncomplete(f"{self.id}: {event.__name__} has two folds")
            self._folds[event] = fold
            return fold

        return declare

    def ignores(self, *events: type[Event]) -> None:
        """Declare events that change nothing in the ruleset's state (they are on the record
        for the table and the audit, e.g. a check that changes no number)."""
        for event in events:
            self.folds(event)(_ignore)

    def after_fold(self, hook: Callable[[S, S], S]) -> Callable[[S, S], S]:
        """A check run after every fold of this ruleset's own events, given (before, after)."""
        self._open("an after-fold hook")
        self._after_fold = hook
        return hook

    def views(self, view: View[S]) -> View[S]:
        """Declare the view: the state as one audience sees it, secrets as Private values."""
        self._open("a view")
        self._view = view
        return view

    def audits(self, audit: Audit[S]) -> Audit[S]:
        """Declare the declarations audit (rulesets that check declared values)."""
        self._open("an audit")
        self._audit = audit
        return audit

    def describes(self, event: type[Event]) -> Callable[[Describe], Describe]:
        """Declare how the table says one of this ruleset's events in the log: (kind, text)
        from the parts the reader may see (public, and the sealed body or None); see
        domain/model/logline.py. Events nobody describes read in the default words."""

        def declare(describe: Describe) -> Describe:
            self._open(f"a description of {event.__name__}")
            self._describers[event.type] = describe
            return describe

        return declare

    def references(self, model: type[R]) -> Callable[[Callable[[Opt], R]], Callable[[Opt], R]]:
        """Declare the ruleset's reference data: what a player looks names up in (its cards,
        its board and how the board's squares are numbered …), a `model` made from a game's
        options. `GET /rulesets` lists it for the default options, typed in the OpenAPI."""

        def declare(hook: Callable[[Opt], R]) -> Callable[[Opt], R]:
            self._open("reference data")
            self._reference = hook
            self.Reference = model
            return hook

        return declare

    def reference(self, options: Opt | None = None) -> BaseModel | None:
        """The reference data for `options` (the default options when None), if declared."""
        if self._reference is None:
            return None
        return self._reference(options if options is not None else self.Options())

    def says(
        self, event: type[E]
    ) -> Callable[[Callable[[E], str | Message]], Callable[[E], str | Message]]:
        """Declare the log line of one of this ruleset's events as a function of the event
        itself, read back from what the reader may see: its sealed part is None for a reader
        who may not see it, so a line can never tell more than its reader may know. The line
        is a `Message` (`Message(N_("{unit} のターン"), {"unit": name})`, its keys the line's
        Japanese, its terms `N_` too) that a page in English reads through the catalogs; a
        plain text reads the same in every language."""

        def declare(text: Callable[[E], str | Message]) -> Callable[[E], str | Message]:
            def describe(public: dict[str, Any], secret: dict[str, Any] | None) -> Line:
                seen = (
                    public
                    if secret is None or not event.has_secret()
                    else {**public, "secret": secret}
                )
                return "rules", text(event.model_validate(seen))

            self.describes(event)(describe)
            return text

        return declare

    def says_named(
        self, event: type[E]
    ) -> Callable[[Callable[[E, Names], str | Message]], Callable[[E, Names], str | Message]]:
        """`says`, for a line that names a seat or a unit/character: the text function is also
        given the `Names` (seat number → name, a seat not in it reading 「席N」, see
        `seat_name`; `names.of(id)`, the ruleset's people as the reader knows them, see
        `names`)."""

        def declare(
            text: Callable[[E, Names], str | Message],
        ) -> Callable[[E, Names], str | Message]:
            self._open(f"a description of {event.__name__}")

            def describe(
                public: dict[str, Any], secret: dict[str, Any] | None, names: Mapping[int, str]
            ) -> Line:
                seen = (
                    public
                    if secret is None or not event.has_secret()
                    else {**public, "secret": secret}
                )
                named = names if isinstance(names, Names) else Names(names)
                return "rules", text(event.model_validate(seen), named)

            self._named_describers[event.type] = describe
            self._describers[event.type] = lambda public, secret: describe(public, secret, {})
            return text

        return declare

    def names(
        self, hook: Callable[[S, str], Mapping[str, str]]
    ) -> Callable[[S, str], Mapping[str, str]]:
        """Declare the ruleset's people by name: (its state, an audience) → id → name of the
        units or characters that audience may know by name (a name still sealed to it left
        out: its lines keep the id). `says_named` lines read them with `names.of(id)`."""
        self._open("names")
        self._people = hook
        return hook

    def people(self, rules: Any, audience: str) -> dict[str, str]:
        """The names (`names`) of the ruleset's people in its state `rules`, for `audience`;
        empty without a hook or a state."""
        if self._people is None or rules is None:
            return {}
        return dict(self._people(rules, audience))

    def glances(
        self, hook: Callable[[Glimpse, Names, str], list[object]]
    ) -> Callable[[Glimpse, Names, str], list[object]]:
        """Declare the ruleset's state at a glance, as its table's pane shows it: (the view one
        audience has, as JSON; the `Names` it calls people by; that audience) → lines
        (`Message`s, read in
        the reader's language), for a reader with no pane (the terminal replay). It reads
        only that view, so it can never tell more than the audience may know."""
        self._open("a glance")
        self._glance = hook
        return hook

    def glance(self, rules: Mapping[str, Any] | None, names: Names, audience: str) -> list[object]:
        """The lines `glances` declared for `audience`'s view `rules`; none without a hook or
        a view."""
        if self._glance is None or not rules:
            return []
        return self._glance(Glimpse(rules), names, audience)

    def dice_words(self, words: DiceWords) -> DiceWords:
        """Declare dice commands of the ruleset's own (domain/dice/words.py): its typed dice
        (`Table.dice.roll`) read them besides the common commands, in its games only; a
        game of another ruleset refuses them as unknown commands."""
        self._open("dice words")
        self.words = (*self.words, words)
        return words

    def parse_dice(self, text: str) -> dice.Expression:
        """A dice command as this ruleset's games read it: the common commands and its words."""
        return dice.parse(text, self.words)

    def _open(self, what: str) -> None:
        if self._complete:
            raise RulesetIncomplete(f"{self.id}: {what} declared after the ruleset was complete")

    def complete(self, order: Sequence[ModuleType] = ()) -> Ruleset[S, Opt]:
        """Check that the declarations add up; raises RulesetIncomplete naming what is missing.

        `order`: the mechanic modules in the order play meets them (the rulebook's chapters);
        `commands` (the forms of the table page, GET /rulesets) lists their commands so,
        each module's in the order declared, instead of in the order modules were imported."""
        if self._complete:
            return self
        if order:
            place = {module.__name__: index for index, module in enumerate(order)}
            ranked = sorted(
                enumerate(self._commands.items()),
                key=lambda item: (place.get(item[1][1].__module__, len(place)), item[0]),
            )
            self._commands = dict(entry for _index, entry in ranked)
        missing = [
            f"command {type_name!r} ({cls.__name__}) has no decider"
            for type_name, cls in self._commands.items()
            if cls not in self._deciders
        ] + [
            f"event {type_name!r} ({cls.__name__}) has no fold (declare one, or ignores())"
            for type_name, cls in self._events.items()
            if cls not in self._folds
        ]
        if self._view is None:
            missing.append("no view is declared")
        if missing:
            raise RulesetIncomplete(f"ruleset {self.id}: " + "; ".join(missing))
        self._complete = True
        return self

    # ------------------------------------------------------------------ derived

    @property
    def commands(self) -> tuple[type[Command], ...]:
        """The command models, in declaration order (the HTTP union, the table's forms)."""
        return tuple(self._commands.values())

    @property
    def events(self) -> tuple[type[Event], ...]:
        return tuple(self._events.values())

    def schema_key(self) -> str:
        """A hash of what a stored state of this ruleset depends on: id, version, and the
        state's schema. Snapshots and projection states carry it; a mismatch refolds."""
        cached: str | None = getattr(self, "_schema_key", None)
        if cached is None:
            schema = json.dumps(self.State.model_json_schema(), sort_keys=True)
            cached = sha256_hex(f"{self.id}\n{self.version}\n{schema}")
            self._schema_key = cached
        return cached

    # ------------------------------------------------------------------ the decider

    def options(self, raw: dict[str, Any]) -> Opt:
        try:
            return self.Options.model_validate(raw)
        except ValidationError as error:
            raise KirokuError(
                "invalid_ruleset_options",
                "The ruleset's options are not valid: {error}",
                params={"error": _first_problem(error)},
            ) from None

    def check_seats(self, seats: int) -> None:
        """Refuse (KirokuError) a seat count this game cannot be played with, at creation."""
        if self._check_seats is not None:
            self._check_seats(seats)

    def initial(self, options: Opt, seats: int) -> S:
        """The ruleset's state right after GameCreated."""
        return self._initial(options, seats)

    def initial_for(self, created: GameCreated) -> S:
        return self.initial(self.options(created.ruleset_options), len(created.seats))

    def decide(self, table: Table[S], command: Command, actor: str) -> list[Draft]:
        """Events for one of this ruleset's own commands, or raise a KirokuError."""
        decider = self._deciders.get(type(command))
        if decider is None:
            raise KirokuError(
                "command_not_in_ruleset",
                "{command} is not a command of {ruleset}.",
                params={"command": str(getattr(command, "type", "?")), "ruleset": self.id},
            )
        return decider(table, command, actor)

    def fold(self, state: S, event: Event, seq: int) -> S:
        """The state after one event (deciders use it too, to look ahead at a draft)."""
        fold = self._folds.get(type(event))
        if fold is None:
            return state
        after = fold(state, event, seq)
        if self._after_fold is not None and type(event).type in self._events:
            after = self._after_fold(state, after)
        return after

    def evolve(self, state: S, recorded: Recorded) -> S:
        """Fold any event (lifecycle ones included) into the ruleset's state."""
        return self.fold(state, recorded.event, recorded.seq)

    def table_view(self, game: GameState) -> TableView[S]:
        """What the ruleset's view reads of the game."""
        return TableView(
            status=game.status,
            seats=game.seats,
            options=game.options,
            rules=game.rules,
            referee=game.referee_name(),
            referee_actor=game.referee,
        )

    def view_model(self, game: GameState, audience: str) -> RulesView:
        """The ruleset's view for `audience`, its Private values still in (tests, the leak
        contract); every output goes through `view`."""
        assert self._view is not None, f"{self.id} is not complete"
        view = self._view(self.table_view(game), audience)
        if not isinstance(view, RulesView):
            raise TypeError(f"{self.id}'s view must return a RulesView, not {type(view)}")
        return view

    def view(self, game: GameState, audience: str) -> dict[str, Any]:
        """The ruleset's part of the game as `audience` may see it: its view, stripped."""
        return strip(self.view_model(game, audience), audience)

    def describe(
        self,
        type_name: str,
        public: dict[str, Any],
        secret: dict[str, Any] | None,
        seat_names: Mapping[int, str] | None = None,
        people: Mapping[str, str] | None = None,
    ) -> Line:
        """How the table would say one of this ruleset's events: (kind, words) for the log
        line, from what the reader may see and the seats' names; None for the default."""
        named = self._named_describers.get(type_name)
        if named is not None:
            names = (
                seat_names
                if isinstance(seat_names, Names) and people is None
                else Names(seat_names, people)
            )
            return named(public, secret, names)
        describe = self._describers.get(type_name)
        return None if describe is None else describe(public, secret)

    def restore(self, data: Any) -> S:
        return self.State.model_validate(data)

    def audit_declarations(self, history: Sequence[Recorded]) -> list[DeclarationCheck]:
        """After the end, with every secret revealed (each Recorded carries its body): every
        declaration this ruleset checks, beside the truth. Rulesets without any return []."""
        if self._audit is None:
            return []
        return self._audit(history, self.initial_for, self.evolve)


def _type_of(command: type[Command]) -> str:
    field = command.model_fields.get("type")
    return str(field.default) if field is not None else ""


def _first_problem(error: ValidationError) -> Message:
    """Where the options go wrong and why, in words: a validator's own message (`Invalid`) or
    pydantic's sentence, never the input echoed back."""
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "ruleset_options"
    cause = (first.get("ctx") or {}).get("error")
    said: object = cause.message if isinstance(cause, Invalid) else str(first.get("msg", ""))
    return Message("{where}: {problem}", {"where": where, "problem": said})
