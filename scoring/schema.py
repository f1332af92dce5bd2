"""Validation derived from the declared wire shapes (scoring/contract.py, game/contract.py...).

:func:`validator` compiles a JSON Schema into a check that raises the project's :class:`Refusal`
naming the field at fault (``melds[1].type``, ``winners[0].value.han``), so which fields exist,
their types, bounds and enums are said once, in the schema, and the OpenAPI document and the
server read the same declaration. Semantic checks a schema cannot state (a tile count, a hand
that is not complete, riichi without points) stay in the domain code.

The subset understood is the one the contracts use: ``type`` (one or a list), ``enum``,
``minimum``, ``maximum``, ``multipleOf``, ``minLength``, ``maxLength``, ``pattern``,
``required``, ``properties``, ``additionalProperties: false``, ``items``, ``minItems``,
``maxItems``, ``uniqueItems`` and ``oneOf``, whose branches are told apart by OpenAPI's
``discriminator`` (a table hand's ``result``) or else by their first required property (the
first branch whose key is present applies; branches that each forbid the others' keys make
``oneOf`` hold exactly as JSON Schema has it). Any other keyword is refused when compiling, so
a schema never claims a check that is not made; tests/test_contract.py compares the verdicts
with a reference JSON Schema validator on fuzzed bodies.

Each failure is refused with a kind and a detail id (scoring/errors.py DETAILS): a node may say
which in ``x-refusal`` (``{"keyword": [kind, detail_id]}``, ``"*"`` for every keyword of that
node), else the keyword's default below. The detail's parameters are taken by name from what
the failed check knows (``max``, ``min``, ``count``, ``key``, ``allowed``, ``choices``, ``name``,
``step``), so a detail id always gets exactly the parameters it declares; ``required:<key>``
names the refusal of one missing key. More extensions: ``x-items-at-array`` reports an item's
failure at the array's own field (``compare`` says "a list of rule set names"); ``x-explain``
names a function that says where a string the ``pattern`` refused goes wrong (tile notation);
``x-bound-by-ruleset`` marks a node whose bounds are the table's rule set's, left to the domain.

Each check first runs a quick test generated from the schema as one expression (:func:`accepts`;
the score request's is generated into scoring/_checks.py and compiled with the scoring core), and
only a value it declines goes through the check that names the field: valid requests, the common
case, cost one call.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .errors import DETAILS, Refusal

Schema = dict[str, Any]
#: A compiled check: (value, field path) -> None, or raises a Refusal.
Check = Callable[[Any, str], None]
#: An explainer (named by x-explain): called on a string the ``pattern`` refused, to raise the precise refusal.
Explain = Callable[[str, str], object]

KEYWORDS = frozenset((
    "type", "enum", "minimum", "maximum", "multipleOf", "minLength", "maxLength", "pattern", "required",
    "properties", "additionalProperties", "items", "minItems", "maxItems", "uniqueItems", "oneOf",
    # words for the reader and the document, not checks
    "description", "default", "examples", "title",
    # this module's extensions
    "x-refusal", "x-items-at-array", "x-explain", "x-bound-by-ruleset", "discriminator",
))

#: The keywords that check something (the others describe).
CHECKS = frozenset(("type", "enum", "minimum", "maximum", "multipleOf", "minLength", "maxLength", "pattern", "required",
                    "properties", "additionalProperties", "items", "minItems", "maxItems", "uniqueItems", "oneOf"))

_DEFAULTS: dict[str, tuple[str, str]] = {
    "type:integer": ("malformed", "not_whole_number"),
    "type:boolean": ("malformed", "not_true_false"),
    "type:array": ("malformed", "not_list"),
    "type:object": ("malformed", "body_object"),
    "enum": ("malformed", "choice"),
    "multipleOf": ("impossible", "multiple_of"),
    "maxLength": ("impossible", "text_length"),
    "additionalProperties": ("impossible", "unknown_field"),
}


def _is_type(value: Any, name: str) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "integer":
        return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))
    if name == "boolean":
        return value is True or value is False
    if name == "object":
        return isinstance(value, Mapping)
    if name == "array":
        return isinstance(value, list)
    if name == "null":
        return value is None
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    raise KeyError(f"unknown JSON Schema type {name!r}")


def refusal_for(node: Schema, keyword: str) -> tuple[str, str]:
    """The kind and detail id a failure of ``keyword`` at ``node`` is refused with."""
    own = node.get("x-refusal", {})
    if keyword in own:
        kind, detail_id = own[keyword]
        return kind, detail_id
    if "*" in own:
        kind, detail_id = own["*"]
        return kind, detail_id
    if keyword.startswith("type:") and "enum" in node:
        return refusal_for(node, "enum")  # not even a string: not one of the choices
    if keyword.startswith("required:"):
        return refusal_for(node, "required")
    if keyword == "minimum":
        return ("impossible", "negative") if node["minimum"] == 0 else ("impossible", "range")
    if keyword == "maximum":
        return ("impossible", "at_most") if node.get("minimum", 0) == 0 else ("impossible", "range")
    found = _DEFAULTS.get(keyword)
    if found is None:
        raise KeyError(f"no refusal declared for {keyword!r} in {node}")
    return found


def _thrower(node: Schema, keyword: str, error: type[Refusal], known: Mapping[str, Any]) -> Callable[..., None]:
    """A function raising the refusal for ``keyword`` at ``node``; checked against DETAILS when compiled."""
    kind, detail_id = refusal_for(node, keyword)
    wanted = DETAILS[detail_id]
    fixed = {name: known[name] for name in wanted if name in known}

    def throw(field: str, **found: Any) -> None:
        params = {**fixed, **{name: found[name] for name in wanted if name in found}}
        raise error(field or None, kind, detail_id, **params)

    missing = [name for name in wanted if name not in known and name not in _FOUND_AT_RUN[keyword.split(":")[0]]]
    if missing:
        raise KeyError(f"detail {detail_id!r} for {keyword!r} needs {missing}, which the check cannot give")
    return throw


_FOUND_AT_RUN: dict[str, tuple[str, ...]] = {
    "type": ("name",), "enum": ("name",), "minimum": (), "maximum": (), "multipleOf": (), "minLength": ("count",),
    "maxLength": ("count",), "pattern": (), "required": ("key",), "additionalProperties": ("key", "name"),
    "minItems": ("count",), "maxItems": ("count",), "uniqueItems": (), "oneOf": (), "items": ("name",),
}


def _child(field: str, key: str) -> str:
    return f"{field}.{key}" if field else key


def validator(schema: Schema, error: type[Refusal], *, explain: Mapping[str, Explain] | None = None,
              strict: bool = True, quick: Callable[[Any], bool] | None = None) -> Check:
    """The check of ``schema`` raising ``error`` (a Refusal class) at the failing field.

    ``explain`` maps an ``x-explain`` name to a function that raises the precise refusal for a string
    its ``pattern`` refused (tile notation says where it goes wrong). With ``strict=False`` the
    check does not refuse unknown properties (``additionalProperties: false``): that is for
    reading back what was stored before a field was declared; :func:`only_declared` drops them.
    ``quick`` is the schema's generated quick test when it is compiled (:func:`module_source`)."""
    slow = _compile(schema, error, dict(explain or {}), strict)
    if quick is None:
        quick = accepts(schema, strict)

    def check(value: Any, field: str) -> None:
        if not quick(value):
            slow(value, field)  # names the field and the reason (and takes what the quick test was unsure of)
    return check


