#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Instructions per message of the processing chain's "chain" path
# (bench/processing-chain.sh: json-parser() -> date-parser() -> filter ->
# file() with $(format-json --scope nv-pairs --key json.*)) under
# callgrind, which counts work rather than time, so that a change on the
# hot path can be compared on a shared, noisy machine.
#   bench/chain-callgrind.sh [PREFIX] [COUNT]
# PREFIX is an installed tree (default: ./local of this checkout, from
# ./quickstart build); COUNT lines (default 20,000). Prints the total and
# $(format-json)'s inclusive instructions per message; the profile stays
# in the file it names for callgrind_annotate.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$top/local}
count=${2:-20000}
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 2; }

dir=$(mktemp -d /tmp/sluice-callgrind.XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
profile=$(mktemp /tmp/sluice-callgrind-XXXXXX.out)
cat > "$dir/chain.conf" <<CONF
source s_net { tcp(ip("127.0.0.1") port($port) log-iw-size(100000)); };
destination d_file { file("$dir/out" template("\$(format-json --scope nv-pairs --key json.*)\n")); };
log { source(s_net); parser { json-parser(prefix("json.")); };
      parser { date-parser(template("\${json.ts}") format("%FT%T%z")); };
      filter { "\${json.level}" eq "error"; }; destination(d_file); flags(flow-control); };
CONF
valgrind --tool=callgrind --callgrind-out-file="$profile" "$prefix/sbin/sluiced" -F -f "$dir/chain.conf" \
  -p "$dir/pid" -c "$dir/ctl" 2>"$dir/stderr" &
pid=$!
for _ in $(seq 600); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.2; done
python3 "$top/bench/json-lines.py" "$count" "$port" >/dev/null
lines=0
for _ in $(seq 3000); do
  [ -f "$dir/out" ] && lines=$(wc -l < "$dir/out")
  [ "$lines" -ge "$count" ] && break
  sleep 0.2
done
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
callgrind_annotate --inclusive=yes "$profile" 2>/dev/null |
  awk -v n="$lines" -v f="$profile" '
    /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
    /format_json_eval \[/ && !fj { gsub(",", "", $1); fj = $1 }
    END { printf "delivered=%d total=%.0f Ir/msg format-json=%.0f Ir/msg profile=%s\n", n, total / n, fj / n, f }'
