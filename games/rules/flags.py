"""Every rule-set flag in German, for the rules page (docs/rules.md 4 and 6, VARIANTS.md).

``FLAGS`` holds one ``FlagInfo`` per ``RuleSet`` field (``name`` excepted), in the order a
page shows them: the switches of docs/rules.md section 6, the seed flags of section 4, then the
variant flags clubs compose. Each entry has a German label, a one-sentence explanation, an
example throw or situation, and where the rule comes from, named in the words club members
use: the presets' German names (as the pages show them; each preset's origin in
``PRESET_SOURCES``) and the public projects of VARIANTS.md. Several texts depend on the
rule set (the number of Deckel, the format, what may be laid out, Umwandlung):
``describe(rules)`` gives the texts for a rule set, ``FLAGS`` those for the club's rules.
A test keeps the table and the ``RuleSet`` fields in step. Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace

from .ruleset import PRESETS, RuleSet

__all__ = ["FLAGS", "FLAGS_BY_NAME", "PRESET_SOURCES", "FlagInfo", "describe"]

#: ``FlagInfo.group`` values.
SECTION_6 = "section_6"
SEED = "seed"
VARIANT = "variant"

#: Where each preset's rules come from, one German sentence for the rules page (docs/rules.md 6
#: names the presets after these rule texts).
PRESET_SOURCES: dict[str, str] = {
    "club": "Nach unseren eigenen Schockerregeln, wie der Verein sie spielt und seit 1979 "
    "Buch führt: ein Spiel um die Deckel, nur Einsen rauslegen, Muss-Regel.",
    "regelwerk2019": "Nach den „Spielregeln Schocken“, Stand November 2019: zwei Hälften "
    "und Finale, Ausscheidung um den Spielbeginn, Deckel nehmen und Königswurf.",
    "stammtisch": "Nach den Regeln einer Stammtischrunde („Schocken heißt das Spiel“), in "
    "der der Verlierer die Getränkerunde zahlt: zwei Hälften und Finale, einwürfeln und "
    "aussteigen, alle Generäle gleich hoch.",
    "meisterschaft": "Nach den Spielregeln zur Schockmeisterschaft: zwei Hälften und "
    "Finale, Ausscheidung bei Spielbeginn, der General schlägt den Schock Doof.",
    "app": "Nach den Schocken-Regeln einer Schocken-App: zwei Hälften und Finale, der "
    "Schock Doof schlägt jeden General.",
}

_CLUB = PRESETS["club"]


@dataclass(frozen=True)
class FlagInfo:
    """One rule-set flag as a rules page shows it.

    Attributes:
        name: the ``RuleSet`` field.
        group: ``"section_6"`` (docs/rules.md 6), ``"seed"`` (docs/rules.md 4) or ``"variant"``.
        label: German name of the rule.
        explanation: German: what the rule does when on (or what the number means), for
            the rule set the entry was made for (``describe``).
        example: a German example throw or situation that can happen under that rule set
            with the flag on, or a sentence saying why none can; where the rule set leaves
            the flag without effect (one attempt, a single game), the explanation says so.
        source: where the rule comes from: the presets that play it (by their German
            names) and the public projects of VARIANTS.md.
    """

    name: str
    group: str
    label: str
    explanation: str
    example: str
    source: str


def _lost(rules: RuleSet) -> str:
    """What holding all Deckel loses under ``rules``' format."""
    return "die Hälfte bzw. das Finale" if rules.format == "halves" else "das Spiel"


def _keepable(rules: RuleSet) -> str:
    return "Einsen und Sechsen" if rules.keep_sixes else "Einsen"


def _keep_only_ones(rules: RuleSet) -> dict[str, str]:
    made = " (auch Einsen aus Umwandlung)" if rules.umwandlung else ""
    if rules.keep_sixes:
        return {
            "explanation": f"Rausgelegt werden nur Einsen{made} und, mit „Auch Sechsen "
            "rauslegen“, Sechsen; ein zusammengeworfener Wurf zeigt daher immer eine Eins oder "
            "eine Sechs. Sonst darf jeder Würfel rausgelegt werden.",
            "example": "Nach 6-4-1 dürfen die 6 und die 1 liegen bleiben, nicht die 4.",
        }
    return {
        "explanation": f"Rausgelegt werden nur Einsen{made}; ein zusammengeworfener Wurf zeigt "
        "daher immer eine Eins. Sonst darf jeder Würfel rausgelegt werden.",
        "example": "Nach 6-4-1 darf nur die 1 liegen bleiben, nicht die 6.",
    }


