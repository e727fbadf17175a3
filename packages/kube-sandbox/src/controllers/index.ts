/**
 * The simulated controllers of a platform cluster, started together over one sandbox
 * store: Flux's source-controller and helm-controller, kagent's controller, and the
 * Deployment/ReplicaSet controllers, garbage collector and kubelet that run an agent's
 * pods. With the default delay a new HelmRelease becomes a Ready Agent with an
 * available Deployment in well under a second; tests may shorten the delay.
 */
import type { SandboxStore } from '../ops/sandbox-store.js';
import type { Controller, ControllerLog } from './controller.js';
import { startGarbageCollector } from './garbage-collector.js';
import { startHelmController } from './helm-controller.js';
import { startKagentController } from './kagent-controller.js';
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

/** Running controllers. */
export interface RunningControllers {
  readonly names: readonly string[];
  stop(): void;
}

/** Start every simulated controller. */
export function startControllers(store: SandboxStore, options: ControllerOptions = {}): RunningControllers {
  const ctx = { store, delayMs: options.reconcileDelayMs ?? DEFAULT_RECONCILE_DELAY_MS, log: options.log };
  const controllers: Controller[] = [
    startSourceController(ctx),
    startHelmController(ctx),
    ...startKagentController(ctx),
    ...startWorkloadControllers(ctx),
    startGarbageCollector(ctx),
    startKubelet(ctx),
  ];
  return {
    names: controllers.map((c) => c.name),
    stop: () => {
      for (const controller of controllers) controller.stop();
    },
  };
}
