/**
 * A stand-in for the kubelet of one node (`sandbox-node`): a pod that is still Pending
 * and has no container statuses is started — init containers completed, containers
 * running and ready, the pod conditions True, a pod IP assigned. Pods that already run
 * are left alone, so a pod a test put in CrashLoopBackOff stays there. A pod being deleted
 * gracefully is stopped at once and deleted with grace period 0, which removes it.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { asList, isObject, nowTimestamp, type JsonObject } from '../api/json.js';
import { Controller, metadata, type ControllerContext } from './work-loop.js';
import { writeStatus } from './status-helpers.js';

const MANAGER = 'kubelet';

/** The node the sandbox's pods run on. */
export const NODE_NAME = 'sandbox-node';
const NODE_IP = '10.0.0.10';

const containersOf = (spec: JsonObject, key: string): JsonObject[] =>
  asList(spec[key]).filter(isObject);

const imageId = (image: string): string => `${image.split('@')[0]}@sha256:${randomBytes(32).toString('hex')}`;

/** The status of a pod whose containers all started. */
export function runningPodStatus(pod: JsonObject): JsonObject {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const now = nowTimestamp();
  const podIP = `10.244.${randomInt(1, 255)}.${randomInt(2, 255)}`;
  const running = (c: JsonObject) => ({
    name: c.name, image: c.image, imageID: imageId(String(c.image ?? '')),
    containerID: `containerd://${randomBytes(32).toString('hex')}`,
    ready: true, started: true, restartCount: 0, state: { running: { startedAt: now } },
  });
  const completed = (c: JsonObject) => ({
    name: c.name, image: c.image, imageID: imageId(String(c.image ?? '')),
    containerID: `containerd://${randomBytes(32).toString('hex')}`,
    ready: true, started: false, restartCount: 0,
    state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: now, finishedAt: now } },
  });
  const requests = containersOf(spec, 'containers').some((c) =>
    isObject(c.resources) && Object.keys(c.resources).length > 0);
  const init = containersOf(spec, 'initContainers');
  return {
    phase: 'Running',
    conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']
      .map((type) => ({ type, status: 'True', lastTransitionTime: now })),
    hostIP: NODE_IP, hostIPs: [{ ip: NODE_IP }], podIP, podIPs: [{ ip: podIP }], startTime: now,
    ...(init.length > 0 ? { initContainerStatuses: init.map(completed) } : {}),
    containerStatuses: containersOf(spec, 'containers').map(running),
    qosClass: requests ? 'Burstable' : 'BestEffort',
  };
}

function reconcilePod(ctx: ControllerContext, namespace: string, name: string): void {
  const pod = ctx.store.find('pods', namespace, name);
  if (!pod) return;
  const meta = metadata(pod);
  if (meta.deletionTimestamp) {
    if (typeof meta.deletionGracePeriodSeconds === 'number' && meta.deletionGracePeriodSeconds > 0) {
      ctx.store.delete('pods', namespace, name, { fieldManager: MANAGER, gracePeriodSeconds: 0 });
    }
    return;
  }
  const status = isObject(pod.status) ? pod.status : {};
  if (status.phase !== 'Pending' || Array.isArray(status.containerStatuses)) return;
  writeStatus(ctx.store, 'pods', pod, runningPodStatus(pod), MANAGER);
}

/** Start the kubelet: pending pods start after the configured delay. */
export function startKubelet(ctx: ControllerContext): Controller {
  return new Controller(MANAGER, ctx, (ns, name) => reconcilePod(ctx, ns, name)).watch('pods').resync('pods');
}