def _muss_regel(rules: RuleSet) -> dict[str, str]:
    if rules.umwandlung:
        return {
            "explanation": "Solange ein Spieler noch einen Versuch hat und sein nächster "
            "Schock-Aus eine Runde kosten würde (der erste und jeder fünfte des Abends, im "
            "letzten Spiel jeder): zeigen die Würfel eine Eins, muss er die gewürfelten Einsen "
            "rauslegen und weiterwürfeln; ebenso muss er für zwei Sechsen aus einem Wurf eine "
            "Eins rauslegen und fortfahren. Zeigen sie keine Eins und keine zwei Sechsen, darf "
            "er aufhören oder weitermachen.",
            "example": "Der erste Schock-Aus des Abends steht noch aus: nach 6-4-1 im ersten "
            "Versuch muss die 1 raus und weitergewürfelt werden, nach 6-6-3 ebenso (eine Eins "
            "für die zwei Sechsen); nach 6-4-2 darf der Spieler stehen lassen.",
        }
    return {
        "explanation": "Solange ein Spieler noch einen Versuch hat und sein nächster "
        "Schock-Aus eine Runde kosten würde (der erste und jeder fünfte des Abends, im "
        "letzten Spiel jeder): zeigen die Würfel eine Eins, muss er die gewürfelten Einsen "
        "rauslegen und weiterwürfeln. Zeigen sie keine Eins, darf er aufhören oder "
        "weitermachen (ohne Umwandlung verpflichten zwei Sechsen zu nichts).",
        "example": "Der erste Schock-Aus des Abends steht noch aus: nach 6-4-1 im ersten "
        "Versuch muss die 1 raus und weitergewürfelt werden; nach 6-6-2 darf der Spieler "
        "stehen lassen.",
    }


def _format(rules: RuleSet) -> dict[str, str]:
    n = rules.deckel_total
    if rules.format == "halves":
        return {
            "explanation": f"Zwei Hälften um je {n} Deckel, dann ein Finale der beiden "
            f"Hälftenverlierer um {n} Deckel; wer alle {n} hat, verliert die Hälfte bzw. das "
            f"Finale. Sonst: ein einziges Spiel um {n} Deckel.",
            "example": "Wer beide Hälften verliert, hat das Spiel sofort verloren "
            "(Blattschuss); sonst verliert es, wer das Finale verliert.",
        }
    return {
        "explanation": f"Ein Spiel um {n} Deckel: wer alle {n} hat, hat das Spiel verloren. "
        "Sonst: zwei Hälften und ein Finale der beiden Hälftenverlierer.",
        "example": f"Bernd hat alle {n} Deckel: er hat das Spiel verloren und legt das "
        "nächste vor.",
    }


def _deckel_total(rules: RuleSet) -> dict[str, str]:
    n = rules.deckel_total
    where = "jeder Hälfte und des Finales" if rules.format == "halves" else "des Spiels"
    return {
        "explanation": f"{n} Deckel liegen zu Beginn {where} im Stock; wer alle {n} hat, "
        f"verliert {_lost(rules)}.",
        "example": f"Ein Schock-Aus bringt dem Verlierer der Runde alle {n} Deckel: er hat "
        f"{_lost(rules)} verloren.",
    }


def _max_attempts(rules: RuleSet) -> dict[str, str]:
    examples = {
        3: "Legt der Vorleger im zweiten Versuch vor, haben alle anderen nur zwei.",
        2: "Legt der Vorleger im ersten Versuch vor, haben alle anderen nur einen.",
        1: "Jeder hat nur einen Versuch; rausgelegt wird nichts.",
    }
    return {"example": examples[rules.max_attempts]}


def _ausscheidung(rules: RuleSet) -> dict[str, str]:
    halves = rules.format == "halves"
    first = "der ersten Hälfte" if halves else "des Spiels"
    lost = "die erste Hälfte" if halves else "das Spiel"
    return {
        "explanation": f"Vor der ersten Runde {first} wirft jeder einmal; der schlechteste "
        "Wurf nimmt so viele Deckel aus dem Stock, wie der beste Wurf wert ist, und legt die "
        "erste Runde vor. Bei Gleichstand werfen nur die Gleichen noch einmal, und dieser "
        "Wurf gilt.",
        "example": "Zwei Spieler werfen 2-2-1 und müssen noch einmal; wirft dann einer 1-1-1, "
        f"hat der andere {lost} verloren (alle {rules.deckel_total} Deckel).",
    }