def accepts(schema: Schema, strict: bool = True) -> Callable[[Any], bool]:
    """A quick test that ``value`` is valid, generated from ``schema`` as one Python expression.

    It never accepts what the full check refuses, and it may decline what that check would take
    (a subclass of int or dict, a non-string enum): then the full check decides. Valid requests,
    the common case, are checked by one call instead of a call per keyword and field."""
    names: dict[str, Any] = {}
    source = _expr(schema, "v", names, strict, [0])
    for key, value in list(names.items()):
        if isinstance(value, _Pattern):
            names[f"{key}_good"], names[f"{key}_learn"] = _learner(_regex(value.source))
    quick: Callable[[Any], bool] = eval(f"lambda v: {source}", {"__builtins__": {"type": type, "len": len, "all": all, "str": str,
                                                           "int": int, "list": list, "dict": dict, "set": set, "map": map, "repr": repr}, **names})  # noqa: S307
    return quick


class _Pattern:
    """A ``pattern`` the quick test matches (with the strings it already matched)."""

    def __init__(self, source: str) -> None:
        self.source = source


def module_source(schemas: Mapping[str, Schema], origin: str) -> str:
    """A Python module with the quick test of each schema as a function (``name(v) -> bool``), for
    the scoring core that mypyc compiles (scoring/_checks.py, written by ``python -m scoring.contract``)."""
    helpers: list[str] = []
    names: dict[str, Any] = {"__helpers__": helpers}
    bodies = {name: _expr(schema, "v", names, True, [0]) for name, schema in schemas.items()}
    del names["__helpers__"]
    out = [f'"""Generated from {origin} by ``python -m scoring.contract``: do not edit (tests/test_contract.py',
           'checks it is up to date). The quick tests of scoring/schema.py.accepts, compiled with the scoring core."""',
           "# ruff: noqa",
           "from __future__ import annotations", "", "import re", "from typing import Any", ""]
    for key, value in names.items():
        if isinstance(value, _Pattern):
            out += [f"{key} = re.compile({_regex(value.source).pattern!r})", f"{key}_good: set[str] = set()", "",
                    "", f"def {key}_learn(text: str) -> bool:", f"    if {key}.search(text) is None:", "        return False",
                    f"    if len({key}_good) < 50_000:", f"        {key}_good.add(text)", "    return True", ""]
        else:
            out += [f"{key} = frozenset({sorted(value)!r})"]
    for helper in helpers:
        out += ["", "", helper]
    for name, body in bodies.items():
        out += ["", "", f"def {name}(v: Any) -> bool:", f"    return bool({body})"]
    return "\n".join(out) + "\n"


