#!/usr/bin/env python3
"""Validate lxgpu's JSON (or its YAML form) against docs/schema with python3-jsonschema.

  validate-json.py SCHEMA_DIR NAME FILE [--yaml]   one file: errors printed, exit 1 if invalid
  validate-json.py SCHEMA_DIR --list LIST          each line of LIST "NAME FILE [yaml]": prints
                                                   "FILE ok" or "FILE: PATH: error" lines; exit 0

The schemas refer to each other by $id (urn:lxgpu:schema:NAME). Exit 2 on bad usage."""
import glob
import json
import os
import sys

import jsonschema


def load_schemas(schema_dir):
    schemas = {}
    for f in glob.glob(os.path.join(schema_dir, "*.json")):
        with open(f, encoding="utf-8") as fh:
            s = json.load(fh)
        jsonschema.Draft202012Validator.check_schema(s)
        schemas[s["$id"]] = s
    return schemas


def validator_for(schemas, name):
    schema = schemas["urn:lxgpu:schema:" + name]
    try:  # jsonschema >= 4.18
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            (i, Resource.from_contents(s)) for i, s in schemas.items())
        return jsonschema.Draft202012Validator(schema, registry=registry)
    except ImportError:  # Debian 12's 4.10
        resolver = jsonschema.RefResolver.from_schema(schema, store=schemas)
        return jsonschema.Draft202012Validator(schema, resolver=resolver)


def errors_of(validators, schemas, name, path, as_yaml):
    if name not in validators:
        validators[name] = validator_for(schemas, name)
    with open(path, "rb") as fh:
        raw = fh.read().decode("utf-8", "strict")
    if as_yaml:
        import yaml
        doc = yaml.safe_load(raw)
    else:
        doc = json.loads(raw)
    errors = sorted(validators[name].iter_errors(doc), key=lambda e: list(e.absolute_path))
    return ["%s: %s: %s" % (path, "/".join(str(p) for p in e.absolute_path) or "(top)", e.message)
            for e in errors[:20]]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    schemas = load_schemas(sys.argv[1])
    validators = {}
    if sys.argv[2] == "--list":
        with open(sys.argv[3], encoding="utf-8") as fh:
            for line in fh:
                parts = line.split()
                if not parts:
                    continue
                try:
                    errs = errors_of(validators, schemas, parts[0], parts[1], parts[2:] == ["yaml"])
                except Exception as e:  # unreadable, not JSON: a failure of that file
                    errs = ["%s: %s" % (parts[1], e)]
                print("\n".join(errs) if errs else parts[1] + " ok")
        return 0
    errs = errors_of(validators, schemas, sys.argv[2], sys.argv[3], "--yaml" in sys.argv[4:])
    for e in errs:
        print(e)
    return 1 if errs else 0


sys.exit(main())
