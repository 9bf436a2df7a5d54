#!/usr/bin/env python3
"""Validate normalized Keyframe documents against docs/keyframe.schema.json.

Usage: Scripts/validate-schema.py [--schema SCHEMA] [--schema-only] FILE...

Each FILE is checked in two passes:
  1. the JSON Schema (draft 2020-12): shape, types, enums, ranges;
  2. the reference rules that JSON Schema cannot express, the same ones Document.validate() and the Swift reader
     apply: unique ids, known image/sprite/composition/parent/mask references, parents listed before children,
     strictly increasing keyframe frames, 3n+1 Bézier path points (skipped with --schema-only).

Exit status: 0 when every file is valid, 1 when any file is invalid or unreadable (messages on stderr, one per
problem, "FILE: JSON-PATH: message"), 2 on bad usage, 3 when the `jsonschema` package is not importable.
"""

import argparse
import json
import os
import sys

EXIT_INVALID = 1
EXIT_NO_JSONSCHEMA = 3

try:
    import jsonschema
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match
except ImportError:  # pragma: no cover - depends on the machine
    print("validate-schema: the Python package 'jsonschema' is not installed "
          "(install it with: python3 -m pip install jsonschema)", file=sys.stderr)
    sys.exit(EXIT_NO_JSONSCHEMA)

DEFAULT_SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "docs", "keyframe.schema.json")

INTERPOLATED_TRACKS = ("position", "scale", "rotation", "skew", "opacity", "color")
HELD_TRACKS = ("pivot", "visible", "content", "drawOrder", "blendMode", "filters")


def json_path(parts):
    """Formats a path like the Swift JSONPath: $.compositions[0].nodes[3].id"""
    text = "$"
    for part in parts:
        if isinstance(part, int):
            text += "[%d]" % part
        else:
            text += "." + str(part)
    return text