def _learner(pattern: re.Pattern[str]) -> tuple[set[str], Callable[[str], bool]]:
    """The strings known to match ``pattern`` (tiles of melds and indicators repeat: each is matched
    once), and the test that matches a new one and remembers it."""
    good: set[str] = set()

    def learn(text: str) -> bool:
        if pattern.search(text) is None:
            return False
        if len(good) < 50_000:
            good.add(text)
        return True
    return good, learn


def _name(names: dict[str, Any], value: Any) -> str:
    key = f"_k{len(names)}"
    names[key] = value
    return key


def _expr(node: Schema, v: str, names: dict[str, Any], strict: bool, depth: list[int]) -> str:
    """A Python expression over the variable ``v``, true only when ``v`` is valid for ``node``."""
    if node.get("x-bound-by-ruleset") or not CHECKS & set(node):
        return "True"
    types = node.get("type")
    names_of = ((types,) if isinstance(types, str) else tuple(types)) if types is not None else ()
    if types is None or "number" in names_of:
        return "False"  # not needed by the contracts: the full check decides
    parts: list[str] = []
    if "enum" in node:
        if not all(isinstance(c, str) for c in node["enum"]):
            return "False"
        parts.append(f"(type({v}) is str and {v} in {_name(names, frozenset(node['enum']))})")
    alternatives: list[str] = []
    for kind in names_of:
        if kind == "null":
            alternatives.append(f"{v} is None")
        elif kind == "boolean":
            alternatives.append(f"({v} is True or {v} is False)")
        elif kind == "integer":
            test = [f"type({v}) is int"]
            if "minimum" in node:
                test.append(f"{v} >= {node['minimum']!r}")
            if "maximum" in node:
                test.append(f"{v} <= {node['maximum']!r}")
            if "multipleOf" in node:
                test.append(f"{v} % {node['multipleOf']!r} == 0")
            alternatives.append("(" + " and ".join(test) + ")")
        elif kind == "string":
            test = [f"type({v}) is str"]
            if "minLength" in node:
                test.append(f"len({v}) >= {node['minLength']!r}")
            if "maxLength" in node:
                test.append(f"len({v}) <= {node['maxLength']!r}")
            if "pattern" in node:
                key = next((k for k, known in names.items() if isinstance(known, _Pattern) and known.source == node["pattern"]),
                           None) or _name(names, _Pattern(node["pattern"]))
                test.append(f"({v} in {key}_good or {key}_learn({v}))")
            alternatives.append("(" + " and ".join(test) + ")")
        elif kind == "array":
            depth[0] += 1
            x = f"x{depth[0]}"
            test = [f"type({v}) is list"]
            if "minItems" in node:
                test.append(f"len({v}) >= {node['minItems']!r}")
            if "maxItems" in node:
                test.append(f"len({v}) <= {node['maxItems']!r}")
            if "items" in node:
                test.append(f"all({_expr(node['items'], x, names, strict, depth)} for {x} in {v})")
            if node.get("uniqueItems"):
                test.append(f"len(set(map(repr, {v}))) == len({v})")
            alternatives.append("(" + " and ".join(test) + ")")
        elif kind == "object":
            helpers: list[str] | None = names.get("__helpers__")
            if helpers is None:
                alternatives.append(_object_expr(node, v, names, strict, depth))
            else:  # compiled: a function of its own whose argument is known to be a dict (mypyc's fast dict calls)
                index = len(helpers)
                helpers.append("")
                body = _object_expr(node, "d", names, strict, [0])
                helpers[index] = f"def _o{index}(d: dict[Any, Any]) -> bool:\n    return bool({body})"
                alternatives.append(f"(type({v}) is dict and _o{index}({v}))")
        else:
            return "False"
    parts.append("(" + " or ".join(alternatives) + ")")
    return "(" + " and ".join(parts) + ")"


