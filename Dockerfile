# feedsync worker/scheduler image. Build: docker build -t feedsync .
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json feedsync.yaml ./
COPY migrations ./migrations
USER node
EXPOSE 9464
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["start"]
