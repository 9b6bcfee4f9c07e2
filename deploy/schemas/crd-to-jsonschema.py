#!/usr/bin/env python3
"""Turns one version of a CustomResourceDefinition into the strict JSON Schema that
scripts/check-deploy.sh validates the rendered objects with (see deploy/schemas/README.md).

    crd-to-jsonschema.py CRD.yaml VERSION OUT.json "SOURCE NOTE"

What it changes, as kubeconform's openapi2jsonschema does:
  - strict: every object that lists `properties` and allows nothing else (no
    `additionalProperties`, no `x-kubernetes-preserve-unknown-fields`) gets
    `additionalProperties: false`, so a misspelt or misplaced field is an error, as the API
    server's structural pruning would silently drop it;
  - Go's inline regexp flags (`^(?i)…`) move to the front, where Python's `re` wants them;
  - `nullable: true` becomes a type that also admits null;
  - `apiVersion` and `kind` must be this CRD's, and `metadata.name` is required;
  - `description`s and CEL rules (`x-kubernetes-validations`, which JSON Schema cannot
    evaluate) are dropped, to keep the vendored file small; `status` is dropped (never applied).
"""
import json
import sys

import yaml


def strict(node):
    if isinstance(node, list):
        return [strict(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ("description", "x-kubernetes-validations"):
            continue
        if key in ("properties", "patternProperties", "definitions"):
            out[key] = {k: strict(v) for k, v in value.items()}
        else:
            out[key] = strict(value)
    # Go's inline flags may stand anywhere; Python's must lead the pattern.
    if isinstance(out.get("pattern"), str) and "(?i)" in out["pattern"][1:]:
        out["pattern"] = "(?i)" + out["pattern"].replace("(?i)", "")
    if out.pop("nullable", False) and "type" in out:
        out["type"] = [out["type"], "null"]
    if ("properties" in out and "additionalProperties" not in out
            and not out.get("x-kubernetes-preserve-unknown-fields")):
        out["additionalProperties"] = False
    return out


def main(crd_path, version, out_path, source):
    crd = yaml.safe_load(open(crd_path))
    spec = crd["spec"]
    (ver,) = [v for v in spec["versions"] if v["name"] == version]
    schema = strict(ver["schema"]["openAPIV3Schema"])
    schema["properties"].pop("status", None)
    schema["properties"]["apiVersion"] = {"const": f"{spec['group']}/{version}"}
    schema["properties"]["kind"] = {"const": spec["names"]["kind"]}
    meta = schema["properties"].setdefault("metadata", {"type": "object"})
    meta["required"] = sorted(set(meta.get("required", [])) | {"name"})
    schema["required"] = sorted(set(schema.get("required", [])) | {"apiVersion", "kind", "metadata"})
    doc = {"$schema": "http://json-schema.org/draft-07/schema#",
           "$comment": f"{crd['metadata']['name']} {version}, from {source}; made by deploy/schemas/crd-to-jsonschema.py",
           **schema}
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
