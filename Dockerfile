# One image for every process: `node dist/api/server.js`, `node dist/workers/main-worker.js`, `node dist/ingest/main-ingest.js`
# or `node dist/bot/main-bot.js`.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# patches/ (patch-package, run by postinstall): express-openapi-validator's route matchers compiled once.
COPY patches ./patches
# `npm install` rather than `npm ci`: the lock omits other platforms' optional binaries, which npm 11's ci rejects.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --omit=optional

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/package.json ./package.json
USER node
EXPOSE 8000 9464
CMD ["node", "dist/api/server.js"]