def schema_errors(validator, document):
    """Yields (path, message) for each schema violation, most specific message first for oneOf branches."""
    errors = sorted(validator.iter_errors(document), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    for error in errors:
        if error.validator == "oneOf" and error.context:
            # Easing and content are `oneOf` by `type`. Report the errors of the branch whose `type` matched; when no
            # branch matched, the `enum` on `type` already reported the unknown type.
            branches = {}
            for sub in error.context:
                branches.setdefault(sub.relative_schema_path[0], []).append(sub)
            matching = [subs for subs in branches.values()
                        if not any(s.validator == "const" and list(s.relative_path) == ["type"] for s in subs)]
            if len(matching) == 1:
                for sub in matching[0]:
                    yield json_path(sub.absolute_path), sub.message
                continue
            if not matching:
                continue
            error = best_match(error.context) or error
        yield json_path(error.absolute_path), error.message


def reference_errors(document):
    """Yields (path, message) for violations of the rules JSON Schema cannot express (mirrors Document.validate)."""
    if not isinstance(document, dict):
        return
    assets = document.get("assets") or {}
    image_ids = set()
    for index, image in enumerate(assets.get("images") or []):
        if isinstance(image, dict):
            if image.get("id") in image_ids:
                yield "$.assets.images[%d].id" % index, "duplicate image id %r" % image.get("id")
            image_ids.add(image.get("id"))
    sprite_ids = set()
    for index, sprite in enumerate(assets.get("sprites") or []):
        if not isinstance(sprite, dict):
            continue
        if sprite.get("image") not in image_ids:
            yield "$.assets.sprites[%d].image" % index, "unknown image %r" % sprite.get("image")
        if sprite.get("id") in sprite_ids:
            yield "$.assets.sprites[%d].id" % index, "duplicate sprite id %r" % sprite.get("id")
        sprite_ids.add(sprite.get("id"))

    mesh_ids = set()
    for index, mesh in enumerate(assets.get("meshes") or []):
        if not isinstance(mesh, dict):
            continue
        if mesh.get("sprite") not in sprite_ids:
            yield "$.assets.meshes[%d].sprite" % index, "unknown sprite %r" % mesh.get("sprite")
        if mesh.get("id") in mesh_ids:
            yield "$.assets.meshes[%d].id" % index, "duplicate mesh id %r" % mesh.get("id")
        mesh_ids.add(mesh.get("id"))

    compositions = [c for c in (document.get("compositions") or []) if isinstance(c, dict)]
    composition_ids = set()
    for index, composition in enumerate(compositions):
        if composition.get("id") in composition_ids:
            yield "$.compositions[%d].id" % index, "duplicate composition id %r" % composition.get("id")
        composition_ids.add(composition.get("id"))
    if "root" in document and document.get("root") not in composition_ids:
        yield "$.root", "unknown composition %r" % document.get("root")

    for c_index, composition in enumerate(compositions):
        base = "$.compositions[%d]" % c_index
        nodes = [n for n in (composition.get("nodes") or []) if isinstance(n, dict)]
        mask_ids = {n.get("id") for n in nodes if n.get("isMask") is True}
        seen = set()
        for n_index, node in enumerate(nodes):
            node_path = "%s.nodes[%d]" % (base, n_index)
            parent = node.get("parent")
            if parent is not None and parent not in seen:
                yield node_path + ".parent", "parent %r is not an earlier node of %r" % (parent, composition.get("id"))
            if node.get("id") in seen:
                yield node_path + ".id", "duplicate node id %r" % node.get("id")
            seen.add(node.get("id"))
            mask = node.get("maskedBy")
            if mask is not None and mask not in mask_ids:
                yield node_path + ".maskedBy", "%r is not a mask node of %r" % (mask, composition.get("id"))
            tracks = node.get("tracks")
            if not isinstance(tracks, dict):
                continue
            for name, keyframes in tracks.items():
                if not isinstance(keyframes, list):
                    continue
                last = None
                for k_index, keyframe in enumerate(keyframes):
                    if not isinstance(keyframe, dict):
                        continue
                    k_path = "%s.tracks.%s[%d]" % (node_path, name, k_index)
                    frame = keyframe.get("frame")
                    if isinstance(frame, (int, float)) and not isinstance(frame, bool):
                        if last is not None and frame <= last:
                            yield k_path + ".frame", ("keyframes must be in strictly increasing frame order "
                                                      "(%s after %s)" % (frame, last))
                        last = frame
                    easing = keyframe.get("easing")
                    if isinstance(easing, dict) and easing.get("type") == "bezierPath":
                        points = easing.get("points")
                        if isinstance(points, list) and (len(points) < 4 or (len(points) - 1) % 3 != 0):
                            yield k_path + ".easing.points", ("a Bézier path needs 3n+1 points (n ≥ 1), found %d"
                                                              % len(points))
                    value = keyframe.get("value")
                    if name == "content" and isinstance(value, dict):
                        if value.get("type") == "sprite" and value.get("sprite") not in sprite_ids:
                            yield k_path + ".value.sprite", "unknown sprite %r" % value.get("sprite")
                        if value.get("type") == "mesh" and value.get("mesh") not in mesh_ids:
                            yield k_path + ".value.mesh", "unknown mesh %r" % value.get("mesh")
                        if value.get("type") == "composition" and value.get("composition") not in composition_ids:
                            yield k_path + ".value.composition", "unknown composition %r" % value.get("composition")

        bone_ids = {n.get("id") for n in nodes if n.get("kind") == "bone"}
        for i_index, constraint in enumerate(composition.get("ik") or []):
            if not isinstance(constraint, dict):
                continue
            for key in ("bone", "target"):
                if constraint.get(key) not in bone_ids:
                    yield "%s.ik[%d].%s" % (base, i_index, key), "%r is not a bone node" % constraint.get(key)

    clip_names = set()
    for index, clip in enumerate(document.get("clips") or []):
        if not isinstance(clip, dict):
            continue
        if clip.get("composition") not in composition_ids:
            yield "$.clips[%d].composition" % index, "unknown composition %r" % clip.get("composition")
        if clip.get("name") in clip_names:
            yield "$.clips[%d].name" % index, "duplicate clip name %r" % clip.get("name")
        clip_names.add(clip.get("name"))


def main(argv):
    parser = argparse.ArgumentParser(description="Validate Keyframe documents against the JSON Schema.")
    parser.add_argument("--schema", default=DEFAULT_SCHEMA, help="schema file (default: docs/keyframe.schema.json)")
    parser.add_argument("--schema-only", action="store_true", help="skip the reference rules")
    parser.add_argument("files", nargs="+", metavar="FILE")
    arguments = parser.parse_args(argv)

    try:
        with open(arguments.schema, "rb") as handle:
            schema = json.load(handle)
        Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.exceptions.SchemaError) as error:
        print("validate-schema: cannot use schema %s: %s" % (arguments.schema, error), file=sys.stderr)
        return EXIT_INVALID
    validator = Draft202012Validator(schema)

    failed = 0
    for name in arguments.files:
        try:
            with open(name, "rb") as handle:
                document = json.loads(handle.read().decode("utf-8"))
        except (OSError, ValueError) as error:
            print("%s: cannot read JSON: %s" % (name, error), file=sys.stderr)
            failed += 1
            continue
        problems = list(schema_errors(validator, document))
        if not arguments.schema_only:
            problems += list(reference_errors(document))
        if problems:
            failed += 1
            for path, message in problems:
                print("%s: %s: %s" % (name, path, message), file=sys.stderr)
        else:
            print("%s: valid" % name)
    if failed:
        print("validate-schema: %d of %d file(s) invalid" % (failed, len(arguments.files)), file=sys.stderr)
        return EXIT_INVALID
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
