/**
 * The configuration slices of the embedded sandbox Kubernetes API server: what the
 * `agent-manager sandbox` command hands to `runSandbox`, and what `serve --sandbox` hands
 * to the in-process sandbox. Plain data only. The sandbox package declares the shape it
 * takes itself (it imports nothing from the product); src/sandbox-cluster.test.ts checks that
 * these types fit it. (The file's name avoids "sandbox" so that no sandbox-named module
 * ships in dist/: the sandbox itself lives in packages/kube-sandbox.)
 */
export {};
//# sourceMappingURL=sandbox-cluster-config.js.map