/**
 * Fault injection for tests and benchmarks on the request hook chain: latency on every API request; the
 * next N requests of a verb and resource failing with a status (a proper Status body, with `Retry-After`
 * when the rule asks) or a dropped connection; a pod put in CrashLoopBackOff with the kubelet's `BackOff`
 * event. Reachable in-process (`sandbox.faults`) and over the admin endpoints; in-process controllers are
 * never affected.
 */
import { asList, isObject, nowTimestamp, type JsonObject } from './api/json.js';
import { statusForCode } from './api/status.js';
import { metadata } from './controllers/work-loop.js';
import { asConditions, recordEvent, setCondition, subjectOf } from './controllers/status-helpers.js';
import type { HookChain, RequestHook } from './hooks.js';
import type { SandboxStore } from './ops/sandbox-store.js';
import type { RequestInfo } from './server/request-info.js';

/** Which requests a failure rule takes, and how they fail. */
export interface FailureRule {
  /** A Kubernetes verb (`create`, `get`, `list`, …) or `*`. Default `*`. */
  verb?: string;
  /**
   * `plural`, `plural.group` or either with `/subresource` (`helmreleases/status`), or `*`.
   * Without a subresource only requests on the main resource match. Default `*`.
   */
  resource?: string;
  /** Only this namespace / object name (default any). */
  namespace?: string;
  name?: string;
  /** How many requests fail (default 1). */
  count?: number;
  /** HTTP status of the failure (default 500); its reason is the one the real server pairs with it. */
  code?: number;
  /** Status message (default "injected fault: <verb> <resource>"). */
  message?: string;
  /**
   * Seconds the failure asks the client to wait (the `Retry-After` header and the Status's
   * `details.retryAfterSeconds`, as kube-apiserver sends them with a 429 or 503); none by default.
   */
  retryAfterSeconds?: number;
  /** Drop the connection instead of answering. */
  drop?: boolean;
}

/** What is armed right now. */
export interface FaultSnapshot {
  latencyMs: number;
  failures: Array<Required<Pick<FailureRule, 'verb' | 'resource' | 'count'>> & FailureRule>;
}

/** A pod to put in CrashLoopBackOff. */
export interface CrashLoopTarget {
  namespace: string;
  pod: string;
  /** Default: the pod's first container. */
  container?: string;
}

function resourceMatches(pattern: string, info: RequestInfo): boolean {
  if (pattern === '*') return true;
  const [res = '', sub = ''] = pattern.split('/');
  if (sub !== info.subresource) return false;
  return res === info.resource || res === `${info.resource}.${info.group}`;
}

/** The sandbox's fault injector; install its hook once. */
export class FaultInjector {
  private latency = 0;
  private rules: FaultSnapshot['failures'] = [];
  readonly hook: RequestHook;

  constructor(private readonly store: SandboxStore) {
    this.hook = async (ctx, next) => {
      if (this.latency > 0) await new Promise((resolve) => setTimeout(resolve, this.latency));
      const info = ctx.info;
      const rule = this.rules.find(
        (r) =>
          r.count > 0 &&
          (r.verb === '*' || r.verb === info.verb) &&
          resourceMatches(r.resource, info) &&
          (r.namespace === undefined || r.namespace === info.namespace) &&
          (r.name === undefined || r.name === info.name),
      );
      if (!rule) return next();
      rule.count--;
      this.rules = this.rules.filter((r) => r.count > 0);
      if (rule.drop) return ctx.drop();
      const what = info.isResourceRequest
        ? `${info.verb} ${info.resource}${info.subresource ? `/${info.subresource}` : ''}`
        : `${info.verb} ${info.path}`;
      const failure = statusForCode(rule.code ?? 500, rule.message ?? `injected fault: ${what}`);
      if (rule.retryAfterSeconds !== undefined) {
        failure.status.details = { retryAfterSeconds: rule.retryAfterSeconds };
        ctx.res.setHeader('Retry-After', String(rule.retryAfterSeconds));
      }
      ctx.fail(failure);
    };
  }

