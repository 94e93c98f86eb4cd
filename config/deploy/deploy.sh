#!/usr/bin/env bash
# Deploys a release of the notification pipeline, or rolls back to an older one.
#
# Layout of a target folder (BASE, /srv/notification-pipeline on the host):
#   BASE/releases/<yyyyMMddHHmmss>-<short commit>/  one folder per release: the artifact
#                                                  plus its production node_modules
#   BASE/current -> releases/<name>                the release the service runs
#   BASE/shared/data/                              kept across releases; every release's
#                                                  data/ (embedded database) links here
#   BASE/.deploy.lock                              one deploy at a time
#
# A deploy unpacks the artifact into a new release folder, installs production
# dependencies there, points `current` at it atomically, restarts the service
# and waits for the readiness URL. When the restart, the start or the
# readiness check fails, `current` goes back to the previous release, the
# service is restarted on it and the failed release folder is removed. After
# a good deploy only the latest releases are kept (never the current one).
#
# Target: `--local DIR` runs every step here (the host itself, and tests);
# `--ssh USER@HOST` checks the host key first, then streams this script and
# the artifact over one SSH connection and runs the same steps on the host
# with `--local BASE`.
#
# Exit codes: 0 done and ready; 1 failed, nothing changed or the previous
# release restored and ready; 2 bad usage or input; 3 failed and no ready
# release could be restored (or there was none); 4 host key check refused the
# connection before connecting; 5 another deploy holds the lock; other: from ssh.
set -Eeuo pipefail

readonly SERVICE=notification-pipeline.service
readonly DEFAULT_RESTART_CMD="sudo -n /usr/bin/systemctl restart $SERVICE"
readonly DEFAULT_ACTIVE_CMD="sudo -n /usr/bin/systemctl is-active $SERVICE"
readonly DEFAULT_READY_URL=http://127.0.0.1:5000/health/ready
readonly DEFAULT_INSTALL_CMD='npm ci --omit=dev --no-audit --no-fund'
readonly DEFAULT_ATTEMPTS=30
readonly DEFAULT_INTERVAL=2
readonly DEFAULT_TIMEOUT=2
readonly DEFAULT_KEEP=5
readonly DEFAULT_REMOTE_BASE=/srv/notification-pipeline