def _object_expr(node: Schema, v: str, names: dict[str, Any], strict: bool, depth: list[int]) -> str:
    test = [f"type({v}) is dict"]
    test += [f"{key!r} in {v}" for key in node.get("required", ())]
    props: dict[str, Schema] = node.get("properties", {})
    if node.get("additionalProperties", True) is False and strict:
        test.append(f"{_name(names, frozenset(props))}.issuperset({v})")
    for key, sub in props.items():
        inner = _expr(sub, f"{v}[{key!r}]", names, strict, depth)
        if inner != "True":
            test.append(f"({key!r} not in {v} or {inner})")
    if "oneOf" in node:
        if "discriminator" in node:
            by = node["discriminator"]["propertyName"]
            chain = "False"
            for branch in reversed(node["oneOf"]):
                cond = " or ".join(f"{v}.get({by!r}) == {c!r}" for c in branch["properties"][by]["enum"])
                chain = f"({_object_expr(branch, v, names, strict, depth)} if ({cond}) else {chain})"
        else:
            chain = "False"
            for branch in reversed(node["oneOf"]):
                chain = f"({_object_expr(branch, v, names, strict, depth)} if {branch['required'][0]!r} in {v} else {chain})"
        test.append(chain)
    return "(" + " and ".join(test) + ")"