  /** Install the hook on a chain; returns the function that removes it. */
  install(hooks: HookChain): () => void {
    return hooks.use(this.hook);
  }

  /** Delay every API request by `ms` (0 turns it off). */
  setLatency(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new Error(`latency must be a number of milliseconds >= 0, got ${String(ms)}`);
    }
    this.latency = ms;
  }

  /** Fail the next `count` requests matching the rule. */
  failNext(rule: FailureRule): void {
    const count = rule.count ?? 1;
    if (!Number.isInteger(count) || count < 1) {
      throw new Error(`count must be a whole number >= 1, got ${String(rule.count)}`);
    }
    if (rule.code !== undefined && (!Number.isInteger(rule.code) || rule.code < 400 || rule.code > 599)) {
      throw new Error(`code must be an HTTP error status (400-599), got ${String(rule.code)}`);
    }
    const wait = rule.retryAfterSeconds;
    if (wait !== undefined && (!Number.isInteger(wait) || wait < 0)) {
      throw new Error(`retryAfterSeconds must be a whole number of seconds >= 0, got ${String(wait)}`);
    }
    this.rules.push({ ...rule, verb: rule.verb ?? '*', resource: rule.resource ?? '*', count });
  }

  /** Put a pod's container in CrashLoopBackOff, with the kubelet's BackOff event; returns the pod. */
  crashLoop(target: CrashLoopTarget): JsonObject {
    const pod = this.store.get('pods', target.namespace, target.pod);
    const spec = isObject(pod.spec) ? pod.spec : {};
    const containers = Array.isArray(spec.containers) ? spec.containers.filter(isObject) : [];
    const container = target.container ?? String(containers[0]?.name ?? '');
    if (!containers.some((c) => c.name === container)) {
      throw new Error(`pod ${target.namespace}/${target.pod} has no container "${container}" (it has ` +
        `${containers.map((c) => String(c.name)).join(', ')})`);
    }
    const status = structuredClone(isObject(pod.status) ? pod.status : {});
    const now = nowTimestamp();
    const uid = String(metadata(pod).uid);
    const old =
      (Array.isArray(status.containerStatuses) ? status.containerStatuses.filter(isObject) : []).find(
        (s) => s.name === container,
      ) ?? {};
    const restarts = Number(old.restartCount ?? 0) + 1;
    const crashed: JsonObject = {
      ...old, name: container, ready: false, started: false, restartCount: restarts,
      image: old.image ?? containers.find((c) => c.name === container)?.image,
      state: { waiting: { reason: 'CrashLoopBackOff',
        message: `back-off 10s restarting failed container=${container} ` +
          `pod=${target.pod}_${target.namespace}(${uid})` } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: now, finishedAt: now } },
    };
    const others = (Array.isArray(status.containerStatuses) ? status.containerStatuses.filter(isObject) : []).filter(
      (s) => s.name !== container,
    );
    status.containerStatuses = [...others, crashed];
    status.phase = 'Running';
    const why = `containers with unready status: [${container}]`;
    let conditions = asConditions(asList(status.conditions));
    for (const type of ['Ready', 'ContainersReady']) {
      conditions = setCondition(conditions, { type, status: 'False', reason: 'ContainersNotReady', message: why });
    }
    status.conditions = conditions;
    const updated = this.store.updateStatus('pods', { ...structuredClone(pod), status }, { fieldManager: 'kubelet' });
    recordEvent(this.store, subjectOf(pod, `spec.containers{${container}}`), 'Warning', 'BackOff',
      `Back-off restarting failed container ${container} in pod ${target.pod}_${target.namespace}(${uid})`, 'kubelet');
    return updated;
  }

  /** Disarm everything (latency and pending failures; crash-looping pods stay as they are). */
  clear(): void {
    this.latency = 0;
    this.rules = [];
  }

  snapshot(): FaultSnapshot {
    return { latencyMs: this.latency, failures: this.rules.map((r) => ({ ...r })) };
  }
}
