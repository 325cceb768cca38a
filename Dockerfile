# svc-operator image: build with dev dependencies; the runtime stage holds only the bundle
# (dist/: the CLI and its dependencies, tree-shaken by esbuild) and the CRDs, no node_modules.
# test/deploy/dockerfile.test.ts replays these steps (no container engine runs on CI
# machines here) and runs `--help` from the result.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim AS runtime
LABEL org.opencontainers.image.title="svc-operator" \
      org.opencontainers.image.description="Kubernetes operator for the cloud-management service" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production
WORKDIR /app
# package.json only for "type": "module"; the bundle needs no installed package.
COPY package.json ./
COPY --from=build /app/dist ./dist
COPY crds ./crds
# Files stay owned by root: the operator's user can read but not change them.
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["node", "dist/cli.js", "run"]