usage() {
  cat <<EOF
Usage:
  deploy.sh --artifact FILE --commit SHA (--local DIR | --ssh USER@HOST) [options]
  deploy.sh --rollback [--to NAME] (--local DIR | --ssh USER@HOST) [options]

Target:
  --local DIR          deploy into DIR on this machine
  --ssh USER@HOST      deploy over SSH (key-based, StrictHostKeyChecking=yes)
  --base DIR           folder on the SSH host (default $DEFAULT_REMOTE_BASE)
  --port N             SSH port (default \$VPS_PORT, else 22)
  --identity FILE      private key file (default: the key in \$VPS_SSH_KEY, else ssh's own)
  --ssh-cmd PROG       program used as ssh (default ssh)
  --keyscan-cmd PROG   program used as ssh-keyscan (default ssh-keyscan)
  Host key: \$VPS_SSH_KNOWN_HOSTS (known_hosts lines; one must match HOST and PORT),
  else a key scan of HOST:PORT, which must yield a key; otherwise nothing connects.

Release:
  --artifact FILE      release artifact: a .tar.gz of the repository (git archive)
  --commit SHA         commit id of the artifact (release <yyyyMMddHHmmss>-<first 7>)
  --timestamp STAMP    yyyyMMddHHmmss of the release folder (default: now, UTC)
  --install-cmd CMD    run in the release folder (default: $DEFAULT_INSTALL_CMD)
  --keep N             releases kept after a good deploy (default $DEFAULT_KEEP; current always kept)
  --rollback           point current at an older release instead of deploying
  --to NAME            release to roll back to (default: the one before current)

Service:
  --restart-cmd CMD    restarts the service (default: $DEFAULT_RESTART_CMD)
  --active-cmd CMD     must succeed once ready; '' skips it (default: $DEFAULT_ACTIVE_CMD)
  --ready-url URL      readiness URL (default $DEFAULT_READY_URL)
  --attempts N         readiness attempts (default $DEFAULT_ATTEMPTS)
  --interval S         seconds between attempts (default $DEFAULT_INTERVAL)
  --timeout S          seconds per attempt (default $DEFAULT_TIMEOUT)

  --dry-run            print what would run (SSH: after the host key check) and stop
  -h, --help           this text
Commands get DEPLOY_BASE and DEPLOY_RELEASE in their environment.
EOF
}

log() { printf '[deploy] %s\n' "$*"; }
err() { printf '[deploy] error: %s\n' "$*" >&2; }
die() {
  local code=$1
  shift
  err "$*"
  exit "$code"
}

# Single-quotes a word for a POSIX shell (the remote login shell).
shq() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# ---------------------------------------------------------------- options
artifact='' commit='' timestamp='' local_dir='' ssh_target='' remote_base=$DEFAULT_REMOTE_BASE
port='' identity='' ssh_cmd=ssh keyscan_cmd=ssh-keyscan
install_cmd=$DEFAULT_INSTALL_CMD restart_cmd=$DEFAULT_RESTART_CMD active_cmd=$DEFAULT_ACTIVE_CMD
ready_url=$DEFAULT_READY_URL attempts=$DEFAULT_ATTEMPTS interval=$DEFAULT_INTERVAL timeout=$DEFAULT_TIMEOUT
keep=$DEFAULT_KEEP rollback=false rollback_to='' dry_run=false

while (($# > 0)); do
  opt=$1
  case $opt in
    -h | --help) usage; exit 0 ;;
    --rollback) rollback=true; shift; continue ;;
    --dry-run) dry_run=true; shift; continue ;;
    --artifact | --commit | --timestamp | --local | --ssh | --base | --port | --identity | --ssh-cmd | \
      --keyscan-cmd | --install-cmd | --restart-cmd | --active-cmd | --ready-url | --attempts | \
      --interval | --timeout | --keep | --to)
      (($# >= 2)) || die 2 "$opt needs a value"
      value=$2
      shift 2 ;;
    *) usage >&2; die 2 "unknown argument: $opt" ;;
  esac
  case $opt in
    --artifact) artifact=$value ;;
    --commit) commit=$value ;;
    --timestamp) timestamp=$value ;;
    --local) local_dir=$value ;;
    --ssh) ssh_target=$value ;;
    --base) remote_base=$value ;;
    --port) port=$value ;;
    --identity) identity=$value ;;
    --ssh-cmd) ssh_cmd=$value ;;
    --keyscan-cmd) keyscan_cmd=$value ;;
    --install-cmd) install_cmd=$value ;;
    --restart-cmd) restart_cmd=$value ;;
    --active-cmd) active_cmd=$value ;;
    --ready-url) ready_url=$value ;;
    --attempts) attempts=$value ;;
    --interval) interval=$value ;;
    --timeout) timeout=$value ;;
    --keep) keep=$value ;;
    --to) rollback_to=$value ;;
  esac
done

# ---------------------------------------------------------------- checks
[[ -n $local_dir || -n $ssh_target ]] || die 2 "give a target: --local DIR or --ssh USER@HOST"
[[ -z $local_dir || -z $ssh_target ]] || die 2 "give one target, not both --local and --ssh"
[[ $attempts =~ ^[1-9][0-9]*$ ]] || die 2 "--attempts must be a positive integer"
[[ $keep =~ ^[1-9][0-9]*$ ]] || die 2 "--keep must be a positive integer"
[[ $interval =~ ^[0-9]+(\.[0-9]+)?$ ]] || die 2 "--interval must be a number of seconds"
[[ $timeout =~ ^[0-9]+(\.[0-9]+)?$ && ! $timeout =~ ^0+(\.0+)?$ ]] || die 2 "--timeout must be a positive number of seconds"
[[ -n $ready_url ]] || die 2 "--ready-url must not be empty"
[[ -n $restart_cmd ]] || die 2 "--restart-cmd must not be empty"
[[ -z $timestamp || $timestamp =~ ^[0-9]{14}$ ]] || die 2 "--timestamp must be yyyyMMddHHmmss"
[[ -z $rollback_to || $rollback_to =~ ^[0-9]{14}-[0-9a-f]{7,40}$ ]] || die 2 "--to must name a release (<yyyyMMddHHmmss>-<commit>)"
if [[ $rollback == false ]]; then
  [[ -n $artifact ]] || die 2 "--artifact is required"
  [[ -f $artifact ]] || die 2 "artifact not found: $artifact"
  commit=${commit,,}
  [[ $commit =~ ^[0-9a-f]{7,40}$ ]] || die 2 "--commit must be a commit id (7 to 40 hex digits)"
  artifact=$(cd -- "$(dirname -- "$artifact")" && pwd -P)/$(basename -- "$artifact")
