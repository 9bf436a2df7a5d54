#!/usr/bin/env python3
"""Validate Lottie files against the Lottie specification's JSON Schema (draft 2020-12).

Usage: Scripts/validate-lottie.py [--schema SCHEMA] FILE...

The default schema is ../shared/reference/lottie-spec/lottie.schema.json beside the checkout. The specification's
build fills two enumerations when it publishes the schema ("enum list is dynamically generated": the `ty` values of
the layer and shape types it defines, which `unknown-layer` and `unknown-shape` exclude); the merged source schema
has them empty, which would make every layer match both its own type and "unknown". This script fills them the same
way before validating: with the `ty` constants of the types listed next to the unknown one.

Exit status: 0 when every file is valid, 1 when any is invalid or unreadable (one line per problem on stderr,
"FILE: JSON-PATH: message"), 2 on bad usage, 3 when the `jsonschema` package is not importable.
"""

import argparse
import json
import os
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:  # pragma: no cover - depends on the machine
    print("validate-lottie: the Python package 'jsonschema' is not installed "
          "(install it with: python3 -m pip install jsonschema)", file=sys.stderr)
    sys.exit(3)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA = os.path.join(HERE, os.pardir, os.pardir, "shared", "reference", "lottie-spec", "lottie.schema.json")


def resolve(schema, ref):
    node = schema
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return node


def type_constants(schema, node, seen=None):
    """The `ty` const values a definition (following $ref and allOf) requires."""
    seen = seen or set()
    found = []
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref and ref not in seen:
            seen.add(ref)
            found += type_constants(schema, resolve(schema, ref), seen)
        ty = node.get("properties", {}).get("ty", {})
        if isinstance(ty, dict) and "const" in ty:
            found.append(ty["const"])
        for sub in node.get("allOf", []):
            found += type_constants(schema, sub, seen)
    return found


def fill_unknown_enums(schema):
    for folder in schema["$defs"].values():
        if not isinstance(folder, dict):
            continue
        for name, definition in folder.items():
            if not name.startswith("unknown-"):
                continue
            target = definition.get("properties", {}).get("ty", {}).get("not", {})
            if target.get("enum") != []:
                continue
            known = []
            for other_name, other in folder.items():
                if other_name.startswith("all-") and any(
                        entry.get("$ref", "").endswith("/" + name) for entry in other.get("oneOf", [])):
                    for entry in other["oneOf"]:
                        if not entry.get("$ref", "").endswith("/" + name):
                            known += type_constants(schema, entry)
            target["enum"] = sorted(set(known), key=str)


def json_path(parts):
    text = "$"
    for part in parts:
        text += "[%d]" % part if isinstance(part, int) else "." + str(part)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", default=DEFAULT_SCHEMA)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    with open(args.schema, encoding="utf-8") as handle:
        schema = json.load(handle)
    fill_unknown_enums(schema)
    validator = Draft202012Validator(schema)
    failed = False
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as handle:
                document = json.load(handle)
        except (OSError, ValueError) as error:
            print("%s: %s" % (path, error), file=sys.stderr)
            failed = True
            continue
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        for error in errors[:20]:
            print("%s: %s: %s" % (path, json_path(error.absolute_path), error.message[:300]), file=sys.stderr)
        if errors:
            failed = True
        else:
            print("%s: valid" % path)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
