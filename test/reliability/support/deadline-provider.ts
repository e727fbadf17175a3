/**
 * The ServiceAccount provider of `serve`, built with a short Kubernetes request deadline
 * (`makeKubeApis`' option; `serve` uses 30 s), so a fault suite can hold an API request
 * past the deadline in a second rather than in half a minute.
 */
import { makeKubeApis } from '../../../src/kube/api-clients.js';
import { ClientNodeKube } from '../../../src/kube/client-node-kube.js';
import { loadBaseKubeConfig } from '../../../src/kube/kubeconfig.js';
import type { Sandbox } from '@agent-manager/kube-sandbox';
import type { KubeProvider } from '../../../src/service/ports.js';

/** A fixture `provider` acting as agent-manager's ServiceAccount with `requestTimeoutMs` per request. */
export function deadlineProvider(requestTimeoutMs: number): (sandbox: Sandbox) => KubeProvider & { close(): void } {
  return (sandbox) => {
    const apis = makeKubeApis(loadBaseKubeConfig({
      kubeconfigYaml: sandbox.kubeconfigYaml({ token: sandbox.serviceAccountToken, name: 'agent-manager' }),
    }), { requestTimeoutMs });
    const port = new ClientNodeKube(apis);
    return { identity: 'serviceAccount', forRequest: () => port, close: () => apis.close() };
  };
}
