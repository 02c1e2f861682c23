"""The structure checks of both record formats, from the JSON Schema files shipped in ``schemas/``.

The files are JSON Schema draft-07, which both validators used here read: ``fastjsonschema`` (compiled, fast)
says whether a record is valid, and only a record it refuses, or one holding a float (which JSON Schema counts as
an integer when whole, and a record never does), goes to ``jsonschema``, slower but exact, which finds the error
to report. Each schema node that can fail carries an ``errorMessage`` (the convention of ajv-errors): the sentence a user
reads, saying what is allowed, either one template or one per failing keyword. In a template ``{value}`` is the
offending value as JSON spells it (``null``, ``"abc"``: the record's own words), ``{kind}`` its JSON kind (``an
array``), ``{json}`` its JSON text cut to 40 characters, ``{index}``
its 1-based position in its list, ``{missing}`` / ``{unknown}`` the keys missing or not allowed; a format's
reader may give more (``{seats}``: `` (3)``, the seat count, where the record has a valid one). Of several
errors the first in the record's own order is reported, so a message names the earliest thing wrong.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib.resources import files
from typing import Any, Callable, Mapping, Sequence

import fastjsonschema
import jsonschema
from jsonschema.validators import extend

from contack_env.records.errors import RecordError
from contack_env.records.values import is_int, json_kind, show

__all__ = ["check_structure", "load_schema", "SCHEMA_FILES"]

SCHEMA_FILES = {
    "contack-record/1": "contack-record-1.schema.json",
    "contactix-record/1": "contactix-record-1.schema.json",
}
"""The schema file (in ``contack_env/records/schemas/``) of each record format."""

# JSON Schema counts 1.0 as an integer; a record never does (a seat, a score or a size is written 1, not 1.0).
# A record made in Python may hold tuples where JSON has arrays (a cell as (x, y)): they are arrays.
_TYPES = jsonschema.Draft7Validator.TYPE_CHECKER.redefine_many(
    {
        "integer": lambda _checker, value: is_int(value),
        "array": lambda _checker, value: isinstance(value, (list, tuple)),
    }
)
_Validator = extend(jsonschema.Draft7Validator, type_checker=_TYPES)


def load_schema(fmt: str) -> dict[str, Any]:
    """The JSON Schema of the record format ``fmt`` (``contack-record/1`` or ``contactix-record/1``); ``ValueError``
    naming them for another."""
    if fmt not in SCHEMA_FILES:
        raise ValueError(f"record formats are {', '.join(map(repr, SCHEMA_FILES))}; got {fmt!r}")
    return json.loads(json.dumps(_schema(fmt)))  # a copy: the cached one stays as shipped


@lru_cache(maxsize=None)
def _schema(fmt: str) -> dict[str, Any]:
    return json.loads(files("contack_env.records").joinpath("schemas", SCHEMA_FILES[fmt]).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _validator(fmt: str) -> Any:
    return _Validator(_schema(fmt))


@lru_cache(maxsize=None)
def _fast(fmt: str) -> Callable[[Any], Any]:
    return fastjsonschema.compile(_schema(fmt))


def _holds_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_holds_float(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_holds_float(v) for v in value)
    return False


def check_structure(
    record: Any,
    fmt: str,
    where: Callable[[Sequence[str | int], Any], str],
    context: Mapping[str, str] | None = None,
) -> None:
    """Check ``record`` against the schema of ``fmt``; raise ``RecordError`` for the first thing wrong in the
    record's order. ``where(path, record)`` names the place of a path (keys and indices) for the message;
    ``context`` fills the templates' other fields (e.g. ``{seats}``), which a schema alone cannot know."""
    if not _holds_float(record):
        try:
            _fast(fmt)(record)
            return
        except fastjsonschema.JsonSchemaException:
            pass  # invalid: jsonschema finds the first error in the record's order
    errors = list(_validator(fmt).iter_errors(record))
    if not errors:
        return
    error = min(errors, key=lambda e: _document_order(record, list(e.absolute_path)))
    path = list(error.absolute_path)
    raise RecordError(_message(error, context or {}), where(path, record))


def _document_order(record: Any, path: list[str | int]) -> tuple[int, ...]:
    """Where ``path`` is in the record as written: keys by their position in their object, items by index."""
    order = []
    node = record
    for step in path:
        if isinstance(node, dict):
            keys = list(node)
            order.append(keys.index(step) if step in node else len(keys))
        else:
            order.append(step if isinstance(step, int) else 0)
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
    return tuple(order)


def _message(error: jsonschema.ValidationError, context: Mapping[str, str]) -> str:
    instance = error.instance
    template = error.schema.get("errorMessage") if isinstance(error.schema, dict) else None
    if isinstance(template, dict):
        template = template.get(error.validator)
    if error.validator == "required" and template is None:
        missing = [k for k in error.validator_value if isinstance(instance, dict) and k not in instance]
        return f"missing key {missing[0]!r}" if missing else error.message
    if template is None:
        return error.message  # jsonschema's own words: a schema node without an errorMessage
    missing = unknown = ""
    if isinstance(instance, dict):
        if error.validator == "required":
            missing = ", ".join(repr(k) for k in error.validator_value if k not in instance)
        if error.validator == "additionalProperties":
            known = set(error.schema.get("properties", {}))
            unknown = ", ".join(repr(k) for k in sorted(instance) if k not in known)
    path = list(error.absolute_path)
    index = path[-1] + 1 if path and isinstance(path[-1], int) else ""
    return template.format_map(
        {
            **context,
            "value": show(instance, 200),
            "kind": json_kind(instance),
            "json": show(instance, 40),
            "index": index,
            "missing": missing,
            "unknown": unknown,
        }
    )