def _opener_choice(rules: RuleSet) -> dict[str, str]:
    if rules.format == "halves":
        return {}
    return {
        "explanation": "Wer die erste Hälfte verloren hat, bestimmt, wer die zweite Hälfte "
        "vorlegt (sonst legt er selbst vor). Bei einem einzigen Spiel ohne Hälften ohne "
        "Wirkung.",
    }


def _einwuerfeln(rules: RuleSet) -> dict[str, str]:
    if rules.format == "halves":
        return {}
    return {
        "explanation": "Zwischen zwei Runden darf jemand ohne Deckel in das laufende Spiel "
        "einsteigen, solange noch Deckel im Stock liegen; aussteigen darf nur, wer in "
        "diesem Spiel noch keine Deckel erhalten hat. Wer ausgestiegen ist, bleibt bis zum "
        "Ende des Spiels draußen.",
        "example": "Carla kommt später und würfelt sich ins Spiel ein; Dieter hat noch keine "
        "Deckel bekommen und steigt aus.",
    }


def _umwandlung(rules: RuleSet) -> dict[str, str]:
    if not rules.keep_only_ones:
        rest = "die 3 darf liegen bleiben oder mitgewürfelt werden."
    else:
        rest = f"die 3 muss mit zurück (rausgelegt werden nur {_keepable(rules)})."
    return {
        "example": "6-6-3 im ersten Versuch: eine Eins raus, die andere 6 zurück in den "
        f"Becher; {rest}",
    }


def _collected_strasse_counts(rules: RuleSet) -> dict[str, str]:
    if not rules.keep_only_ones:
        return {}
    which = "können nur die 1-2-3 und die 4-5-6" if rules.keep_sixes else "kann nur die 1-2-3"
    return {
        "explanation": "Eine über mehrere Versuche gesammelte Straße zählt als Straße, nicht "
        f"als Hausnummer. Da nur {_keepable(rules)} rausgelegt werden, {which} gesammelt "
        "werden.",
    }


def _collected_general_counts(rules: RuleSet) -> dict[str, str]:
    if not rules.keep_only_ones:
        return {}
    if rules.keep_sixes:
        return {
            "explanation": "Ein über mehrere Versuche gesammelter General zählt als General, "
            "nicht als Hausnummer. Da nur Einsen und Sechsen rausgelegt werden, kann nur der "
            "General 6 gesammelt werden.",
            "example": "Eine 6 rausgelegt, im letzten Versuch 6-6 gewürfelt: General 6 "
            "(drei Deckel) statt 666.",
        }
    return {
        "explanation": "Ein über mehrere Versuche gesammelter General zählt als General, "
        "nicht als Hausnummer. Nach diesen Regeln ohne Wirkung: rausgelegt werden nur "
        "Einsen, und drei gesammelte Einsen sind ein Schock-Aus.",
        "example": "Keines: ein gesammelter General bräuchte rausgelegte Zweien bis Sechsen. "
        "Wo jeder Würfel rausgelegt wird: 5-5 rausgelegt, dann eine 5 gewürfelt, General 5 "
        "statt 555.",
    }


def _keep_sixes(rules: RuleSet) -> dict[str, str]:
    if rules.keep_only_ones:
        return {}
    return {
        "explanation": "Wo nur Einsen rausgelegt werden, dürfen auch Sechsen liegen bleiben. "
        "Nach diesen Regeln ohne Wirkung: rausgelegt werden darf ohnehin jeder Würfel.",
    }


#: The texts that depend on the rule set: flag name -> the fields to replace.
_FITTED: dict[str, Callable[[RuleSet], dict[str, str]]] = {
    "keep_only_ones": _keep_only_ones,
    "muss_regel": _muss_regel,
    "format": _format,
    "deckel_total": _deckel_total,
    "max_attempts": _max_attempts,
    "ausscheidung": _ausscheidung,
    "opener_choice": _opener_choice,
    "einwuerfeln": _einwuerfeln,
    "umwandlung": _umwandlung,
    "collected_strasse_counts": _collected_strasse_counts,
    "collected_general_counts": _collected_general_counts,
    "keep_sixes": _keep_sixes,
}

#: The entries before ``describe`` fits them to a rule set; a fitted field's text here is
#: only a placeholder.
_FIT = "(nach dem Regelwerk)"

