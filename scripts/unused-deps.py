#!/usr/bin/env python3
"""Fails when a workspace crate declares a dependency its code never names.

The check cargo-machete makes, without building it first (a minute of every clean CI run): a
dependency counts as used when its crate name (`foo-bar` is `foo_bar`, a renamed one its new name)
appears as a path (`foo_bar::`, `use foo_bar`, `extern crate foo_bar`) in the crate's Rust files.
Build dependencies are looked for in build.rs only, the others anywhere in the crate. A crate can
list names to skip under [package.metadata.cargo-machete] ignored = [...], as for cargo-machete.
"""

import json
import re
import subprocess
import sys
from pathlib import Path


def rust_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*.rs") if "target" not in p.relative_to(root).parts]


def used(name: str, text: str) -> bool:
    ident = re.escape(name)
    return re.search(rf"(?<![\w:]){ident}::|\buse {ident}\b|\bextern crate {ident}\b", text) is not None


def main() -> int:
    metadata = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--no-deps", "--format-version", "1", "--locked"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    unused: list[str] = []
    for package in metadata["packages"]:
        root = Path(package["manifest_path"]).parent
        ignored = set(((package.get("metadata") or {}).get("cargo-machete") or {}).get("ignored", []))
        files = rust_files(root)
        everything = "\n".join(p.read_text(errors="replace") for p in files)
        build = "\n".join(p.read_text(errors="replace") for p in files if p.name == "build.rs")
        for dependency in package["dependencies"]:
            if dependency["name"] in ignored:
                continue
            name = (dependency.get("rename") or dependency["name"]).replace("-", "_")
            text = build if dependency["kind"] == "build" else everything
            if not used(name, text):
                kind = f" ({dependency['kind']})" if dependency["kind"] else ""
                unused.append(f"{package['name']}: {dependency['name']}{kind}")
    if unused:
        print("Dependencies declared but never used (remove them, or list them under")
        print("[package.metadata.cargo-machete] ignored = [...] with the reason):")
        for line in unused:
            print(f"  {line}")
        return 1
    print(f"No unused dependency in {len(metadata['packages'])} crates.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
