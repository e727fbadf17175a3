/**
 * The defaults the API server fills into workloads on decode (apps/v1 and core/v1 `SetDefaults_*`), so
 * a Deployment reads back as on a cluster: strategy, revisionHistoryLimit, progressDeadlineSeconds and
 * replicas; the pod spec's restart, DNS, grace period, scheduler and securityContext; each container's
 * termination message, imagePullPolicy (by tag) and port protocol. Only absent fields are filled;
 * admission plugins' additions are not simulated.
 */
import { child, isObject, type JsonObject } from '../api/json.js';

function fill(target: JsonObject, key: string, value: unknown): void {
  if (target[key] === undefined) target[key] = value;
}

/** Go's default pull policy: Always when the image's tag is `latest` (or absent), IfNotPresent otherwise. */
export function defaultPullPolicy(image: string): string {
  if (image.includes('@')) return 'IfNotPresent';
  const lastPart = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastPart.lastIndexOf(':');
  const tag = colon >= 0 ? lastPart.slice(colon + 1) : 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainers(list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const container of list) {
    if (!isObject(container)) continue;
    fill(container, 'terminationMessagePath', '/dev/termination-log');
    fill(container, 'terminationMessagePolicy', 'File');
    if (typeof container.image === 'string' && container.image) {
      fill(container, 'imagePullPolicy', defaultPullPolicy(container.image));
    }
    if (Array.isArray(container.ports)) {
      for (const port of container.ports) if (isObject(port)) fill(port, 'protocol', 'TCP');
    }
  }
}

/** SetDefaults_PodSpec and its containers. */
export function defaultPodSpec(spec: JsonObject): void {
  fill(spec, 'restartPolicy', 'Always');
  fill(spec, 'terminationGracePeriodSeconds', 30);
  fill(spec, 'dnsPolicy', 'ClusterFirst');
  fill(spec, 'securityContext', {});
  fill(spec, 'schedulerName', 'default-scheduler');
  defaultContainers(spec.containers);
  defaultContainers(spec.initContainers);
}

function defaultTemplate(spec: JsonObject): void {
  if (isObject(spec.template)) defaultPodSpec(child(spec.template, 'spec'));
}

/** A Pod's defaults. */
export function defaultPod(pod: JsonObject): void {
  if (isObject(pod.spec)) defaultPodSpec(pod.spec);
}

/** A ReplicaSet's defaults. */
export function defaultReplicaSet(rs: JsonObject): void {
  if (!isObject(rs.spec)) return;
  fill(rs.spec, 'replicas', 1);
  defaultTemplate(rs.spec);
}

/** A Deployment's defaults. */
export function defaultDeployment(deployment: JsonObject): void {
  if (!isObject(deployment.spec)) return;
  const spec = deployment.spec;
  fill(spec, 'replicas', 1);
  const strategy = child(spec, 'strategy');
  fill(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate');
    fill(rolling, 'maxUnavailable', '25%');
    fill(rolling, 'maxSurge', '25%');
  }
  fill(spec, 'revisionHistoryLimit', 10);
  fill(spec, 'progressDeadlineSeconds', 600);
  defaultTemplate(spec);
}
