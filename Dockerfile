# feedsync worker/scheduler image. Build: docker build -t feedsync .
# `npm ci`: both installs are exactly what package-lock.json pins, or fail.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` builds, and the sources are not copied yet.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# Production dependencies only. test/deploy/productionPackage.system.test.ts installs and runs the package
# with these same steps (this install, then dist/, migrations/, feedsync.yaml and examples/): keep them in step.
FROM node:20-bookworm-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# A config that leaves worker.httpHost/httpPort out takes these: listen on every interface, so the published port reaches the server.
ENV FEEDSYNC_HTTP_HOST=0.0.0.0 FEEDSYNC_HTTP_PORT=9464
# glibc gives each thread that allocates (libuv's pool, V8's helpers) an arena it never returns;
# two keep an idle worker smaller, at no CPU cost measured (docs/benchmarks.md).
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json feedsync.yaml ./
COPY migrations ./migrations
COPY examples ./examples
USER node
EXPOSE 9464
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["start"]
