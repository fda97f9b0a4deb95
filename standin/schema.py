"""Request bodies checked against Discord's own OpenAPI description (`specs/openapi.json`).

One validator per operation, compiled on first use and kept for the process (jsonschema-rs:
about 0.07 ms per message body, where the pure-Python `jsonschema` took 8 ms; the load
benchmark sends thousands). A refused body becomes Discord's "Invalid Form Body" with field
errors at the paths Discord would name (`components.0.components.0.style`).

Discord's API takes a string that parses as an integer wherever the description types an
integer (the description's README: "Our API accepts strings for int fields if they are
parseable as ints"), so `flags: "4"` is read as 4 and `flags: "4.5"` refused. Query
parameters are checked against the operation's parameters too (`check_query`): booleans as
Discord's API reference lists them (True, true, 1 / False, false, 0), integers, snowflakes.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs

from .errors import FieldError

SPEC_PATH = Path(__file__).resolve().parents[1] / "specs" / "openapi.json"
_PLACEHOLDER = re.compile(r"\{[^}]+\}")
# A string Discord reads as an integer. Python's int() would also take " 4", "+4" and "4_0";
# whether Discord does is not documented, so only plain decimal digits are taken.
INTEGER_STRING = re.compile(r"-?[0-9]+")
TRUE_STRINGS = ("True", "true", "1")  # API reference, "Boolean Query Strings"
FALSE_STRINGS = ("False", "false", "0")
SNOWFLAKE_PATTERN = "^(0|[1-9][0-9]*)$"  # the description's SnowflakeType
COERCION_ROUNDS = 8  # a coerced union discriminator can reveal deeper integer strings


@cache
def spec() -> dict[str, Any]:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


@cache
def _shape(path: str) -> str:
    """'/channels/{channel_id}/messages' -> '/channels/*/messages' (parameter names differ from ours)."""
    return _PLACEHOLDER.sub("*", path)


@cache
def _operations() -> dict[tuple[str, str], dict[str, Any]]:
    """(METHOD, path shape) -> the operation's JSON request schema."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            schema = (body or {}).get("content", {}).get("application/json", {}).get("schema")
            if schema is not None:
                found[(method.upper(), _shape(path))] = schema
    return found


@cache
def _responses() -> dict[tuple[str, str, int], dict[str, Any]]:
    """(METHOD, path shape, status) -> the operation's JSON response schema."""
    found: dict[tuple[str, str, int], dict[str, Any]] = {}
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            for status, response in (operation.get("responses") or {}).items():
                schema = (response.get("content") or {}).get("application/json", {}).get("schema")
                if schema is not None and status.isdigit() and int(status) < 300:
                    found[(method.upper(), _shape(path), int(status))] = schema
    return found


def has_request_schema(method: str, route: str) -> bool:
    return (method, _shape(route)) in _operations()


@cache
def _root() -> dict[str, Any]:
    """The whole document without its paths, so "#/components/schemas/..." references resolve."""
    root = dict(spec())
    root.pop("paths", None)
    # Discord takes snowflakes as JSON numbers too (discord.py sends `recipient_id` as one);
    # the description only lists the string form.
    schemas = dict(root["components"]["schemas"])
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}
    root["components"] = {**root["components"], "schemas": schemas}
    return root


@cache
def _validator(method: str, shape: str, status: int = 0, variant: str = "") -> Any:
    """Of the request body (status 0; `variant`: one named schema of a union instead of the
    whole union), of the response with that status, or of the query parameters (status -1)."""
    root = dict(_root())
    if variant:
        root["$ref"] = f"#/components/schemas/{variant}"
    elif status == 0:
        root.update(_operations()[(method, shape)])
    elif status == -1:
        root.update({"type": "object", "properties": _query_parameters()[(method, shape)]})
    else:
        root.update(_responses()[(method, shape, status)])
    return jsonschema_rs.Draft202012Validator(root, validate_formats=True)


def check_request(method: str, route: str, body: Any, *, variant: str = "") -> list[FieldError]:
    """Field errors of `body` against the request schema of `method route` (our route, any
    parameter names); [] when valid or when the operation takes no JSON body."""
    return validate_request(method, route, body, variant=variant)[1]