def _compile(node: Schema, error: type[Refusal], explain: dict[str, Explain], strict: bool) -> Check:
    unknown = set(node) - KEYWORDS
    if unknown:
        raise KeyError(f"schema keywords not understood by the validator: {sorted(unknown)}")
    if node.get("x-bound-by-ruleset"):
        return _accept  # its bounds are the rule set's: the domain code checks it
    checks: list[Check] = []

    types = node.get("type")
    if types is not None:
        names = (types,) if isinstance(types, str) else tuple(types)
        primary = next((n for n in names if n != "null"), names[0])
        throw_type = _thrower(node, f"type:{primary}", error, _known(node))
        if names == ("integer",):
            def check_integer(value: Any, field: str) -> None:
                if type(value) is not int and (isinstance(value, bool) or not isinstance(value, int)):
                    throw_type(field, name=_shown(value))
            checks.append(check_integer)
        elif names == ("string",):
            def check_string(value: Any, field: str) -> None:
                if not isinstance(value, str):
                    throw_type(field, name=_shown(value))
            checks.append(check_string)
        elif names == ("boolean",):
            def check_boolean(value: Any, field: str) -> None:
                if value is not True and value is not False:
                    throw_type(field, name=_shown(value))
            checks.append(check_boolean)
        else:
            def check_type(value: Any, field: str) -> None:
                if not any(_is_type(value, n) for n in names):
                    throw_type(field, name=_shown(value))
            checks.append(check_type)
        nullable = "null" in names
    else:
        nullable = True

    def guarded(check: Check, kinds: tuple[type, ...] | type) -> Check:
        """Run a keyword's check only on values of the type it is about (as JSON Schema has it)."""
        def run(value: Any, field: str) -> None:
            if isinstance(value, kinds) and not isinstance(value, bool):
                check(value, field)
        return run if types is None or nullable or len(names) > 1 else check

    if "enum" in node:
        choices = frozenset(node["enum"])
        throw_enum = _thrower(node, "enum", error, _known(node))

        def check_enum(value: Any, field: str) -> None:
            try:
                ok = value in choices
            except TypeError:  # unhashable: a list or an object
                ok = False
            if not ok:
                throw_enum(field, name=_shown(value))
        checks.append(check_enum)

    if "minimum" in node or "maximum" in node or "multipleOf" in node:
        low, high, step = node.get("minimum"), node.get("maximum"), node.get("multipleOf")
        throw_low = _thrower(node, "minimum", error, _known(node)) if low is not None else None
        throw_high = _thrower(node, "maximum", error, _known(node)) if high is not None else None
        throw_step = _thrower(node, "multipleOf", error, _known(node)) if step is not None else None

        def check_number(value: Any, field: str) -> None:
            if low is not None and value < low:
                throw_low(field)  # type: ignore[misc]
            if high is not None and value > high:
                throw_high(field)  # type: ignore[misc]
            if step is not None and value % step:
                throw_step(field)  # type: ignore[misc]
        checks.append(guarded(check_number, (int, float)))

    if "minLength" in node or "maxLength" in node or "pattern" in node:
        shortest, longest = node.get("minLength"), node.get("maxLength")
        throw_short = _thrower(node, "minLength", error, _known(node)) if shortest is not None else None
        throw_long = _thrower(node, "maxLength", error, _known(node)) if longest is not None else None
        pattern = _regex(node["pattern"]) if "pattern" in node else None
        throw_pattern = _thrower(node, "pattern", error, _known(node)) if pattern is not None else None
        explainer = explain[node["x-explain"]] if "x-explain" in node else None

        def check_text(value: Any, field: str) -> None:
            if shortest is not None and len(value) < shortest:
                throw_short(field, count=len(value))  # type: ignore[misc]
            if longest is not None and len(value) > longest:
                throw_long(field, count=len(value))  # type: ignore[misc]
            if pattern is not None and pattern.search(value) is None:
                if explainer is not None:
                    explainer(value, field)
                throw_pattern(field)  # type: ignore[misc]
        checks.append(guarded(check_text, str))

    if "items" in node or "minItems" in node or "maxItems" in node or node.get("uniqueItems"):
        fewest, most = node.get("minItems"), node.get("maxItems")
        unique = bool(node.get("uniqueItems"))
        throw_twice = _thrower(node, "uniqueItems", error, _known(node)) if unique else None
        throw_few = _thrower(node, "minItems", error, _known(node)) if fewest is not None else None
        throw_many = _thrower(node, "maxItems", error, _known(node)) if most is not None else None
        item = _compile(node["items"], error, explain, strict) if "items" in node else None
        at_array = bool(node.get("x-items-at-array"))

        def check_items(value: Any, field: str) -> None:
            if fewest is not None and len(value) < fewest:
                throw_few(field, count=len(value))  # type: ignore[misc]
            if most is not None and len(value) > most:
                throw_many(field, count=len(value))  # type: ignore[misc]
            if item is not None:
                for i, v in enumerate(value):
                    item(v, field if at_array else f"{field}[{i}]")
            if unique and len({repr(v) for v in value}) != len(value):
                throw_twice(field)  # type: ignore[misc]
        checks.append(guarded(check_items, list))

    if "properties" in node or "required" in node or "additionalProperties" in node:
        checks.append(guarded(_object_check(node, error, explain, strict), Mapping))

    if "oneOf" in node and "discriminator" in node:
        by = node["discriminator"]["propertyName"]
        chosen = {choice: _compile(branch, error, explain, strict)
                  for branch in node["oneOf"] for choice in branch["properties"][by]["enum"]}

        def check_discriminated(value: Any, field: str) -> None:
            check = chosen.get(value.get(by)) if isinstance(value.get(by), str) else None
            if check is not None:
                check(value, field)  # no branch: the node's own properties refuse the value at ``by``
        checks.append(guarded(check_discriminated, Mapping))
    elif "oneOf" in node:
        branches = [(branch["required"][0], _compile(branch, error, explain, strict)) for branch in node["oneOf"]]
        throw_none = _thrower(node, "oneOf", error, _known(node))

        def check_one_of(value: Any, field: str) -> None:
            for key, branch in branches:
                if key in value:
                    branch(value, field)
                    return
            throw_none(field)
        checks.append(guarded(check_one_of, Mapping))

    if not checks:
        return _accept
    if len(checks) == 1:
        return checks[0]
    if nullable and types is not None:
        first, rest = checks[0], tuple(checks[1:])

        def check_nullable(value: Any, field: str) -> None:
            first(value, field)
            if value is not None:
                for c in rest:
                    c(value, field)
        return check_nullable
    every = tuple(checks)

    def check_all(value: Any, field: str) -> None:
        for c in every:
            c(value, field)
    return check_all


