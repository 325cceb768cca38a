# svc-operator image: build with dev dependencies, run with production dependencies only.
# test/deploy/dockerfile.test.ts replays these steps (no container engine runs on CI
# machines here) and runs `--help` from the result.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim AS runtime
LABEL org.opencontainers.image.title="svc-operator" \
      org.opencontainers.image.description="Kubernetes operator for the cloud-management service" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY crds ./crds
# Files stay owned by root: the operator's user can read but not change them.
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["node", "dist/cli.js", "run"]