fi

# ---------------------------------------------------------------- local steps
base='' release='' name=''

release_names() { # oldest first
  local dir
  for dir in "$base"/releases/*/; do
    dir=${dir%/}
    dir=${dir##*/}
    if [[ $dir =~ ^[0-9]{14}-[0-9a-f]{7,40}$ ]]; then printf '%s\n' "$dir"; fi
  done | LC_ALL=C sort
}

current_name() {
  local target
  if [[ -L $base/current ]]; then
    target=$(readlink -- "$base/current")
    target=${target%/}
    printf '%s\n' "${target##*/}"
  fi
}

switch_current() { # atomic: a new link renamed over the old one
  local tmp=$base/.current.$$
  ln -sfn -- "releases/$1" "$tmp"
  mv -T -- "$tmp" "$base/current"
  log "current -> releases/$1"
}

run_cmd() { # $1: what, $2: command line
  local what=$1 cmd=$2
  log "$what: $cmd"
  # 9>&-: what the command starts in the background must not hold the lock.
  if DEPLOY_BASE=$base DEPLOY_RELEASE=$name bash -c "$cmd" 9>&-; then return 0; fi
  err "$what failed"
  return 1
}

wait_ready() {
  local i code
  for ((i = 1; i <= attempts; i++)); do
    code=$(curl -sS -o /dev/null -m "$timeout" -w '%{http_code}' -- "$ready_url" 2>/dev/null) || true
    if [[ $code == 200 ]]; then
      log "ready ($ready_url answered 200, attempt $i/$attempts)"
      return 0
    fi
    log "not ready yet (attempt $i/$attempts: ${code:-000})"
    if ((i < attempts)); then sleep "$interval"; fi
  done
  err "not ready after $attempts attempts: $ready_url"
  return 1
}

start_and_check() { # restart, wait for readiness, then the active check
  run_cmd restart "$restart_cmd" || return 1
  wait_ready || return 1
  if [[ -n $active_cmd ]]; then run_cmd 'active check' "$active_cmd" || return 1; fi
  return 0
}

