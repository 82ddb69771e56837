#!/usr/bin/env bash
# Two checks of "one type and one formatter per measured value".
# 1. Fails on a field whose name carries a unit (`_ns`, `_us`, `_ms`, `_s`, `_ps`, `_secs`,
# `_bytes`) and whose type is a raw number (or an Option, Vec, array, tuple or map of
# them) in crates/*/src outside test modules: a measured value crosses code as a typed
# quantity (plumb_model::quantity: Duration, Timestamp, ByteSize, Frequency, Rate) or
# not at all, so that its unit is never a convention and its text is written by one
# formatter (plumb_model::format).
set -euo pipefail
cd "$(dirname "$0")/.."

raw='(f32|f64|u8|u16|u32|u64|u128|usize|i8|i16|i32|i64|i128|isize)'
found=$(find crates -path '*/src/*.rs' -print0 | sort -z | xargs -0 awk -v raw="$raw" '
  FNR == 1 { in_test = 0; pending = 0 }
  in_test { next }
  pending && /^[ ]*(pub )?mod / { in_test = 1; next }
  { pending = 0 }
  /^[ ]*#\[cfg\(test\)\]/ { pending = 1 }
  {
    if (match($0, /^[ ]*(pub(\([a-z]+\))? )?[a-z_0-9]+_(ns|us|ms|s|ps|secs|bytes)[ ]*:[ ]*[^=]*$/)) {
      type = $0
      sub(/^[^:]*:[ ]*/, "", type)
      if (type ~ ("^(Option<|Vec<|\\[|\\(|BTreeMap<[^,]*, *|HashMap<[^,]*, *)*" raw "([^A-Za-z0-9_]|$)")) {
        printf "%s:%d: %s\n", FILENAME, FNR, $0
      }
    }
  }')

# 2. Fails on a unit written after a placeholder (`{:.1} ms`, `{} KiB`) outside the one
# formatter (plumb_model::format) and the option grammar (plumb_model::quantity), in code
# outside test modules: such text picks its own unit and figures.
written=$(find crates -path '*/src/*.rs' ! -path '*/plumb-model/src/format.rs' \
    ! -path '*/plumb-model/src/quantity/*' -print0 | sort -z | xargs -0 awk '
  FNR == 1 { in_test = 0; pending = 0 }
  in_test { next }
  pending && /^[ ]*(pub )?mod / { in_test = 1; next }
  { pending = 0 }
  /^[ ]*#\[cfg\(test\)\]/ { pending = 1 }
  /^[ ]*\/\// { next }
  /\{[^}"]*\} ?(ns|µs|us|ms|s|KiB|MiB|GiB|bytes|B)[^A-Za-z0-9_]/ { printf "%s:%d: %s\n", FILENAME, FNR, $0 }')

status=0
if [ -n "$found" ]; then
  echo "fields whose unit is in their name and whose type is a raw number (use a typed quantity):"
  echo "$found"
  echo "$(echo "$found" | wc -l) field(s)"
  status=1
fi
if [ -n "$written" ]; then
  echo "times or sizes written outside plumb_model::format (use it):"
  echo "$written"
  status=1
fi
[ "$status" = 0 ] && echo "unit names: no raw-number field carries its unit in its name; every time and size is written by plumb_model::format"
exit "$status"
