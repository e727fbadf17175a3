/**
 * Loads the embedded sandbox Kubernetes API server (`@agent-manager/kube-sandbox`, an npm workspace the
 * production image leaves out) for `serve --sandbox` and `agent-manager sandbox`. The product never
 * imports it statically: a dynamic import here, and a missing package is a one-line configuration error
 * (exit 2), not a stack trace. The interfaces below are the part of the package's API the product calls;
 * a type test keeps them in step with the package.
 */
/** The package's name, the specifier both entry points are imported by. */
export const SANDBOX_PACKAGE = '@agent-manager/kube-sandbox';
/** The sandbox cannot be loaded because its package is not installed. */
export class SandboxNotInstalledError extends Error {
    constructor(specifier) {
        super(`the sandbox is not installed (package ${specifier} is missing; it ships with a development checkout, not ` +
            `with the production image)`);
        this.name = 'SandboxNotInstalledError';
    }
}
/**
 * The fleet `serve --sandbox` runs: the sandbox is the management cluster of organization
 * `acme` with workload clusters `alpha` and `beta`, each with a sample agent placed on it.
 */
export const SANDBOX_FLEET = { organization: 'acme', workloadClusters: ['alpha', 'beta'] };
/** Import `specifier`, turning "that package is not installed" into SandboxNotInstalledError. */
export async function importSandbox(specifier) {
    try {
        return (await import(specifier));
    }
    catch (err) {
        const code = err.code;
        const packageName = specifier.split('/').slice(0, 2).join('/');
        if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
            String(err.message).includes(packageName)) {
            throw new SandboxNotInstalledError(packageName);
        }
        throw err;
    }
}
/** The sandbox's main entry point. */
export function loadSandbox(specifier = SANDBOX_PACKAGE) {
    return importSandbox(specifier);
}
/** The sandbox's command entry point. */
export function loadSandboxCli(specifier = `${SANDBOX_PACKAGE}/cli`) {
    return importSandbox(specifier);
}
//# sourceMappingURL=sandbox-cluster.js.map