#!/usr/bin/env bash
# First install of a host, run as root from an unpacked artifact or checkout:
#   sudo bash config/deploy/host-setup.sh [--deploy-user NAME] [--domain NAME]
#        [--env-template FILE] [--dry-run]
# Creates the service account and the deploy account, the release folders,
# the env file from the template (only when there is none yet), the systemd
# unit, the sudoers rule and, with --domain, the nginx site. Safe to run again:
# it keeps an existing env file and accounts. --dry-run prints the commands.
set -euo pipefail

readonly SERVICE_USER=notification-pipeline
readonly BASE=/srv/notification-pipeline
readonly ENV_DIR=/etc/notification-pipeline
readonly ENV_FILE=$ENV_DIR/notification-pipeline.env
readonly UNIT=/etc/systemd/system/notification-pipeline.service
readonly SUDOERS=/etc/sudoers.d/notification-pipeline
readonly SITE=/etc/nginx/sites-available/notification-pipeline

repo=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
deploy_user=deploy
domain=''
template=$repo/config/env.template
dry_run=false

while (($# > 0)); do
  case $1 in
    --deploy-user) deploy_user=${2:?--deploy-user needs a value}; shift 2 ;;
    --domain) domain=${2:?--domain needs a value}; shift 2 ;;
    --env-template) template=${2:?--env-template needs a value}; shift 2 ;;
    --dry-run) dry_run=true; shift ;;
    -h | --help) sed -n '2,8p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) printf 'host-setup: unknown argument: %s\n' "$1" >&2; exit 2 ;;
  esac
done

fail() {
  printf 'host-setup: %s\n' "$*" >&2
  exit 1
}
note() { printf '[host-setup] %s\n' "$*"; }
run() {
  if [[ $dry_run == true ]]; then
    printf '+'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}

[[ $deploy_user =~ ^[a-z_][a-z0-9_-]{0,31}$ ]] || fail "bad --deploy-user"
[[ -z $domain || $domain =~ ^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$ ]] || fail "bad --domain"
[[ -f $template ]] || fail "no env template at $template: run \`npm run config:template\` in a checkout first, or pass --env-template"
if [[ $dry_run == false && $EUID -ne 0 ]]; then fail "run as root (or with --dry-run)"; fi

work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT

# Accounts: the service runs as a system account without a login; the deploy
# account logs in with an SSH key and owns the release folders.
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
  run useradd --system --user-group --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
if ! id -u "$deploy_user" >/dev/null 2>&1; then
  run useradd --create-home --user-group --shell /bin/bash "$deploy_user"
fi

# Release folders: releases/ and current belong to the deploy account; the
# embedded database folder to the service account.
run install -d -o "$deploy_user" -g "$deploy_user" -m 755 "$BASE" "$BASE/releases" "$BASE/shared"
run install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 750 "$BASE/shared/data"

# Env file: production configuration and secrets, readable by root and the
# service account's group only. An existing one is kept as it is.
run install -d -o root -g "$SERVICE_USER" -m 750 "$ENV_DIR"
if [[ -e $ENV_FILE ]]; then
  note "keeping the existing $ENV_FILE"
  run chown root:"$SERVICE_USER" "$ENV_FILE"
  run chmod 640 "$ENV_FILE"
else
  run install -m 640 -o root -g "$SERVICE_USER" "$template" "$ENV_FILE"
  note "edit $ENV_FILE: NODE_ENV=production, connection string, secrets"
fi

# systemd unit, enabled; the first deploy starts it.
run install -m 644 -o root -g root "$repo/config/systemd/notification-pipeline.service" "$UNIT"
run systemctl daemon-reload
run systemctl enable notification-pipeline.service

# sudoers: restart, is-active and status of the unit for the deploy account.
sed "s/^deploy /$deploy_user /" "$repo/config/sudoers/notification-pipeline" >"$work/sudoers"
if command -v visudo >/dev/null 2>&1; then
  visudo -cqf "$work/sudoers" >/dev/null || fail "the sudoers rule does not parse"
elif [[ $dry_run == false ]]; then
  fail "visudo not found: install sudo first"
fi
run install -m 440 -o root -g root "$work/sudoers" "$SUDOERS"

# nginx site: the only public listener.
if [[ -n $domain ]]; then
  sed "s/notifications\.example\.org/$domain/g" "$repo/config/nginx/notification-pipeline.conf" >"$work/site"
  run install -m 644 -o root -g root "$work/site" "$SITE"
  run install -d -m 755 /var/www/letsencrypt
  if [[ -f /etc/letsencrypt/live/$domain/fullchain.pem ]]; then
    run ln -sfn "$SITE" /etc/nginx/sites-enabled/notification-pipeline
    run nginx -t
    run systemctl reload nginx
  else
    note "no certificate for $domain yet: get one (certbot certonly --webroot -w /var/www/letsencrypt -d $domain"
    note "  while a plain port-80 site serves that folder, or --standalone with nginx stopped), then run this again"
  fi
else
  note "no --domain: nginx site not installed"
fi

# Runtime check: the unit runs /usr/bin/node, which must be >= 22.18.
if node_version=$(/usr/bin/node --version 2>/dev/null) && [[ $node_version =~ ^v([0-9]+)\.([0-9]+)\. ]] &&
  ((BASH_REMATCH[1] > 22 || (BASH_REMATCH[1] == 22 && BASH_REMATCH[2] >= 18))); then
  note "runtime: /usr/bin/node $node_version"
else
  note "WARNING: /usr/bin/node is missing or older than 22.18 (${node_version:-none}); install Node 24 before the first deploy"
fi
note "next: put the CI's public key in ~$deploy_user/.ssh/authorized_keys, fill $ENV_FILE, run the first deploy"
