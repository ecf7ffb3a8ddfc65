# syntax=docker/dockerfile:1
#
# Sitelens images: one codebase, one image per role.
#   docker build --target gateway           -t sitelens/gateway .            HTTP only, :8081
#   docker build --target screenshot-worker -t sitelens/screenshot-worker .  Chromium + fonts
#   docker build --target parse-worker      -t sitelens/parse-worker .       Chromium too: scrape
#                                           renders JS-only pages and watch checks take screenshots
#   docker build -t sitelens/all .          every role in one process (the last, default target)
# Each runs `node scripts/serve.js` (what `npm run serve` runs) with ROLE set by its target,
# under tini as PID 1, as the unprivileged user `sitelens` (uid 10001).

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: dependencies from the lockfile, compile, then production dependencies only ----
FROM ${NODE_IMAGE} AS build
ENV CI=true \
    npm_config_store_dir=/pnpm/store \
    PUPPETEER_SKIP_DOWNLOAD=true
RUN npm install -g pnpm@9.15.9
WORKDIR /app
# pnpm fetch needs only the lockfile, so this layer is rebuilt only when dependencies change.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline \
 && pnpm exec tsc -b tsconfig.json
# A clean production install (pnpm prune empties workspace packages' own node_modules), then
# drop what only the build and the tests use.
RUN rm -rf node_modules packages/*/node_modules services/*/node_modules \
 && pnpm install --frozen-lockfile --offline --prod \
 && rm -rf packages/*/src packages/*/test services/*/src services/*/test test bench docs packages/testkit \
      tsconfig*.json packages/*/tsconfig*.json services/*/tsconfig*.json \
      packages/*/*.tsbuildinfo services/*/*.tsbuildinfo eslint.config.mjs jest.config.js .dependency-cruiser.cjs

# ---- runtime: tini as PID 1 (signals reach node, zombies are reaped), an unprivileged user ----
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 sitelens \
 && useradd --system --uid 10001 --gid sitelens --home-dir /home/sitelens --create-home --shell /usr/sbin/nologin sitelens \
 && mkdir -p /data \
 && chown sitelens:sitelens /data
# DATA_DIR holds fs-driver blobs when STORAGE_DRIVER=fs; /app itself stays read-only to the user.
ENV NODE_ENV=production \
    DATA_DIR=/data
WORKDIR /app
ENTRYPOINT ["/usr/bin/tini", "--"]
# Inherited by every target: `npm run serve` by ROLE, and a health check that asks the running
# role at its configured address (/v1/health for the gateway, /readyz for a worker).
CMD ["node", "scripts/serve.js"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "scripts/healthcheck.js"]

# ---- browser: Chromium, fonts for Latin, emoji and CJK pages, and the maintained EasyList and
# EasyPrivacy (Debian's uBlock Origin package; block_ads and block_trackers read them) ----
FROM runtime AS browser
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-noto-color-emoji fonts-noto-cjk \
      webext-ublock-origin-chromium \
 && rm -rf /var/lib/apt/lists/*
ENV CHROME_PATH=/usr/bin/chromium

FROM runtime AS gateway
COPY --from=build /app /app
ENV ROLE=gateway
# The API; in hosted mode /metrics is on the ops port (OPS_HTTP_ADDR) instead.
EXPOSE 8081 9464
USER sitelens

FROM browser AS screenshot-worker
COPY --from=build /app /app
ENV ROLE=screenshot-worker
# Probes and metrics (OPS_HTTP_ADDR).
EXPOSE 9464
USER sitelens

FROM browser AS parse-worker
COPY --from=build /app /app
ENV ROLE=parse-worker
EXPOSE 9464
USER sitelens

FROM browser AS all
COPY --from=build /app /app
ENV ROLE=all
EXPOSE 8081 9464
USER sitelens
