#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Compares what syslog-ng and sluiced accept of syslog-ng's SCL: each block
# of the installed SCL is used once in a log path, with the mandatory
# parameters it needs, and checked with `-s` by both daemons.
#
# usage: SLUICED=/path/to/sluiced tests/scl/scan.sh [scratch-folder]
# prints one line a block: "KIND NAME sng=RC sl=RC first-sluice-error",
# then the counts. The blocks are those `syslog-ng --preprocess-into` sees.
set -u
S=${SLUICED:?set SLUICED to the sluiced of your build}
dir=${1:-$(mktemp -d)}
mkdir -p "$dir" && cd "$dir" || exit 1

# Plausible values for the parameters a block has no default for.
params () {
  case $1 in
    collectd) echo 'plugin("p") type("t")';;
    discord) echo 'url("http://127.0.0.1:9/")';;
    elasticsearch-http) echo 'url("http://127.0.0.1:9/") index("i") type("t")';;
    elasticsearch2) echo 'index("i") type("t")';;
    network-load-balancer) echo 'targets(127.0.0.1 127.0.0.2)';;
    slack) echo 'hook-url("http://127.0.0.1:9/")';;
    sumologic-http) echo 'deployment("x") collector("c") tls(peer-verify(no))';;
    sumologic-syslog) echo 'token("t") deployment("x") tls(peer-verify(no))';;
    telegram) echo 'bot-id("1") chat-id("2")';;
    apache-accesslog-parser-combined|apache-accesslog-parser-vhost) echo 'prefix(".x.") template("$MSG")';;
    cisco-timestamp-parser) echo 'template("$MSG")';;
    cisco-triplet-parser) echo 'template("$MSG") prefix(".x.")';;
    kubernetes-metadata-parser) echo 'prefix(".k8s.")';;
    credit-card-internal) echo 'template("$MSG") value("MSG") regex("[0-9]{16}")';;
    credit-card-*) echo 'template("$MSG") value("MSG")';;
    mbox|snmptrap) echo "filename(\"$dir/in\")";;
  esac
}

printf '@version: 3.38\n@include "scl.conf"\n' > scl-all.conf
syslog-ng --preprocess-into=all.conf -f scl-all.conf >/dev/null 2>&1
grep -oE '^[[:space:]]*block (source|destination|parser|rewrite) [A-Za-z0-9_-]+' all.conf \
  | awk '{print $2, $3}' | sort -u > blocks.txt

total=0; both=0; sng_only=0; sl_only=0
while read -r kind name; do
  p=$(params "$name")
  case $kind in
    source) body="source s_t { $name($p); }; log { source(s_t); destination(d_n); };";;
    destination) body="source s_i { internal(); }; destination d_t { $name($p); }; log { source(s_i); destination(d_t); };";;
    parser) body="source s_i { internal(); }; log { source(s_i); parser { $name($p); }; destination(d_n); };";;
    rewrite) body="source s_i { internal(); }; log { source(s_i); rewrite { $name($p); }; destination(d_n); };";;
  esac
  printf '@version: 3.38\n@include "scl.conf"\ndestination d_n { file("/dev/null"); };\n%s\n' "$body" > "c_$name.conf"
  syslog-ng -s -f "c_$name.conf" >/dev/null 2>"e_sng_$name"; a=$?
  "$S" -s -f "c_$name.conf" >/dev/null 2>"e_sl_$name"; b=$?
  echo "$kind $name sng=$a sl=$b $(grep -m1 -i error "e_sl_$name" | cut -c1-150)"
  total=$((total + 1))
  [ $a = 0 ] && [ $b = 0 ] && both=$((both + 1))
  [ $a = 0 ] && [ $b != 0 ] && sng_only=$((sng_only + 1))
  [ $a != 0 ] && [ $b = 0 ] && sl_only=$((sl_only + 1))
done < blocks.txt
echo "blocks=$total both=$both syslog-ng-only=$sng_only sluice-only=$sl_only"