def validate_request(method: str, route: str, body: Any, *, variant: str = "") -> tuple[Any, list[FieldError]]:
    """The body as Discord reads it (strings that parse as integers where the description types
    an integer become those integers) and its field errors; [] when valid or when the operation
    takes no JSON body. `variant` names the one schema of a union that applies (PATCH
    /channels/{id} on a thread is an UpdateThreadRequestPartial, whatever the union admits)."""
    shape = _shape(route)
    if (method, shape) not in _operations():
        return body, []
    validator = _validator(method, shape, 0, variant)
    if validator.is_valid(body):  # the common case: one call, nothing copied
        return body, []
    read = body
    for _ in range(COERCION_ROUNDS):
        paths: set[tuple[Any, ...]] = set()
        for error in validator.iter_errors(read):
            _integer_strings(error, paths)
        if not paths:
            break
        if read is body:
            read = copy.deepcopy(body)
        for path in paths:
            _set(read, path)
        if validator.is_valid(read):
            return read, []
    return read, _errors(validator, read)


def _errors(validator: Any, value: Any) -> list[FieldError]:
    """What the schema finds wrong with ``value``, as Discord words it ([] when it fits)."""
    if validator.is_valid(value):  # the common case: one call, no walk over errors
        return []
    return [found for error in validator.iter_errors(value) for found in _field_errors(error)]


def _integer_strings(error: Any, found: set[tuple[Any, ...]]) -> None:
    """Where a string that parses as an integer stands in a place typed integer (also inside
    union alternatives): the paths to read as integers."""
    name = type(error.kind).__name__
    if name in ("OneOfNotValid", "AnyOf"):
        for branch in error.kind.context:
            for sub in branch:
                _integer_strings(sub, found)
        return
    instance = error.instance
    if not isinstance(instance, str) or not INTEGER_STRING.fullmatch(instance):
        return
    kind = error.kind
    wanted = (
        (name == "Type" and "integer" in kind.types)
        or (name == "Constant" and _is_int(kind.expected_value))
        or (name == "Enum" and any(_is_int(option) for option in kind.options))
    )
    if wanted:
        found.add(tuple(error.instance_path))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _set(body: Any, path: tuple[Any, ...]) -> None:
    node = body
    for part in path[:-1]:
        node = node[part]
    if isinstance(node[path[-1]], str):
        node[path[-1]] = int(node[path[-1]])


def _field_errors(error: Any) -> list[FieldError]:
    """Discord's code and message for one schema error; a failed union (oneOf/anyOf) reports
    the errors of the alternative whose `type` matched, like Discord does."""
    path = list(error.instance_path)
    kind = error.kind
    name = type(kind).__name__
    if name in ("OneOfNotValid", "AnyOf"):
        branches = [list(b) for b in kind.context]
        choices = _constant_choices(path, branches)
        if choices:
            return [FieldError(_dotted(path), "BASE_TYPE_CHOICES", f"Value must be one of {choices}.")]
        chosen = _matching_branch(path, branches)
        if chosen is not None:
            return [e for sub in chosen for e in _field_errors(sub)]
        if any(_discriminator_miss(path, b) for b in branches):
            return [FieldError(_dotted([*path, "type"]), "UNION_TYPE_CHOICES", 'Value of field "type" is not valid.')]
        return [FieldError(_dotted(path), "BASE_TYPE_CHOICES", "Value is not of a valid type.")]
    if name == "Required":
        return [FieldError(_dotted([*path, kind.property]), "BASE_TYPE_REQUIRED", "This field is required")]
    return [FieldError(_dotted(path), *_code(name, kind, error))]


def _constant_choices(path: list[Any], branches: list[list[Any]]) -> tuple[Any, ...]:
    """An enumeration written as oneOf of consts (`ButtonStyleTypes`): the allowed values."""
    found: list[Any] = []
    for branch in branches:
        for e in branch:
            if list(e.instance_path) != path or type(e.kind).__name__ not in ("Constant", "Type"):
                return ()
            if type(e.kind).__name__ == "Constant":
                found.append(e.kind.expected_value)
    return tuple(found)


def _matching_branch(path: list[Any], branches: list[list[Any]]) -> list[Any] | None:
    """The alternative that fits the value's kind: not a wrong JSON type at the union itself
    (the `null` alternative) nor a different `type` discriminator; the one with fewest errors."""
    fitting = [b for b in branches if not _discriminator_miss(path, b) and not _type_miss(path, b)]
    return min(fitting, key=len) if fitting else None


def _discriminator_miss(path: list[Any], branch: list[Any]) -> bool:
    target = [*path, "type"]
    return any(list(e.instance_path) == target and type(e.kind).__name__ in ("Enum", "Constant") for e in branch)


def _type_miss(path: list[Any], branch: list[Any]) -> bool:
    return any(list(e.instance_path) == path and type(e.kind).__name__ == "Type" for e in branch)