def _object_check(node: Schema, error: type[Refusal], explain: dict[str, Explain], strict: bool) -> Check:
    props = {key: _compile(sub, error, explain, strict) for key, sub in node.get("properties", {}).items()}
    order = tuple(props.items())
    # a missing key is refused with the bounds of what it should have been (``penalty_points`` says the most)
    required = tuple((key, _thrower(node, f"required:{key}", error, _known(node.get("properties", {}).get(key, {}))))
                     for key in node.get("required", ()))
    closed = node.get("additionalProperties", True) is False and strict
    if node.get("additionalProperties", True) not in (True, False):
        raise KeyError("additionalProperties is true or false here")
    allowed = ", ".join(props)
    throw_extra = _thrower(node, "additionalProperties", error, {**_known(node), "allowed": allowed}) if closed else None

    def check_object(value: Any, field: str) -> None:
        for key, throw_required in required:
            if key not in value:
                throw_required(_child(field, key), key=key)
        if closed:
            for key in value:
                if key not in props:
                    throw_extra(_child(field, str(key)), key=str(key)[:40], name=str(key)[:40])  # type: ignore[misc]
        if len(value) < len(order):
            for key in value:
                check = props.get(key)
                if check is not None:
                    check(value[key], _child(field, key))
        else:
            for key, check in order:
                if key in value:
                    check(value[key], _child(field, key))
    return check_object


def _regex(pattern: str) -> re.Pattern[str]:
    """A schema's (ECMA) pattern for Python: ``$`` at the end is the end of the text, not of a line."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + "\\Z"
    return re.compile(pattern)


def _known(node: Schema) -> dict[str, Any]:
    """The parameters a node's own keywords give (its bounds)."""
    known: dict[str, Any] = {}
    for name, keyword in (("min", "minimum"), ("max", "maximum"), ("step", "multipleOf")):
        if keyword in node:
            known[name] = node[keyword]
    for keyword in ("maxLength", "maxItems"):
        if keyword in node:
            known["max"] = node[keyword]
    if "minItems" in node and "min" not in known:
        known["min"] = node["minItems"]
    if "enum" in node:
        known["choices"] = ", ".join(map(str, node["enum"]))
    return known


def _accept(value: Any, field: str) -> None:
    return None


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def branch_of(value: Mapping[str, Any], schema: Schema) -> Schema | None:
    """The ``oneOf`` branch that applies to ``value`` (by the discriminator, else the first required key)."""
    if "discriminator" in schema:
        by = schema["discriminator"]["propertyName"]
        return next((b for b in schema["oneOf"] if value.get(by) in b["properties"][by]["enum"]), None)
    return next((b for b in schema["oneOf"] if b["required"][0] in value), None)


def only_declared(value: Any, schema: Schema, error: type[Refusal] | None = None, field: str = "") -> Any:
    """``value`` with only the properties ``schema`` declares where it allows no others, nested ones
    included (``oneOf`` by its branch). With an ``error`` class any other property is refused,
    naming it (how a new hand is checked); without, it is dropped (how a record stored before a
    field was refused is read back, so an old record never blocks the table). Values of the
    wrong shape are kept as they are, for the checks to name."""
    if "oneOf" in schema and isinstance(value, Mapping):
        branch = branch_of(value, schema)
        if branch is None:
            if error is not None and "discriminator" not in schema:
                kind, detail_id = refusal_for(schema, "oneOf")
                raise error(field or None, kind, detail_id)
            return dict(value)
        return only_declared(value, branch, error, field)
    if isinstance(value, Mapping) and "properties" in schema:
        props = schema["properties"]
        closed = schema.get("additionalProperties", True) is False
        if closed and error is not None:
            for key in value:
                if key not in props:
                    kind, detail_id = refusal_for(schema, "additionalProperties")
                    known = {"key": str(key)[:40], "name": str(key)[:40], "allowed": ", ".join(props)}
                    raise error(_child(field, str(key)), kind, detail_id, **{p: known[p] for p in DETAILS[detail_id]})
        return {k: only_declared(v, props[k], error, _child(field, k)) if k in props else v
                for k, v in value.items() if k in props or not closed}
    if isinstance(value, list) and "items" in schema:
        return [only_declared(v, schema["items"], error, f"{field}[{i}]") for i, v in enumerate(value)]
    return value
