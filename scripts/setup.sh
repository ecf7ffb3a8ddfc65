#!/usr/bin/env bash
# Idempotent set-up: system packages, pnpm, workspace dependencies, build.
# Fast when nothing changed: each step checks before it acts.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[setup] %s\n' "$*"; }

APT_PACKAGES=(redis-server chromium fonts-liberation fonts-noto-color-emoji fonts-noto-cjk webext-ublock-origin-chromium)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    log "missing system packages: ${missing[*]} (run as root or install them)"; exit 1
  fi
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  log "installing system packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v pnpm >/dev/null || ! pnpm --version | grep -q '^9\.'; then
  log "installing pnpm 9 with npm"
  npm i -g pnpm@9 >/dev/null 2>&1
fi

# Reinstall only when the lockfile or a manifest changed since the last successful install.
stamp_file=node_modules/.sitelens-install-stamp
stamp=$(cat pnpm-lock.yaml package.json packages/*/package.json services/*/package.json 2>/dev/null | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp_file" ] || [ "$(cat "$stamp_file")" != "$stamp" ]; then
  log "installing workspace dependencies"
  # append-only: quiet enough for CI logs, and an install failure still says why.
  if [ -f pnpm-lock.yaml ]; then pnpm install --frozen-lockfile --reporter=append-only; else pnpm install --reporter=append-only; fi
  echo "$stamp" > "$stamp_file"
fi

log "building"
pnpm exec tsc -b tsconfig.json
log "ready"
