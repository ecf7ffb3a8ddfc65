#!/usr/bin/env bash
# One test tier (unit, integration or process; see jest.config.js), with jest's other arguments:
#   bash scripts/test-tier.sh unit packages/web -t 'robots'
# --selectProjects comes last: it takes every word after it as a project name.
set -euo pipefail
cd "$(dirname "$0")/.."
tier=$1
shift
exec pnpm exec jest "$@" --selectProjects "$tier"
