#!/usr/bin/env bash
# Builds the release artifact: a .tar.gz of the committed tree at REF (git
# archive, so node_modules, data/ and anything uncommitted stay out). Prints
# the artifact's path; its commit id is the second line.
#   build-artifact.sh [--ref REF] [--out DIR]    (defaults: HEAD, dist)
set -euo pipefail

ref=HEAD
out=dist
while (($# > 0)); do
  case $1 in
    --ref) ref=${2:?--ref needs a value}; shift 2 ;;
    --out) out=${2:?--out needs a value}; shift 2 ;;
    -h | --help) sed -n '2,6p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) printf 'build-artifact: unknown argument: %s\n' "$1" >&2; exit 2 ;;
  esac
done

commit=$(git rev-parse --verify "$ref^{commit}")
mkdir -p -- "$out"
artifact=$out/notification-pipeline-${commit:0:7}.tar.gz
git archive --format=tar.gz -o "$artifact" "$commit"
printf '%s\n%s\n' "$artifact" "$commit"
