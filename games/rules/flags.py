"""Every rule-set flag in German, for the rules page (RULES.md 4 and 6, VARIANTS.md).

``FLAGS`` holds one ``FlagInfo`` per ``RuleSet`` field (``name`` excepted), in the order a
page shows them: the switches of RULES.md section 6, the seed flags of section 4, then the
variant flags clubs compose. Each entry has a German label, a one-sentence explanation, an
example throw or situation, and where the rule comes from. A test keeps the table and the
``RuleSet`` fields in step. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .ruleset import RuleSet

__all__ = ["FLAGS", "FLAGS_BY_NAME", "FlagInfo", "describe"]

#: ``FlagInfo.group`` values.
SECTION_6 = "section_6"
SEED = "seed"
VARIANT = "variant"


@dataclass(frozen=True)
class FlagInfo:
    """One rule-set flag as a rules page shows it.

    Attributes:
        name: the ``RuleSet`` field.
        group: ``"section_6"`` (RULES.md 6), ``"seed"`` (RULES.md 4) or ``"variant"``.
        label: German name of the rule.
        explanation: one German sentence: what the rule does when on (or what the number
            means).
        example: a German example throw or situation.
        source: where the rule comes from (seed, RULES.md section, public implementation).
    """

    name: str
    group: str
    label: str
    explanation: str
    example: str
    source: str


FLAGS: tuple[FlagInfo, ...] = (
    FlagInfo(
        "general_beats_schock_doof",
        SECTION_6,
        "General schlägt Schock Doof",
        "Jeder General ist mehr wert als der Schock Doof (1-1-2); sonst ist es umgekehrt.",
        "5-5-5 gegen 1-1-2: der General gewinnt die Runde.",
        "Seeds 000 und 002; RULES.md 6",
    ),
    FlagInfo(
        "generals_ranked",
        SECTION_6,
        "Generäle nach Augen",
        "Ein höherer General schlägt einen niedrigeren; sonst sind alle Generäle gleich und "
        "Mit ist Schitt entscheidet.",
        "6-6-6 schlägt 2-2-2.",
        "Seeds 000, 002, 004; anders Seed 001",
    ),
    FlagInfo(
        "strassen_ranked",
        SECTION_6,
        "Straßen nach Augen",
        "Eine höhere Straße schlägt eine niedrigere; sonst sind alle Straßen gleich.",
        "4-5-6 schlägt 1-2-3.",
        "Alle Seeds; RULES.md 1",
    ),
    FlagInfo(
        "fewer_attempts_win_ties",
        SECTION_6,
        "Weniger Versuche gewinnen",
        "Bei gleichem Wurf gewinnt, wer weniger Versuche gebraucht hat; erst danach gilt Mit "
        "ist Schitt.",
        "6-5-5 im zweiten schlägt 6-5-5 im dritten Versuch, auch wenn er später fiel.",
        "Seeds 000, 002, 003, 004",
    ),
    FlagInfo(
        "koenigswurf",
        SECTION_6,
        "Königswurf",
        "Ein Schock-Aus aus der Hand schlägt einen zusammengeworfenen Schock-Aus.",
        "1-1-1 aus der Hand im dritten Versuch schlägt 1-1-1, das in drei Versuchen "
        "gesammelt wurde.",
        "Seed 000",
    ),
    FlagInfo(
        "keep_only_ones",
        SECTION_6,
        "Nur Einsen rauslegen",
        "Rausgelegt werden nur Einsen (auch aus Umwandlung); ein zusammengeworfener Wurf "
        "zeigt daher immer eine Eins.",
        "Nach 6-4-1 darf nur die 1 liegen bleiben, nicht die 6.",
        "Seed 003",
    ),
    FlagInfo(
        "muss_regel",
        SECTION_6,
        "Muss-Regel",
        "Kostet der nächste Schock-Aus eine Runde, müssen gewürfelte Einsen rausgelegt und "
        "die übrigen Versuche gewürfelt werden.",
        "Erster Schock-Aus des Abends steht noch aus: nach 6-4-1 im ersten Versuch muss "
        "weitergewürfelt werden.",
        "Seed 003",
    ),
    FlagInfo(
        "format",
        SECTION_6,
        "Spielform",
        "Ein Spiel um 13 Deckel (single) oder zwei Hälften mit Finale (halves).",
        "Hälften: wer beide Hälften verliert, hat das Spiel verloren (Blattschuss).",
        "Seed 003 (single); Seeds 000, 001, 002, 004 (halves)",
    ),
    FlagInfo(
        "deckel_total",
        VARIANT,
        "Anzahl der Deckel",
        "So viele Deckel liegen zu Beginn im Stock; wer alle hat, verliert.",
        "15 Deckel: ein Schock-Aus bringt dem Verlierer 15.",
        "Seeds: 13; papr/schocken-discord-bot: 15; Lexikon: 13 bis 17",
    ),
    FlagInfo(
        "max_attempts",
        SECTION_6,
        "Höchstens Versuche",
        "So viele Versuche hat der Vorleger höchstens; die anderen nie mehr als er.",
        "Bei 3: legt der Vorleger im zweiten vor, haben alle nur zwei Versuche.",
        "Alle Seeds: 3",
    ),
    FlagInfo(
        "ausscheidung",
        SEED,
        "Ausscheidung um den Spielbeginn",
        "Vor der ersten Runde wirft jeder einmal; der schlechteste Wurf nimmt Deckel und "
        "legt vor, bei Gleichstand werfen nur die Gleichen noch einmal.",
        "Zwei Spieler werfen 2-2-1; im Stechen wirft einer 1-1-1: der andere hat die erste "
        "Hälfte verloren.",
        "Seeds 000 und 002; RULES.md 4",
    ),
    FlagInfo(
        "deckel_nehmen",
        SEED,
        "Deckel nehmen",
        "Wer seinen Wurf noch verdeckt hat, darf statt zu würfeln so viele Deckel nehmen, "
        "wie der beste Wurf bisher wert ist, und legt mit dem verdeckten Wurf neu vor.",
        "Schock 3 im ersten vorgelegt: der Nächste lässt den Becher zu und nimmt drei Deckel.",
        "Seed 000; RULES.md 4",
    ),
    FlagInfo(
        "opener_choice",
        SEED,
        "Verlierer der ersten Hälfte bestimmt den Vorleger",
        "Wer die erste Hälfte verloren hat, bestimmt, wer die zweite Hälfte eröffnet "
        "(sonst eröffnet er selbst).",
        "Anna verliert die erste Hälfte und lässt Bernd vorlegen.",
        "Seed 000; RULES.md 4",
    ),
    FlagInfo(
        "einwuerfeln",
        SEED,
        "Einwürfeln und Aussteigen",
        "Zwischen zwei Runden darf jemand ohne Deckel in eine laufende Hälfte einsteigen, "
        "und wer keine Deckel hat, darf aussteigen.",
        "Carla kommt später und würfelt sich in die erste Hälfte ein, solange noch Deckel im "
        "Stock liegen.",
        "Seed 001; RULES.md 4",
    ),
    FlagInfo(
        "umwandlung",
        VARIANT,
        "Umwandlung",
        "Zwei Sechsen eines Versuchs dürfen zu einer rausgelegten Eins werden (drei Sechsen "
        "zu zwei Einsen), wenn noch ein Versuch folgt.",
        "6-6-3 im ersten Versuch: eine Eins raus, 6 und 3 zurück in den Becher.",
        "Seeds 000, 002, 003, 004; shawdyy/schocken (twoSixToOne)",
    ),
    FlagInfo(
        "jule",
        VARIANT,
        "Jule",
        "4-2-1 aus der Hand ist eine Jule: sieben Deckel wert, gleich nach dem Schock-Aus.",
        "4-2-1 im ersten Versuch schlägt Schock 6 und kostet den Verlierer sieben Deckel.",
        "papr/schocken-discord-bot; shawdyy/schocken (jule)",
    ),
    FlagInfo(
        "collected_strasse_counts",
        VARIANT,
        "Gesammelte Straße zählt",
        "Eine über mehrere Versuche gesammelte Straße zählt als Straße, nicht als Hausnummer.",
        "Eine 1 rausgelegt, dann 2-3 gewürfelt: Straße 123 (zwei Deckel) statt 321.",
        "RebelMetal/schocken-web-app; shawdyy/schocken (throwTogether)",
    ),
    FlagInfo(
        "collected_general_counts",
        VARIANT,
        "Gesammelter General zählt",
        "Ein über mehrere Versuche gesammelter General zählt als General, nicht als Hausnummer.",
        "5-5 rausgelegt, dann eine 5 gewürfelt: General 5 (drei Deckel) statt 555.",
        "RebelMetal/schocken-web-app; shawdyy/schocken (throwTogether)",
    ),
    FlagInfo(
        "natural_wins_ties",
        VARIANT,
        "Aus der Hand gewinnt",
        "Bei gleichem Wurf gewinnt der Wurf aus der Hand gegen einen zusammengeworfenen, "
        "vor der Zahl der Versuche.",
        "Schock 5 aus der Hand im dritten schlägt Schock 5 im zweiten, der gesammelt wurde.",
        "RebelMetal/schocken-web-app (Hand beats combined)",
    ),
    FlagInfo(
        "keep_sixes",
        VARIANT,
        "Auch Sechsen rauslegen",
        "Wo nur Einsen rausgelegt werden, dürfen auch Sechsen liegen bleiben.",
        "Nach 6-4-1 dürfen die 6 und die 1 liegen bleiben.",
        "shawdyy/schocken (whichNumbersCanBeHeld: oneSix)",
    ),
)

FLAGS_BY_NAME: dict[str, FlagInfo] = {flag.name: flag for flag in FLAGS}

_RULE_FIELDS = tuple(f.name for f in fields(RuleSet) if f.name != "name")
if set(FLAGS_BY_NAME) != set(_RULE_FIELDS):  # pragma: no cover - caught by the tests
    raise ImportError("games.rules.flags.FLAGS does not match the RuleSet fields")


def describe(rules: RuleSet) -> list[tuple[FlagInfo, bool | int | str]]:
    """Each flag of ``FLAGS`` with its value in ``rules``, in page order."""
    return [(flag, getattr(rules, flag.name)) for flag in FLAGS]
