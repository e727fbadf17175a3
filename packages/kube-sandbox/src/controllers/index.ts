/**
 * The simulated controllers of a platform cluster, started together over one sandbox
 * store: Flux's source-controller and helm-controller, kagent's controllers (`kagent.dev` and
 * `api.kagent.dev`), and the Deployment/ReplicaSet controllers, garbage collector and kubelet
 * that run a 0.x agent's pods. With the default delay a new HelmRelease becomes a Ready Agent with an
 * available Deployment in well under a second; tests may shorten the delay.
 */
import type { SandboxStore } from '../ops/sandbox-store.js';
import type { Controller, ControllerLog } from './work-loop.js';
import { startGarbageCollector } from './garbage-collector.js';
import { startHelmController } from './helm-controller.js';
import { startKagentController } from './kagent-controller.js';
import { startKagentV2Controller } from './kagent-v2-controller.js';
import { startKubelet } from './kubelet.js';
import { startSourceController } from './source-controller.js';
import { startWorkloadControllers } from './workloads.js';

/** The default wait between a change and its reconcile (ms). */
export const DEFAULT_RECONCILE_DELAY_MS = 100;

export interface ControllerOptions {
  /** Wait between a change and its reconcile (ms); default 100. */
  reconcileDelayMs?: number;
  log?: ControllerLog;
}

/** What a hold keeps back: the named controllers' reconciles (default every controller's), of one object or all. */
export interface HoldScope {
  controllers?: readonly string[];
  namespace?: string;
  /** The reconciled object's name (a HelmRelease's, an Agent's, a pod's). */
  name?: string;
}

/** Running controllers. */
export interface RunningControllers {
  readonly names: readonly string[];
  /**
   * Hold reconciles back until the returned function is called: a test's "not reconciled yet"
   * window that lasts as long as the test needs, without waiting out a reconcile delay.
   */
  hold(scope?: HoldScope): () => void;
  stop(): void;
}

/** Start every simulated controller. */
export function startControllers(store: SandboxStore, options: ControllerOptions = {}): RunningControllers {
  const ctx = { store, delayMs: options.reconcileDelayMs ?? DEFAULT_RECONCILE_DELAY_MS, log: options.log };
  const controllers: Controller[] = [
    startSourceController(ctx),
    startHelmController(ctx),
    ...startKagentController(ctx),
    ...startKagentV2Controller(ctx),
    ...startWorkloadControllers(ctx),
    startGarbageCollector(ctx),
    startKubelet(ctx),
  ];
  const names = controllers.map((c) => c.name);
  return {
    names,
    hold: ({ controllers: held = [], namespace, name } = {}) => {
      const unknown = held.filter((n) => !names.includes(n));
      if (unknown.length > 0) {
        throw new Error(`no controller named ${unknown.join(', ')} (running: ${names.join(', ')})`);
      }
      const selects = (ns: string, n: string): boolean =>
        (namespace === undefined || ns === namespace) && (name === undefined || n === name);
      const releases = controllers.filter((c) => held.length === 0 || held.includes(c.name))
        .map((c) => c.hold(selects));
      return () => {
        for (const release of releases) release();
      };
    },
    stop: () => {
      for (const controller of controllers) controller.stop();
    },
  };
}
