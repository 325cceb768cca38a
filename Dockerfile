# svc-operator image: build with dev dependencies; the runtime stage holds only the bundle
# (dist/: the CLI and its dependencies, tree-shaken by esbuild) and the CRDs, no node_modules.
# test/deploy/dockerfile.test.ts replays these steps (no container engine runs on CI
# machines here) and runs `--help` from the result.

# Base images are pinned by digest (node 24.18.0, bookworm-slim): a moved tag cannot change what
# is built or run. Update both lines together.
FROM node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d AS build
WORKDIR /app
# .npmrc: no dependency runs an install script.
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d AS runtime
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