def _dotted(path: list[Any]) -> str:
    return ".".join(str(p) for p in path) or "_root"


# The keywords that bound a value, a length or a count: Discord's code and wording for each.
_LIMIT_WORDS = {
    "MaxLength": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "MinLength": ("BASE_TYPE_MIN_LENGTH", "Must be {limit} or more in length."),
    "MaxItems": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "MinItems": ("BASE_TYPE_MIN_LENGTH", "Must be {limit} or more in length."),
    "MaxProperties": ("BASE_TYPE_MAX_LENGTH", "Must be {limit} or fewer in length."),
    "Maximum": ("NUMBER_TYPE_MAX", "int value should be less than or equal to {limit}."),
    "Minimum": ("NUMBER_TYPE_MIN", "int value should be greater than or equal to {limit}."),
}


def _code(name: str, kind: Any, error: Any) -> tuple[str, str]:
    """Discord's error code and wording for one failed keyword."""
    if name == "Required":
        return "BASE_TYPE_REQUIRED", f"This field is required ({kind.property})."
    if name in _LIMIT_WORDS:
        code, words = _LIMIT_WORDS[name]
        return code, words.format(limit=kind.limit)
    if name in ("Enum", "Constant"):
        return (
            "BASE_TYPE_CHOICES",
            f"Value must be one of {getattr(kind, 'options', getattr(kind, 'expected_value', ''))}.",
        )
    if name == "Format" and kind.format == "date-time":
        return "DATE_TIME_TYPE_PARSE", f"Could not parse {error.instance!r}. Should be ISO8601."
    if name == "Type" and isinstance(error.instance, str) and "integer" in kind.types:
        return "NUMBER_TYPE_COERCE", f'Value "{error.instance}" is not int.'
    if name == "Type" and isinstance(error.instance, str) and "boolean" in kind.types:
        return "BOOLEAN_TYPE_COERCE", f'Value "{error.instance}" is not a valid boolean.'
    if name == "Type":
        return "BASE_TYPE_CONVERT", error.message
    if name == "Pattern" and kind.pattern == SNOWFLAKE_PATTERN:
        return "NUMBER_TYPE_COERCE", f'Value "{error.instance}" is not snowflake.'
    if name == "UniqueItems":
        return "BASE_TYPE_DUPLICATES", "Values must be unique."
    return name.upper(), error.message


def check_response(method: str, route: str, status: int, body: Any) -> list[str]:
    """What the stand-in's own answer lacks against the response schema ([] when it fits)."""
    shape = _shape(route)
    if (method, shape, status) not in _responses():
        return []
    validator = _validator(method, shape, status)
    if validator.is_valid(body):
        return []
    return [f"{e.path}: {e.code} {e.message}" for error in validator.iter_errors(body) for e in _field_errors(error)]


# -- query parameters -------------------------------------------------------------------


@cache
def _query_parameters() -> dict[tuple[str, str], dict[str, Any]]:
    """(METHOD, path shape) -> {name: schema} of the operation's query parameters."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path, item in spec()["paths"].items():
        shared = item.get("parameters") or []
        for method, operation in item.items():
            if not isinstance(operation, dict) or method == "parameters":
                continue
            params = [*shared, *(operation.get("parameters") or [])]
            query = {p["name"]: p.get("schema") or {} for p in params if p.get("in") == "query"}
            if query:
                found[(method.upper(), _shape(path))] = query
    return found


def _kinds(schema: dict[str, Any]) -> set[str]:
    """The JSON types a parameter schema names (following one reference)."""
    if "$ref" in schema:
        schema = spec()["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    kinds = schema.get("type", [])
    return {kinds} if isinstance(kinds, str) else set(kinds)


def check_query(method: str, route: str, query: Mapping[str, str]) -> tuple[dict[str, Any], list[FieldError]]:
    """The query parameters the operation declares, read as Discord reads them (booleans,
    integers; snowflakes stay strings), and their field errors. Parameters the description
    does not list are left out, as Discord ignores them."""
    shape = _shape(route)
    declared = _query_parameters().get((method, shape))
    if not declared:
        return {}, []
    values: dict[str, Any] = {}
    for name, schema in declared.items():
        if name not in query:
            continue
        raw = query[name]
        kinds = _kinds(schema)
        value: Any = raw
        if "boolean" in kinds and raw in TRUE_STRINGS + FALSE_STRINGS:
            value = raw in TRUE_STRINGS
        elif "integer" in kinds and INTEGER_STRING.fullmatch(raw):
            value = int(raw)
        values[name] = value
    return values, _errors(_validator(method, shape, -1), values)