_BASE: tuple[FlagInfo, ...] = (
    FlagInfo(
        "general_beats_schock_doof",
        SECTION_6,
        "General schlägt Schock Doof",
        "Jeder General ist mehr wert als der Schock Doof (1-1-2); sonst schlägt der Schock "
        "Doof jeden General.",
        "5-5-5 gegen 1-1-2: der General gewinnt die Runde.",
        "Regelwerk 2019 und Meisterschaft, so spielt es auch der Verein; anders: Stammtisch "
        "und App",
    ),
    FlagInfo(
        "generals_ranked",
        SECTION_6,
        "Generäle nach Augen",
        "Ein höherer General schlägt einen niedrigeren; sonst sind alle Generäle gleich hoch "
        "und es entscheidet, wer bei Gleichstand gewinnt (Mit ist Schitt).",
        "6-6-6 schlägt 2-2-2.",
        "Meisterschaft und App, so spielt es auch der Verein; anders: Stammtisch (alle "
        "Generäle gleich hoch)",
    ),
    FlagInfo(
        "strassen_ranked",
        SECTION_6,
        "Straßen nach Augen",
        "Eine höhere Straße schlägt eine niedrigere; sonst sind alle Straßen gleich hoch.",
        "4-5-6 schlägt 1-2-3.",
        "Stammtisch, Meisterschaft und App; Regelwerk 2019 und die Hausregeln sagen nichts "
        "dazu und werden ebenso gespielt",
    ),
    FlagInfo(
        "fewer_attempts_win_ties",
        SECTION_6,
        "Weniger Versuche gewinnen",
        "Bei gleichem Wurf gewinnt, wer weniger Versuche gebraucht hat; erst danach gilt Mit "
        "ist Schitt.",
        "6-5-5 im zweiten schlägt 6-5-5 im dritten Versuch, auch wenn er später fiel.",
        "Hausregeln des Vereins, Regelwerk 2019, Meisterschaft und App; anders: Stammtisch",
    ),
    FlagInfo(
        "koenigswurf",
        SECTION_6,
        "Königswurf",
        "Ein Schock-Aus aus der Hand schlägt einen zusammengeworfenen Schock-Aus.",
        "1-1-1 aus der Hand im dritten Versuch schlägt 1-1-1, das in drei Versuchen "
        "gesammelt wurde.",
        "Regelwerk 2019",
    ),
    FlagInfo(
        "keep_only_ones",
        SECTION_6,
        "Nur Einsen rauslegen",
        _FIT,
        _FIT,
        "Hausregeln des Vereins",
    ),
    FlagInfo("muss_regel", SECTION_6, "Muss-Regel", _FIT, _FIT, "Hausregeln des Vereins"),
    FlagInfo(
        "format",
        SECTION_6,
        "Spielform",
        _FIT,
        _FIT,
        "Hausregeln des Vereins (ein Spiel); Regelwerk 2019, Stammtisch, Meisterschaft und "
        "App (zwei Hälften und Finale)",
    ),
    FlagInfo(
        "deckel_total",
        VARIANT,
        "Anzahl der Deckel",
        _FIT,
        _FIT,
        "Hausregeln und alle anderen Regelwerke: 13; papr/schocken-discord-bot: 15; ein "
        "Lexikon: 13 bis 17",
    ),
    FlagInfo(
        "max_attempts",
        SECTION_6,
        "Höchstzahl der Versuche",
        "So viele Versuche hat der Vorleger höchstens; die anderen nie mehr, als er gebraucht hat.",
        _FIT,
        "Hausregeln und alle anderen Regelwerke: 3",
    ),
    FlagInfo(
        "ausscheidung",
        SEED,
        "Ausscheidung um den Spielbeginn",
        _FIT,
        _FIT,
        "Regelwerk 2019 und Meisterschaft",
    ),
    FlagInfo(
        "deckel_nehmen",
        SEED,
        "Deckel nehmen",
        "Wer seinen Wurf gewürfelt, aber noch verdeckt hat (kein Würfel draußen), darf ihn "
        "stehen lassen und so viele Deckel nehmen, wie der beste Wurf der Runde bisher wert "
        "ist; damit endet die Runde, und mit dem verdeckten Wurf als erstem Versuch legt er "
        "die nächste Runde vor.",
        "Anna legt Schock 3 im ersten Versuch vor; Bernd lässt seinen Becher verdeckt, nimmt "
        "drei Deckel und legt mit dem verdeckten Wurf die nächste Runde vor.",
        "Regelwerk 2019",
    ),
    FlagInfo(
        "opener_choice",
        SEED,
        "Verlierer der ersten Hälfte bestimmt den Vorleger",
        "Wer die erste Hälfte verloren hat, bestimmt, wer die zweite Hälfte vorlegt (sonst "
        "legt er selbst vor).",
        "Anna verliert die erste Hälfte und lässt Bernd die zweite vorlegen.",
        "Regelwerk 2019",
    ),
    FlagInfo(
        "einwuerfeln",
        SEED,
        "Einwürfeln und Aussteigen",
        "Zwischen zwei Runden darf jemand ohne Deckel in eine laufende Hälfte einsteigen, "
        "solange noch Deckel im Stock liegen; aussteigen darf nur, wer in diesem Spiel noch "
        "keine Deckel erhalten hat (wer eine Hälfte verloren hat, bleibt also dabei). Wer "
        "ausgestiegen ist, bleibt bis zum Ende des Spiels draußen.",
        "Carla kommt später und würfelt sich in die erste Hälfte ein; Dieter hat noch keine "
        "Deckel bekommen und steigt aus.",
        "Stammtisch",
    ),
    FlagInfo(
        "umwandlung",
        VARIANT,
        "Umwandlung",
        "Zwei Sechsen eines Versuchs dürfen zu einer rausgelegten Eins werden, die andere "
        "Sechs kommt zurück in den Becher (drei Sechsen zu zwei Einsen, die dritte kommt "
        "zurück), wenn noch ein Versuch folgt; danach muss weitergewürfelt werden.",
        _FIT,
        "Hausregeln des Vereins, Regelwerk 2019, Meisterschaft und App; shawdyy/schocken "
        "(twoSixToOne)",
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
        "Eine 1 rausgelegt, im letzten Versuch 2-3 gewürfelt: Straße 123 (zwei Deckel) statt 321.",
        "RebelMetal/schocken-web-app; shawdyy/schocken (throwTogether); anders: Hausregeln "
        "des Vereins (ausdrücklich auch für die 1-2-3), Regelwerk 2019, Stammtisch und "
        "Meisterschaft (nur in einem Wurf)",
    ),
    FlagInfo(
        "collected_general_counts",
        VARIANT,
        "Gesammelter General zählt",
        "Ein über mehrere Versuche gesammelter General zählt als General, nicht als Hausnummer.",
        "5-5 rausgelegt, dann eine 5 gewürfelt: General 5 (drei Deckel) statt 555.",
        "RebelMetal/schocken-web-app; shawdyy/schocken (throwTogether); anders: alle Regelwerke",
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


#: Flags that need a second attempt: with one attempt nothing is laid out, no throw is
#: collected and no attempt is left to go on with.
_NEED_TWO_ATTEMPTS = frozenset(
    {
        "koenigswurf",
        "keep_only_ones",
        "muss_regel",
        "umwandlung",
        "collected_strasse_counts",
        "collected_general_counts",
        "natural_wins_ties",
        "keep_sixes",
    }
)


def _fit(flag: FlagInfo, rules: RuleSet) -> FlagInfo:
    fitted = _FITTED.get(flag.name)
    if fitted is not None:
        flag = replace(flag, **fitted(rules))
    if rules.max_attempts == 1 and flag.name in _NEED_TWO_ATTEMPTS:
        flag = replace(
            flag,
            explanation=flag.explanation + " Mit nur einem Versuch ohne Wirkung: es wird "
            "nichts rausgelegt und nichts gesammelt.",
        )
    return flag


def describe(rules: RuleSet) -> list[tuple[FlagInfo, bool | int | str]]:
    """Each flag with its texts fitted to ``rules`` and its value in ``rules``, in page
    order (the number of Deckel, the format, what may be laid out and Umwandlung change
    what several flags say)."""
    return [(_fit(flag, rules), getattr(rules, flag.name)) for flag in _BASE]


#: Every flag with its texts for the club's rules (``PRESETS["club"]``), in page order.
FLAGS: tuple[FlagInfo, ...] = tuple(flag for flag, _value in describe(_CLUB))

FLAGS_BY_NAME: dict[str, FlagInfo] = {flag.name: flag for flag in FLAGS}

_RULE_FIELDS = tuple(f.name for f in fields(RuleSet) if f.name != "name")
if set(FLAGS_BY_NAME) != set(_RULE_FIELDS):  # pragma: no cover - caught by the tests
    raise ImportError("games.rules.flags.FLAGS does not match the RuleSet fields")
