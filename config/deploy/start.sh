#!/usr/bin/env bash
# ExecStart of notification-pipeline.service (config/systemd/): runs
# `node core/main.ts` of the release this file belongs to.
#
# Runtime: the host's Node, /usr/bin/node by default (NP_NODE to change). It
# must be >= 22.18, which runs core/main.ts directly; an older or missing
# runtime exits here at once with a message, and systemd (Restart=always)
# restarts the service again and again until the runtime is fixed.
#
# Heap: V8's old space is capped at NP_HEAP_PERCENT (default 40) % of the
# memory the service may use, which is the smaller of MemTotal in
# /proc/meminfo and the service's cgroup v2 memory.max (when set), computed
# at every start and passed as --max-old-space-size (MiB). NP_HEAP_MIB sets
# the cap directly. The young generation gets 32 MiB, as under `npm start`
# (short-lived objects of a big fan-out then die cheaply; the performance
# figures were measured so). `start.sh --print` prints the command instead
# of running it.
set -euo pipefail

release=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
node=${NP_NODE:-/usr/bin/node}

fail() {
  printf 'notification-pipeline start: %s\n' "$*" >&2
  exit 1
}

version=$("$node" --version 2>/dev/null) || fail "no Node runtime at $node (need >= 22.18; install it or set NP_NODE)"
[[ $version =~ ^v([0-9]+)\.([0-9]+)\. ]] || fail "cannot read the version of $node ($version)"
major=${BASH_REMATCH[1]}
minor=${BASH_REMATCH[2]}
if ((major < 22 || (major == 22 && minor < 18))); then
  fail "$node is $version; need >= 22.18 to run core/main.ts"
fi

heap_mib() {
  local percent total_kib cgroup limit_file limit mib
  if [[ -n ${NP_HEAP_MIB:-} ]]; then
    [[ $NP_HEAP_MIB =~ ^[1-9][0-9]*$ ]] || fail "NP_HEAP_MIB must be a positive integer"
    printf '%s\n' "$NP_HEAP_MIB"
    return
  fi
  percent=${NP_HEAP_PERCENT:-40}
  [[ $percent =~ ^[1-9][0-9]?$|^100$ ]] || fail "NP_HEAP_PERCENT must be 1..100"
  total_kib=$(awk '$1 == "MemTotal:" { print $2; exit }' "${NP_MEMINFO:-/proc/meminfo}" 2>/dev/null) || true
  [[ $total_kib =~ ^[0-9]+$ ]] || fail "cannot read MemTotal from ${NP_MEMINFO:-/proc/meminfo}"
  cgroup=$(awk -F: '$1 == "0" { print $3; exit }' /proc/self/cgroup 2>/dev/null) || true
  limit_file=${NP_MEMORY_MAX:-/sys/fs/cgroup${cgroup}/memory.max}
  if [[ -r $limit_file ]]; then
    limit=$(<"$limit_file")
    if [[ $limit =~ ^[0-9]+$ ]] && ((limit / 1024 < total_kib)); then total_kib=$((limit / 1024)); fi
  fi
  mib=$((total_kib * percent / 100 / 1024))
  if ((mib < 64)); then mib=64; fi
  printf '%s\n' "$mib"
}

command=("$node" --max-semi-space-size=32 "--max-old-space-size=$(heap_mib)" core/main.ts)
if [[ ${1:-} == --print ]]; then
  printf '%s\n' "${command[*]}"
  exit 0
fi
cd -- "$release"
exec "${command[@]}"
