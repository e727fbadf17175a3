# syntax=docker/dockerfile:1
# agent-manager container image.
#
# Stage 1 builds with the dev dependencies (TypeScript 7, esbuild) exactly as `npm run build`
# does (`npm run build:product` is scripts/build.mjs for the product alone), then prunes them;
# stage 2 runs with the production dependencies only. @kubernetes/client-node is a dev
# dependency: dist/vendor holds the one copy the service uses (scripts/vendor-client-node.mjs),
# so the pruned node_modules has none. The sandbox package (packages/kube-sandbox, a
# development workspace) never enters the build context's stages: without its folder npm
# installs no workspace, so the image holds neither the sandbox nor its dependencies, and
# `serve --sandbox` there exits 2 saying the sandbox is not installed.
#
# Base: node:24.21.0-bookworm-slim, the exact Node release the tests run on (package.json's
# pinned `node` devDependency; test/chart-package/dockerfile.test.ts holds the two equal, so a Node
# upgrade moves both). The tag names the Node release; pin its digest beside it when it can be
# read (`FROM node:24.21.0-bookworm-slim@sha256:<digest>`, the multi-platform index digest), so a
# rebuild gets the same bytes until someone moves the pin on purpose:
#   docker buildx imagetools inspect node:24.21.0-bookworm-slim --format '{{json .Manifest.Digest}}'
#   (or: crane digest node:24.21.0-bookworm-slim)
# It is not pinned here: the machine this tag was chosen on could reach no registry to read it.
#
# Runtime base: node:24.21.0-bookworm-slim, Node.js 24 LTS on Debian 12: the same Node release
# the tests run on (the package's `node` devDependency) and the same Debian the test
# machines use, so the code never runs on a libc or Node build it was not tested on, with
# a `node` user that already has uid/gid 1000. It is larger than
# gcr.io/distroless/nodejs24-debian12, but keeps `node` on PATH for the entrypoint and a
# shell for `kubectl exec` debugging; npm, npx, corepack and yarn are removed from it,
# since nothing installs at run time.
#
# The image carries the package version: VERSION defaults to package.json's "version"
# (test/chart-package checks they agree, and so do the chart's version and appVersion), in
# the OCI version label; `agent-manager version` and get_info read package.json itself.
# Tag the image with that version:
#
#   docker build -t agent-manager:$(node -p "require('./package.json').version") \
#     --build-arg COMMIT=$(git rev-parse --short HEAD) \
#     --build-arg BUILT=$(date -u +%Y-%m-%dT%H:%M:%SZ) .
#   docker run --rm -p 8080:8080 -v ~/.kube/config:/kube/config:ro agent-manager serve --kubeconfig=/kube/config --listen=:8080

FROM node:24.21.0-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/ scripts/
COPY src/ src/
COPY api/ api/
RUN npm run build:product && npm prune --omit=dev

FROM node:24.21.0-bookworm-slim AS runtime
ARG VERSION=0.1.0
ARG COMMIT=unknown
ARG BUILT=unknown
LABEL org.opencontainers.image.title="agent-manager" \
      org.opencontainers.image.description="Agent lifecycle service: Flux HelmReleases of the agent chart over REST and MCP" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${COMMIT}" \
      org.opencontainers.image.created="${BUILT}" \
      org.opencontainers.image.source="https://github.com/giantswarm/agent-manager" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production \
    AGENT_MANAGER_COMMIT=${COMMIT} \
    AGENT_MANAGER_BUILT=${BUILT}
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /opt/yarn-* \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg
WORKDIR /app
# Owned by root and only readable by the service user: the process cannot change its own code.
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/api ./api
USER 1000:1000
# 8080: REST API, MCP endpoint and health probes; 9464: Prometheus /metrics.
EXPOSE 8080 9464
ENTRYPOINT ["node", "/app/dist/main.js"]
CMD ["serve"]