prune() {
  local cur names i
  cur=$(current_name)
  mapfile -t names < <(release_names)
  for ((i = 0; i < ${#names[@]} - keep; i++)); do
    if [[ ${names[i]} == "$cur" ]]; then continue; fi
    rm -rf -- "${base:?}/releases/${names[i]}"
    log "removed old release ${names[i]}"
  done
}

open_base() {
  base=$(cd -- "$local_dir" 2>/dev/null && pwd -P) || die 2 "target folder not found: $local_dir"
  if [[ -e $base/current && ! -L $base/current ]]; then die 2 "$base/current exists and is not a symlink"; fi
  mkdir -p -- "$base/releases" "$base/shared/data"
  exec 9>"$base/.deploy.lock"
  flock -n 9 || die 5 "another deploy holds $base/.deploy.lock"
}

local_deploy() {
  local previous
  name=${timestamp:-$(date -u +%Y%m%d%H%M%S)}-${commit:0:7}
  if [[ $dry_run == true ]]; then
    print_plan "deploy $artifact as $local_dir/releases/$name"
    return 0
  fi
  open_base
  release=$base/releases/$name
  [[ ! -e $release ]] || die 2 "release $name already exists"
  previous=$(current_name)
  if [[ -n $previous && ! -d $base/releases/$previous ]]; then
    err "current points at a missing release ($previous); no rollback possible"
    previous=''
  fi
  log "release $name (previous: ${previous:-none})"

  mkdir -- "$release"
  if ! tar -xzf "$artifact" -C "$release"; then
    rm -rf -- "$release"
    die 1 "cannot unpack $artifact; current unchanged"
  fi
  if [[ ! -f $release/package.json ]]; then
    rm -rf -- "$release"
    die 1 "artifact has no package.json at its root; current unchanged"
  fi
  printf '%s\n' "$commit" >"$release/REVISION"
  if [[ ! -e $release/data && ! -L $release/data ]]; then ln -s ../../shared/data "$release/data"; fi
  log "installing dependencies: $install_cmd"
  if ! (cd -- "$release" && DEPLOY_BASE=$base DEPLOY_RELEASE=$name bash -c "$install_cmd" 9>&-); then
    rm -rf -- "$release"
    die 1 "installing dependencies failed; current unchanged"
  fi

  switch_current "$name"
  if start_and_check; then
    prune
    log "deployed $name"
    return 0
  fi

  err "release $name failed"
  if [[ -z $previous ]]; then
    err "no previous release to roll back to; current stays on $name"
    return 3
  fi
  log "rolling back to $previous"
  switch_current "$previous"
  name=$previous
  if start_and_check; then
    rm -rf -- "$release"
    log "rolled back: $previous is current and ready; removed failed release ${release##*/}"
    return 1
  fi
  err "rollback to $previous did not become ready"
  return 3
}

local_rollback() {
  local cur names i target=$rollback_to
  if [[ $dry_run == true ]]; then
    print_plan "roll back $local_dir to ${rollback_to:-the release before current}"
    return 0
  fi
  open_base
  cur=$(current_name)
  [[ -n $cur ]] || die 2 "$base/current does not exist"
  mapfile -t names < <(release_names)
  if [[ -z $target ]]; then
    for ((i = 0; i < ${#names[@]}; i++)); do
      if [[ ${names[i]} == "$cur" ]]; then break; fi
      target=${names[i]}
    done
    [[ -n $target ]] || die 2 "no release older than $cur"
  fi
  [[ -d $base/releases/$target ]] || die 2 "release not found: $target"
  [[ $target != "$cur" ]] || die 2 "$target is already current"

  log "rolling back from $cur to $target"
  switch_current "$target"
  name=$target
  if start_and_check; then
    log "rolled back: $target is current and ready"
    return 0
  fi
  err "$target did not become ready; returning to $cur"
  if [[ -d $base/releases/$cur ]]; then
    switch_current "$cur"
    name=$cur
    if start_and_check; then return 1; fi
  fi
  return 3
}

print_plan() {
  log "dry run: $1"
  log "install: $install_cmd"
  log "restart: $restart_cmd"
  log "active check: ${active_cmd:-(none)}"
  log "ready: $ready_url attempts=$attempts interval=${interval}s timeout=${timeout}s"
  log "keep: $keep releases (current always kept)"
}

# ---------------------------------------------------------------- SSH
ssh_deploy() {
  local user host lookup work known engine remote_cmd word
  local -a ssh_opts engine_args status
  [[ $ssh_target =~ ^([^@[:space:]]+)@([^@[:space:]]+)$ ]] || die 2 "--ssh must be USER@HOST"
  user=${BASH_REMATCH[1]}
  host=${BASH_REMATCH[2]}
  port=${port:-${VPS_PORT:-22}}
  if ! [[ $port =~ ^[1-9][0-9]{0,4}$ ]] || ((port < 1 || port > 65535)); then die 2 "SSH port must be 1..65535"; fi
  lookup=$host
  if [[ $port != 22 ]]; then lookup="[$host]:$port"; fi

  work=$(mktemp -d)
  # shellcheck disable=SC2064 # expand now: work is local
  trap "rm -rf -- '$work'" EXIT
  known=$work/known_hosts

  if [[ -n ${VPS_SSH_KNOWN_HOSTS:-} ]]; then
    printf '%s\n' "${VPS_SSH_KNOWN_HOSTS//$'\r'/}" >"$known"
    if ! ssh-keygen -F "$lookup" -f "$known" >/dev/null 2>&1; then
      die 4 "VPS_SSH_KNOWN_HOSTS has no key for $lookup; refusing to connect"
    fi
    log "host key of $lookup: from VPS_SSH_KNOWN_HOSTS"
  else
    log "VPS_SSH_KNOWN_HOSTS unset: scanning the host key of $lookup"
    "$keyscan_cmd" -p "$port" -T 10 "$host" >"$known" 2>"$work/keyscan.err" || true
    if ! grep -qEv '^[[:space:]]*(#|$)' "$known"; then
      die 4 "key scan of $lookup yielded no key; refusing to connect"
    fi
    log "host key of $lookup: from the key scan (trusted on first use)"
  fi

  ssh_opts=(-p "$port" -o BatchMode=yes -o StrictHostKeyChecking=yes -o "UserKnownHostsFile=$known"
    -o GlobalKnownHostsFile=/dev/null -o ConnectTimeout=20 -o ServerAliveInterval=15)
  if [[ -n $identity ]]; then
    [[ -r $identity ]] || die 2 "identity file not readable: $identity"
    ssh_opts+=(-i "$identity" -o IdentitiesOnly=yes)
  elif [[ -n ${VPS_SSH_KEY:-} ]]; then
    (umask 077 && printf '%s\n' "${VPS_SSH_KEY//$'\r'/}" >"$work/id_key")
    ssh_opts+=(-i "$work/id_key" -o IdentitiesOnly=yes)
  fi

  engine_args=(--local "$remote_base" --install-cmd "$install_cmd" --restart-cmd "$restart_cmd"
    --active-cmd "$active_cmd" --ready-url "$ready_url" --attempts "$attempts" --interval "$interval"
    --timeout "$timeout" --keep "$keep")
  if [[ $rollback == true ]]; then
    engine_args+=(--rollback)
    if [[ -n $rollback_to ]]; then engine_args+=(--to "$rollback_to"); fi
  else
    engine_args+=(--commit "$commit")
    if [[ -n $timestamp ]]; then engine_args+=(--timestamp "$timestamp"); fi
  fi
  engine=''
  for word in "${engine_args[@]}"; do engine+=" $(shq "$word")"; done
  # shellcheck disable=SC2016 # $d expands on the remote host
  if [[ $rollback == false ]]; then engine+=' --artifact "$d/artifact.tar.gz"'; fi
  # Runs in the remote login shell (POSIX sh is enough): unpack what we send
  # on stdin into a temporary folder, run the same script there with --local.
  # shellcheck disable=SC2016 # $d expands on the remote host
  remote_cmd='d=$(mktemp -d) && trap '\''rm -rf "$d"'\'' EXIT && tar -xf - -C "$d" && bash "$d/deploy.sh"'"$engine"' </dev/null'

  mkdir "$work/stage"
  cp -- "${BASH_SOURCE[0]}" "$work/stage/deploy.sh"
  if [[ $rollback == false ]]; then cp -- "$artifact" "$work/stage/artifact.tar.gz"; fi

  if [[ $dry_run == true ]]; then
    print_plan "$([[ $rollback == true ]] && echo rollback || echo deploy) on $user@$host:$remote_base"
    log "ssh: $ssh_cmd ${ssh_opts[*]} $user@$host"
    log "remote: $remote_cmd"
    return 0
  fi
  log "connecting to $user@$host port $port"
  set +e
  tar -C "$work/stage" -cf - . | "$ssh_cmd" "${ssh_opts[@]}" "$user@$host" "$remote_cmd"
  status=("${PIPESTATUS[@]}")
  set -e
  if ((status[1] == 255)); then err "ssh failed (connection, authentication or host key)"; fi
  return "${status[1]}"
}

if [[ -n $ssh_target ]]; then
  ssh_deploy
elif [[ $rollback == true ]]; then
  local_rollback
else
  local_deploy
fi
