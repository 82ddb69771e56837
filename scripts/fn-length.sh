#!/usr/bin/env bash
# Lists every function in crates/*/src longer than MAX lines (default 80), from its `fn`
# line to its closing brace, and fails if any is not an accepted exception below.
# Relies on rustfmt's layout (CI checks it first): a body closes with a `}` at the
# indentation of its `fn` line; a signature ending in `;` (a trait item) has no body.
set -euo pipefail
cd "$(dirname "$0")/.."
MAX="${1:-80}"

# Accepted exceptions, "path:function", each with its reason.
EXCEPTIONS=(
)

found=$(find crates -path '*/src/*.rs' -print0 | sort -z | xargs -0 awk -v max="$MAX" '
  FNR == 1 { depth_fn = "" }
  {
    if (depth_fn == "" && match($0, /^[ ]*((pub(\([a-z]+\))? )?(const )?(unsafe )?(async )?(extern "C" )?fn )[A-Za-z_0-9]+/)) {
      line = $0
      indent = match(line, /[^ ]/) - 1
      name = line
      sub(/^.*fn /, "", name); sub(/[^A-Za-z_0-9].*$/, "", name)
      start = FNR; depth_fn = indent; fname = name
      # one-line or bodiless items end here
      if (line ~ /;[ ]*$/ || line ~ /\}[ ]*$/) { depth_fn = "" }
      next
    }
    if (depth_fn != "") {
      pad = sprintf("%" depth_fn "s", "")
      if ($0 == pad "}" || ($0 ~ /^[ ]*\}/ && match($0, /[^ ]/) - 1 < depth_fn)) {
        len = FNR - start + 1
        if (len > max) printf "%s:%s %d\n", FILENAME, fname, len
        depth_fn = ""
      }
    }
  }')

status=0
while IFS= read -r row; do
  [ -z "$row" ] && continue
  key="${row% *}"
  ok=0
  for e in "${EXCEPTIONS[@]}"; do
    [ "${e%%|*}" = "$key" ] && ok=1
  done
  if [ "$ok" = 1 ]; then
    echo "accepted: $row lines"
  else
    echo "too long: $row lines (at most $MAX; split it, or list it in scripts/fn-length.sh with a reason)"
    status=1
  fi
done <<< "$found"
exit $status
