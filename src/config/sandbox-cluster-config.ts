/**
 * The configuration slices of the embedded sandbox Kubernetes API server: what the
 * `agent-manager sandbox` command hands to `runSandbox`, and what `serve --sandbox` hands
 * to the in-process sandbox. Plain data only. The sandbox package declares the shape it
 * takes itself (it imports nothing from the product); src/sandbox-cluster.int.test.ts checks that
 * these types fit it. (The file's name avoids "sandbox" so that no sandbox-named module
 * ships in dist/: the sandbox itself lives in packages/kube-sandbox.)
 */

/** Who the sandbox API server lets do what. */
export type SandboxAuthorization = 'rbac' | 'always-allow';

/** OIDC id_token authentication of the sandbox, as kube-apiserver's `--oidc-*` flags. */
export interface SandboxOidcConfig {
  /** Issuer URL; tokens must carry it as `iss`. */
  readonly issuerUrl: string;
  /** The audience tokens must carry (`aud`). */
  readonly clientId: string;
  /** Claim that names the user (default `sub`). */
  readonly usernameClaim: string;
  /** Prefix of user names: empty means `<issuer>#` for claims other than `email`; `-` means none. */
  readonly usernamePrefix: string;
  /** Claim that lists the user's groups; empty means no groups are read. */
  readonly groupsClaim: string;
  /** PEM CA bundle to trust for the issuer's discovery and JWKS; empty means system trust. */
  readonly caFile: string;
}

/** Everything `agent-manager sandbox` runs with. */
export interface SandboxCommandConfig {
  /** host:port to listen on; port 0 picks a free port. Default `127.0.0.1:0`. */
  readonly listen: string;
  /** Where to write a kubeconfig for kubectl; empty writes none. */
  readonly kubeconfigOut: string;
  /** Seed the namespaces, CRDs and sample objects agent-manager expects. Default true. */
  readonly seed: boolean;
  /** RBAC enforcement, or everything allowed. Default `rbac`. */
  readonly authorization: SandboxAuthorization;
  /** Run the fake controllers (Flux, kagent) that move objects to Ready. Default true. */
  readonly controllers: boolean;
  /** How long the controllers wait after a change before acting on it (ms). Default 100. */
  readonly reconcileDelayMs: number;
  /** OIDC authentication; undefined when `--oidc-issuer-url` is not set. */
  readonly oidc: SandboxOidcConfig | undefined;
  /** Workload clusters `cluster-1`..`cluster-N` to run beside it (it is then their management cluster). Default 0. */
  readonly workloadClusters: number;
  /** Organization of the workload clusters (namespace `org-<organization>`). Default `acme`. */
  readonly organization: string;
  /** Debug logging. */
  readonly verbose: boolean;
}

/** The `serve --sandbox*` slice: run the service against an in-process sandbox API. */
export interface ServeSandboxConfig {
  /** Start an in-process sandbox and use it instead of a real cluster. Default false. */
  readonly enabled: boolean;
  /** host:port of the in-process sandbox; default `127.0.0.1:0`. */
  readonly listen: string;
  /** Where to write a kubeconfig for kubectl; empty writes none. */
  readonly kubeconfigOut: string;
  /** How long the sandbox's controllers wait after a change before acting on it (ms); default 100. */
  readonly reconcileDelayMs: number;
}
