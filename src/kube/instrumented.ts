/**
 * Observability around every Kubernetes call: a `KubeCallHook` runs around each call of a KubePort
 * (metrics, a span). A Proxy, so methods a port gains later are covered: the verb is the method's
 * Kubernetes name, the resource the first argument's. `code` is labelled as the API server's own
 * `apiserver_request_total` does (200, 201, 404, the refusal's status), or `error` without an answer.
 */
import type { RequestContext } from '../identity/caller.js';
import type { KubeProvider } from '../service/ports.js';
import { kubeStatus } from './kube-errors.js';
import { asObject } from '../core/json.js';

/** One Kubernetes call, as hooks see it. */
export interface KubeCall {
  /** `get`, `list`, `create`, `update`, `patch`, `delete`, `watch`, … */
  readonly verb: string;
  /** The resource's plural name: `helmreleases`, `pods`. */
  readonly resource: string;
  readonly namespace?: string;
}

/** Runs around one call; must return (or rethrow) what `run` does. */
export type KubeCallHook = <T>(call: KubeCall, run: () => Promise<T>) => Promise<T>;

const VERBS: Readonly<Record<string, string>> = { replace: 'update', remove: 'delete' };

/** `port` with every method run through the hooks (outermost first). */
export function instrumentKube<T extends object>(port: T, hooks: readonly KubeCallHook[]): T {
  if (hooks.length === 0) return port;
  return new Proxy(port, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor') return value;
      return (...args: unknown[]) => {
        const { resource } = asObject(args[0]);
        const call: KubeCall = {
          verb: VERBS[property] ?? property,
          resource: typeof resource === 'string' ? resource : 'unknown',
          namespace: typeof args[1] === 'string' ? args[1] : undefined,
        };
        const run = (): Promise<unknown> =>
          Promise.resolve<unknown>(Reflect.apply(value, target, args));
        return hooks.reduceRight<() => Promise<unknown>>((inner, hook) => () => hook(call, inner), run)();
      };
    },
  });
}

/** The provider with every port it hands out instrumented. */
export function instrumentProvider<P extends KubeProvider>(provider: P, hooks: readonly KubeCallHook[]): P {
  if (hooks.length === 0) return provider;
  return new Proxy(provider, {
    get(target, property, receiver) {
      if (property === 'forRequest') return (ctx: RequestContext) => instrumentKube(target.forRequest(ctx), hooks);
      if (property === 'forWatches' && target.forWatches) {
        const forWatches = target.forWatches.bind(target);
        return (ctx: RequestContext) => instrumentKube(forWatches(ctx), hooks);
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The status label of a call's outcome: a result (absent is 404), or a failure's API status. */
export function kubeCallCode(call: KubeCall, outcome: { result: unknown } | { error: unknown }): string {
  if ('error' in outcome) {
    const err = outcome.error;
    const status = kubeStatus(err) ?? kubeStatus(asObject(err).cause);
    return status === undefined ? 'error' : String(status);
  }
  if (outcome.result === undefined || outcome.result === false) return '404';
  return call.verb === 'create' ? '201' : '200';
}
