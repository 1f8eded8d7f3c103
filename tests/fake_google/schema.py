"""Google's published discovery documents, used to check every request the fake receives.

The documents ship inside google-api-python-client (a test-only dependency):
``googleapiclient/discovery_cache/documents/sheets.v4.json`` and ``drive.v3.json``.
A request is matched to its discovery method by HTTP method and path; its query
parameters (names, types, enums, repetition, required ones) and its JSON body
(the method's request schema, recursively: types, unknown fields, enums,
fields marked required for the method) are checked. Every violation is reported
the way Google's ESF front end words it, so the fake can answer 400 with it.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping


def documents_dir() -> Path:
    import googleapiclient
    return Path(googleapiclient.__file__).parent / "discovery_cache" / "documents"


@dataclass(frozen=True)
class Violation:
    field: str
    description: str

    def __str__(self) -> str:
        return f"{self.field}: {self.description}" if self.field else self.description


@dataclass
class Method:
    id: str
    http_method: str
    pattern: re.Pattern
    literal: int
    spec: dict


class Discovery:
    """One API's discovery document: find a method and validate requests to it."""

    def __init__(self, name: str, version: str) -> None:
        path = documents_dir() / f"{name}.{version}.json"
        self.doc = json.loads(path.read_text(encoding="utf-8"))
        self.schemas: dict[str, dict] = self.doc["schemas"]
        self.service_path = "/" + self.doc.get("servicePath", "")
        self.global_params: dict[str, dict] = self.doc.get("parameters", {})
        self.methods: list[Method] = []
        self._collect(self.doc.get("resources", {}))
        self.methods.sort(key=lambda m: -m.literal)

    def _collect(self, resources: Mapping) -> None:
        for res in resources.values():
            for m in res.get("methods", {}).values():
                path = m.get("flatPath", m["path"])
                parts = re.split(r"(\{[^}]+\})", path)
                regex = "".join("([^/]+?)" if p.startswith("{") else re.escape(p) for p in parts)
                literal = sum(len(p) for p in parts if not p.startswith("{"))
                self.methods.append(Method(m["id"], m["httpMethod"], re.compile(f"^{regex}$"), literal, m))
            self._collect(res.get("resources", {}))

    def find_upload(self, http_method: str, path: str) -> Method | None:
        """The method whose simple media upload path (``mediaUpload.protocols.simple.path``, e.g.
        "/upload/drive/v3/files/{fileId}") matches ``path``, the request's whole path."""
        for m in self.methods:
            simple = ((m.spec.get("mediaUpload") or {}).get("protocols") or {}).get("simple") or {}
            if m.http_method != http_method.upper() or not simple.get("path"):
                continue
            parts = re.split(r"(\{[^}]+\})", simple["path"])
            if re.fullmatch("".join("([^/]+?)" if x.startswith("{") else re.escape(x) for x in parts), path):
                return m
        return None

    def find(self, http_method: str, path: str) -> Method | None:
        """The method for ``path`` (relative to the service path, e.g. "v4/spreadsheets/x")."""
        for m in self.methods:
            if m.http_method == http_method.upper() and m.pattern.match(path):
                return m
        return None

    # ---- query parameters
    def check_params(self, method: Method, query: Mapping[str, list[str]]) -> list[Violation]:
        out: list[Violation] = []
        params = method.spec.get("parameters", {})
        for name, values in query.items():
            spec = params.get(name)
            if spec is not None and spec.get("location") == "path":
                spec = None
            spec = spec or self.global_params.get(name)
            if spec is None:
                out.append(Violation(name, f'Invalid JSON payload received. Unknown name "{name}": '
                                           "Cannot bind query parameter. Field '" + name +
                                           "' could not be found in request message."))
                continue
            if len(values) > 1 and not spec.get("repeated"):
                out.append(Violation(name, f"parameter {name} is not repeated but was given {len(values)} times"))
            for v in values:
                out.extend(_scalar(name, v, spec, from_query=True))
        for name, spec in params.items():
            if spec.get("location") == "query" and spec.get("required") and name not in query:
                out.append(Violation(name, f"Required parameter: {name}"))
        return out

    # ---- bodies
    def check_body(self, method: Method, body: Any) -> list[Violation]:
        ref = (method.spec.get("request") or {}).get("$ref")
        if ref is None:
            if body not in (None, {}, b"", ""):
                return [Violation("", f"{method.id} takes no request body")]
            return []
        if body is None:
            body = {}
        out: list[Violation] = []
        self._check(body, {"$ref": ref}, "", method.id, out)
        return out

    def _required(self, name: str, method_id: str) -> tuple[str, ...]:
        """Fields of schema ``name`` required by ``method_id`` (annotations) or always ("Required.")."""
        cache = self.__dict__.setdefault("_required_cache", {})
        key = (name, method_id)
        if key not in cache:
            props = self.schemas[name].get("properties", {})
            cache[key] = tuple(k for k, p in props.items()
                               if method_id in (p.get("annotations", {}).get("required") or ())
                               or p.get("description", "").startswith("Required."))
        return cache[key]

    def _check(self, value: Any, spec: Mapping, path: str, method_id: str, out: list[Violation]) -> None:
        if "$ref" in spec:
            name = spec["$ref"]
            schema = self.schemas[name]
            if not isinstance(value, dict):
                out.append(Violation(path, f"Invalid value at '{path or 'body'}' "
                                           f"(type.googleapis.com/{name}), {json.dumps(value)[:80]}: "
                                           "Starting an object on a scalar field"))
                return
            props = schema.get("properties", {})
            for key, sub in value.items():
                where = f"{path}.{key}" if path else key
                if key not in props:
                    out.append(Violation(where, f'Invalid JSON payload received. Unknown name "{key}" at '
                                                f"'{path or 'body'}': Cannot find field."))
                    continue
                if sub is None:
                    continue
                self._check(sub, props[key], where, method_id, out)
            for key in self._required(name, method_id):
                if key not in value:
                    out.append(Violation(f"{path}.{key}" if path else key,
                                         f"Required field {key} is missing at '{path or 'body'}'"))
            if name == "Request":   # a batchUpdate request holds exactly one kind
                kinds = [k for k in value if value[k] is not None]
                if len(kinds) != 1:
                    out.append(Violation(path, f"Invalid value at '{path}': exactly one kind of request "
                                               f"must be set, found {len(kinds)} ({', '.join(kinds)})"))
            if name == "ExtendedValue":
                kinds = [k for k in value if value[k] is not None]
                if len(kinds) > 1:
                    out.append(Violation(path, f"Invalid value at '{path}': oneof field 'value' "
                                               f"is already set ({', '.join(kinds)})"))
            return
        kind = spec.get("type")
        if kind == "array":
            if not isinstance(value, list):
                out.append(Violation(path, f"Invalid value at '{path}', {json.dumps(value)[:80]}: "
                                           "Proto field is not repeating, cannot start list."))
                return
            for i, item in enumerate(value):
                if item is None:
                    continue
                self._check(item, spec.get("items", {}), f"{path}[{i}]", method_id, out)
            return
        if kind == "object":
            if not isinstance(value, dict):
                out.append(Violation(path, f"Invalid value at '{path}': expected an object"))
                return
            extra = spec.get("additionalProperties")
            if extra:
                for k, v in value.items():
                    self._check(v, extra, f"{path}.{k}", method_id, out)
            return
        out.extend(_scalar(path, value, spec))


