"""A small validator for the part of JSON Schema (2020-12) that docs/schemas/*.schema.json use.

Debian's /usr/bin/python3 has no `jsonschema`, so the tests check the events of both writers
with this instead. It knows $ref (into the same file), type, enum, const, required, properties,
additionalProperties, dependentRequired, items, minItems, minimum, exclusiveMinimum, allOf and
if/then; a schema that uses any other keyword is refused, so the file cannot say more than is
checked.

    errors = Validator(schema).errors(instance)   # [] when the instance is valid
"""

import math

ANNOTATIONS = {"$schema", "$id", "$defs", "$comment", "title", "description"}
KEYWORDS = {"$ref", "type", "enum", "const", "required", "properties", "additionalProperties",
            "dependentRequired", "items", "minItems", "minimum", "exclusiveMinimum", "allOf", "if",
            "then"}


def _is(kind, value):
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False  # True is an int in Python, never a number in JSON
    if kind == "integer":
        return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value) and value.is_integer())
    if kind == "number":
        return isinstance(value, (int, float)) and math.isfinite(value)
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    raise ValueError(f"unknown type {kind!r} in the schema")


class Validator:
    def __init__(self, schema):
        self.root = schema
        self._check_keywords(schema, "#")

    def _check_keywords(self, schema, where):
        if isinstance(schema, bool):
            return
        unknown = set(schema) - KEYWORDS - ANNOTATIONS
        if unknown:
            raise ValueError(f"{where}: keywords this validator does not check: {sorted(unknown)}")
        for key in ("items", "additionalProperties", "if", "then"):
            if isinstance(schema.get(key), dict):
                self._check_keywords(schema[key], f"{where}/{key}")
        for name, sub in schema.get("properties", {}).items():
            self._check_keywords(sub, f"{where}/properties/{name}")
        for name, sub in schema.get("$defs", {}).items():
            self._check_keywords(sub, f"{where}/$defs/{name}")
        for i, sub in enumerate(schema.get("allOf", [])):
            self._check_keywords(sub, f"{where}/allOf/{i}")

    def _resolve(self, ref):
        if not ref.startswith("#/"):
            raise ValueError(f"only references into the same file are supported, not {ref!r}")
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node

    def errors(self, value, schema=None, path="$"):
        schema = self.root if schema is None else schema
        if schema is True:
            return []
        if schema is False:
            return [f"{path}: not allowed here"]
        out = []
        if "$ref" in schema:
            out += self.errors(value, self._resolve(schema["$ref"]), path)
        if "type" in schema:
            kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            if not any(_is(k, value) for k in kinds):
                return out + [f"{path}: {value!r:.60} is not of type {' or '.join(kinds)}"]
        if "enum" in schema and value not in schema["enum"]:
            out.append(f"{path}: {value!r:.60} is not one of {schema['enum']}")
        if "const" in schema and value != schema["const"]:
            out.append(f"{path}: {value!r:.60} is not {schema['const']!r}")
        if _is("number", value):
            if "minimum" in schema and value < schema["minimum"]:
                out.append(f"{path}: {value} is below the minimum {schema['minimum']}")
            if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
                out.append(f"{path}: {value} is not above {schema['exclusiveMinimum']}")
        if isinstance(value, list):
            if "minItems" in schema and len(value) < schema["minItems"]:
                out.append(f"{path}: {len(value)} items, fewer than {schema['minItems']}")
            if "items" in schema:
                for i, item in enumerate(value):
                    out += self.errors(item, schema["items"], f"{path}[{i}]")
        if isinstance(value, dict):
            for key in schema.get("required", []):
                if key not in value:
                    out.append(f"{path}: missing field '{key}'")
            properties = schema.get("properties", {})
            for key, item in value.items():
                if key in properties:
                    out += self.errors(item, properties[key], f"{path}.{key}")
                elif "additionalProperties" in schema:
                    out += self.errors(item, schema["additionalProperties"], f"{path}.{key}")
            for key, needed in schema.get("dependentRequired", {}).items():
                if key in value:
                    out += [f"{path}: '{key}' without '{n}'" for n in needed if n not in value]
        for sub in schema.get("allOf", []):
            out += self.errors(value, sub, path)
        if "if" in schema and not self.errors(value, schema["if"], path):
            out += self.errors(value, schema.get("then", True), path)
        return out
