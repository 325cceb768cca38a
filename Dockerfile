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
# Two malloc arenas instead of one per thread that ever allocated (8 per core by default): V8's
# compiler and GC threads would each keep an arena of freed memory. bench/memory.ts, 10,000
# resources: peak RSS 185 MB with it, 193 MB without (one pair of runs).
ENV MALLOC_ARENA_MAX=2
# A fixed mmap threshold: glibc otherwise raises it to the size of each large block freed (up to
# 32 MB), after which blocks up to that size (network buffers, off-heap allocations) are carved
# from the arenas, whose freed pages stay resident. Now a block of 128 KB or more is mapped for
# itself and unmapped when freed, and an arena's free top beyond 128 KB is given back.
# bench/memory.ts, 10,000 resources, six runs each (three of them interleaved pairs): malloc's
# main arena 12-14 MB at the end instead of 14-17, peak RSS median 155.5 MB (152-168) against
# 159.5 (156-174), operator CPU time unchanged.
ENV MALLOC_MMAP_THRESHOLD_=131072
ENV MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
# package.json only for "type": "module"; the bundle needs no installed package.
COPY package.json ./
COPY --from=build /app/dist ./dist
COPY crds ./crds
# Files stay owned by root: the operator's user can read but not change them.
USER 65532:65532
EXPOSE 8080
# V8 flags that NODE_OPTIONS does not take (bench/memory.ts reads them here): --liftoff-only keeps
# WebAssembly (undici's HTTP parser, llhttp) in V8's baseline compiler, whose code it runs from
# the first request, instead of recompiling its hot functions with TurboFan (10 MB of RSS at
# idle, 8-14 MB at the peak); --no-use-osr leaves a loop that runs once (tldts building its
# suffix table at start) to the interpreter rather than optimizing it mid-run, the only TurboFan
# work at idle (5 MB). Neither showed in the operator's CPU time (bench/memory.ts, 2,000
# resources, three runs each: 5.9-6.9 s with both, 5.6-7.1 s without). --no-sparkplug leaves
# warm JavaScript to the interpreter until Maglev or TurboFan optimizes it, instead of compiling
# it to baseline machine code first: JIT code 2.5-2.8 MB instead of 5.3-5.5 at 10,000 resources,
# peak RSS median 148 MB against 153.5 (six alternating runs each), operator CPU time within 1%.
ENTRYPOINT ["node", "--liftoff-only", "--no-use-osr", "--no-sparkplug", "dist/cli.js", "run"]