def _scalar(path: str, value: Any, spec: Mapping, from_query: bool = False) -> list[Violation]:
    kind = spec.get("type")
    fmt = spec.get("format", "")
    bad = [Violation(path, f"Invalid value at '{path}' (TYPE_{_proto(kind, fmt)}), {json.dumps(value)[:80]}")]
    if kind == "any" or kind is None:
        return []
    if kind == "string":
        if not isinstance(value, str):
            return bad
        enum = spec.get("enum")
        if enum and value not in enum:
            return [Violation(path, f"Invalid value at '{path}' (TYPE_ENUM), \"{value}\": "
                                    f"allowed: {', '.join(enum)}")]
        return []
    if kind == "boolean":
        if from_query:
            return [] if str(value).lower() in ("true", "false") else bad
        return [] if isinstance(value, bool) else bad
    if kind == "integer":
        if from_query or fmt in ("int64", "uint64"):
            if isinstance(value, bool):
                return bad
            if isinstance(value, int) or (isinstance(value, str) and re.fullmatch(r"-?\d+", value)):
                return []
            return bad
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                return []
            return bad
        lo, hi = (-2 ** 31, 2 ** 31 - 1) if fmt == "int32" else (0, 2 ** 32 - 1) if fmt == "uint32" else (None, None)
        if lo is not None and not lo <= value <= hi:
            return bad
        return []
    if kind == "number":
        if from_query:
            try:
                float(value)
                return []
            except ValueError:
                return bad
        return [] if isinstance(value, (int, float)) and not isinstance(value, bool) else bad
    return []


def _proto(kind: str | None, fmt: str) -> str:
    return {"string": "STRING", "boolean": "BOOL", "number": "DOUBLE"}.get(
        kind or "", {"int32": "INT32", "uint32": "UINT32", "int64": "INT64"}.get(fmt, "INT32"))


@lru_cache(maxsize=None)
def sheets() -> Discovery:
    return Discovery("sheets", "v4")


@lru_cache(maxsize=None)
def drive() -> Discovery:
    return Discovery("drive", "v3")


@lru_cache(maxsize=None)
def script() -> Discovery:
    return Discovery("script", "v1")
