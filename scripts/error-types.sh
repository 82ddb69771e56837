#!/usr/bin/env bash
# Errors are types, never bare strings: a `Result<_, String>` anywhere in the workspace's
# Rust (crates, examples, fuzz targets; tests included; a signature split over lines
# too) fails this check. Each crate's error enum says the cause and what to do, and a
# caller can act on which it is (the CLI's exit code comes from the error it keeps).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - crates examples fuzz <<'EOF'
import os
import re
import sys

# Result<…, String> with up to two levels of nested generics in the first parameter.
pattern = re.compile(
    r"Result<(?:[^<>;{}]|<(?:[^<>;{}]|<[^<>;{}]*>)*>)*,\s*String\s*>", re.S
)
found = []
for root in sys.argv[1:]:
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in ("target", ".git")]
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(d, f)
            text = open(path, encoding="utf-8").read()
            for m in pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path}:{line}: {' '.join(m.group(0).split())}")
if found:
    print("error types: a Result<_, String> (use the crate's error type):")
    print("\n".join(found))
    sys.exit(1)
print("error types: no Result<_, String> in the workspace")
EOF
