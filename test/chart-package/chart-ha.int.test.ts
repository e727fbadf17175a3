/**
 * The chart's availability defaults and knobs, rendered: two replicas, a
 * PodDisruptionBudget, the optional HorizontalPodAutoscaler, topology spread over nodes
 * and zones, the revision history, the priority class, a grace period and preStop that
 * match the server's own shutdown delay and drain, and the extra env, volumes and mounts.
 */
import { describe, expect, it } from 'vitest';
import { one } from './helm.js';
import { container, failure, NS, parsedServe, podEnv, podSpec, render, schemaErrors } from './render-values.js';

const selector = { 'app.kubernetes.io/name': 'agent-manager', 'app.kubernetes.io/instance': 'agent-manager' };
const deployment = (values: Record<string, unknown> = {}) => (one(render(values), 'Deployment') as any).spec;

describe('replicas and revisions', () => {
  it('runs two replicas and keeps three old ReplicaSets by default', () => {
    expect(deployment()).toMatchObject({ replicas: 2, revisionHistoryLimit: 3 });
  });

  it('takes replicaCount and revisionHistoryLimit from the values', () => {
    expect(deployment({ replicaCount: 5, revisionHistoryLimit: 0 })).toMatchObject({
      replicas: 5, revisionHistoryLimit: 0,
    });
  });
});

describe('the PodDisruptionBudget', () => {
  it('lets a drain take one pod at a time by default, selecting the Deployment\'s pods', () => {
    const pdb = one(render(), 'PodDisruptionBudget') as any;
    expect(pdb.apiVersion).toBe('policy/v1');
    expect(pdb.metadata).toMatchObject({ name: 'agent-manager', namespace: NS });
    expect(pdb.spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: selector } });
    expect((one(render(), 'Deployment') as any).spec.selector.matchLabels).toEqual(selector);
  });

  it('takes minAvailable instead, as a number or a percentage', () => {
    const spec = (one(render({ podDisruptionBudget: { minAvailable: '50%', maxUnavailable: null } }), 'PodDisruptionBudget') as any).spec;
    expect(spec).toEqual({ minAvailable: '50%', selector: { matchLabels: selector } });
  });

  it('is left out with podDisruptionBudget.enabled false', () => {
    expect(render({ podDisruptionBudget: { enabled: false } }).manifests.filter((m) => m.kind === 'PodDisruptionBudget')).toEqual([]);
  });

  it.each([
    ['both bounds', { minAvailable: 1, maxUnavailable: 1 }, 'set minAvailable or maxUnavailable, not both'],
    ['neither bound', { minAvailable: null, maxUnavailable: null }, 'set minAvailable or maxUnavailable'],
  ])('refuses %s', (_case, pdb, message) => {
    expect(failure({ podDisruptionBudget: pdb })).toContain(message);
  });

  it('refuses a bound that is neither a count nor a percentage in the schema', () => {
    expect(schemaErrors({ podDisruptionBudget: { maxUnavailable: 'one' } }).join('\n')).toContain("at '/podDisruptionBudget/maxUnavailable': 'one' does not match pattern");
  });
});

describe('the HorizontalPodAutoscaler', () => {
  it('is off by default', () => {
    expect(render().manifests.filter((m) => m.kind === 'HorizontalPodAutoscaler')).toEqual([]);
  });

  it('scales the Deployment on CPU utilisation (autoscaling/v2), and the Deployment leaves replicas to it', () => {
    const rendered = render({
      autoscaling: {
        enabled: true, minReplicas: 3, maxReplicas: 10, targetCPUUtilizationPercentage: 60,
        behavior: { scaleDown: { stabilizationWindowSeconds: 600 } },
      },
    });
    const hpa = one(rendered, 'HorizontalPodAutoscaler') as any;
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'agent-manager' },
      minReplicas: 3,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }],
      behavior: { scaleDown: { stabilizationWindowSeconds: 600 } },
    });
    expect((one(rendered, 'Deployment') as any).spec).not.toHaveProperty('replicas');
  });

  it.each([
    ['more minimum than maximum replicas', { autoscaling: { enabled: true, minReplicas: 5, maxReplicas: 2 } }, 'autoscaling.minReplicas (5) must not exceed autoscaling.maxReplicas (2)'],
    ['no CPU request to measure against', { autoscaling: { enabled: true }, resources: { requests: { cpu: null } } }, 'autoscaling.enabled needs resources.requests.cpu'],
  ])('refuses %s', (_case, values, message) => {
    expect(failure(values)).toContain(message);
  });
});

describe('topology spread', () => {
  it('spreads the pods across nodes and zones by default, softly, counted per ReplicaSet', () => {
    const constraint = (topologyKey: string) => ({
      topologyKey, maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway',
      labelSelector: { matchLabels: selector }, matchLabelKeys: ['pod-template-hash'],
    });
    expect(podSpec(render()).topologySpreadConstraints).toEqual([constraint('kubernetes.io/hostname'), constraint('topology.kubernetes.io/zone')]);
  });

  it('makes it a hard rule with DoNotSchedule, and appends further constraints as written', () => {
    const extra = { topologyKey: 'example.io/rack', maxSkew: 2, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { a: 'b' } } };
    const constraints = podSpec(render({ topologySpread: { whenUnsatisfiable: 'DoNotSchedule', maxSkew: 2 }, topologySpreadConstraints: [extra] })).topologySpreadConstraints;
    expect(constraints.map((c: any) => [c.topologyKey, c.maxSkew, c.whenUnsatisfiable])).toEqual([
      ['kubernetes.io/hostname', 2, 'DoNotSchedule'], ['topology.kubernetes.io/zone', 2, 'DoNotSchedule'], ['example.io/rack', 2, 'DoNotSchedule'],
    ]);
    expect(constraints[2]).toEqual(extra);
  });

  it('renders only the given constraints with topologySpread.enabled false, and none without any', () => {
    const extra = { topologyKey: 'kubernetes.io/hostname', maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' };
    expect(
      podSpec(render({ topologySpread: { enabled: false }, topologySpreadConstraints: [extra] }))
        .topologySpreadConstraints,
    ).toEqual([extra]);
    expect(podSpec(render({ topologySpread: { enabled: false } }))).not.toHaveProperty('topologySpreadConstraints');
  });

  it('refuses an unknown whenUnsatisfiable in the schema', () => {
    expect(schemaErrors({ topologySpread: { whenUnsatisfiable: 'Never' } }).join('\n')).toContain("at '/topologySpread/whenUnsatisfiable': value must be one of 'ScheduleAnyway', 'DoNotSchedule'");
  });
});

describe('priority, grace period and shutdown', () => {
  it('has no priority class by default and the one named otherwise', () => {
    expect(podSpec(render())).not.toHaveProperty('priorityClassName');
    expect(podSpec(render({ priorityClassName: 'platform-critical' })).priorityClassName).toBe('platform-critical');
  });

  it('passes the shutdown delay and drain to the server, within a 30 s grace period and without a preStop hook', () => {
    const rendered = render();
    expect(podSpec(rendered).terminationGracePeriodSeconds).toBe(30);
    expect(container(rendered)).not.toHaveProperty('lifecycle');
    expect(parsedServe(rendered).shutdown).toEqual({ delay: { text: '5s', ms: 5_000 }, timeout: { text: '15s', ms: 15_000 } });
  });

  it('sleeps in a preStop hook when asked, and takes delay, drain and grace period from the values', () => {
    const rendered = render({
      shutdown: { delaySeconds: 10, drainSeconds: 40, preStopSleepSeconds: 5 }, terminationGracePeriodSeconds: 60,
    });
    expect(container(rendered).lifecycle).toEqual({ preStop: { exec: { command: ['sleep', '5'] } } });
    expect(podSpec(rendered).terminationGracePeriodSeconds).toBe(60);
    expect(parsedServe(rendered).shutdown).toEqual({ delay: { text: '10s', ms: 10_000 }, timeout: { text: '40s', ms: 40_000 } });
  });

  it('refuses a grace period shorter than preStop, delay and drain together', () => {
    expect(failure({ shutdown: { delaySeconds: 10, drainSeconds: 20, preStopSleepSeconds: 5 } }))
      .toBe('terminationGracePeriodSeconds (30) must cover shutdown.preStopSleepSeconds + shutdown.delaySeconds + shutdown.drainSeconds (35): raise it, or Kubernetes kills the pod while it still drains');
    expect(failure({ terminationGracePeriodSeconds: 19 })).toContain('(20)');
  });
});

describe('extra env, volumes and mounts', () => {
  it('adds them after the chart\'s own', () => {
    const rendered = render({
      extraEnv: [{ name: 'SSL_CERT_FILE', value: '/etc/extra-ca/ca.crt' }, { name: 'FROM_SECRET', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
      extraVolumes: [{ name: 'extra-ca', secret: { secretName: 'corporate-ca' } }],
      extraVolumeMounts: [{ name: 'extra-ca', mountPath: '/etc/extra-ca', readOnly: true }],
    });
    expect(podEnv(rendered)).toEqual({ SSL_CERT_FILE: '/etc/extra-ca/ca.crt', FROM_SECRET: 's/k' });
    expect(podSpec(rendered).volumes).toEqual([{ name: 'tmp', emptyDir: {} }, { name: 'extra-ca', secret: { secretName: 'corporate-ca' } }]);
    expect(container(rendered).volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }, { name: 'extra-ca', mountPath: '/etc/extra-ca', readOnly: true }]);
  });

  it.each([
    ['a volume without a name', { extraVolumes: [{ emptyDir: {} }] }, "at '/extraVolumes/0': missing property 'name'"],
    ['a mount with a relative path', { extraVolumeMounts: [{ name: 'x', mountPath: 'etc/x' }] }, "at '/extraVolumeMounts/0/mountPath': 'etc/x' does not match pattern"],
    ['a mount with an unknown field', { extraVolumeMounts: [{ name: 'x', mountPath: '/x', readonly: true }] }, "at '/extraVolumeMounts/0': additional properties 'readonly' not allowed"],
  ])('refuses %s in the schema', (_case, values, error) => {
    expect(schemaErrors(values).join('\n')).toContain(error);
  });
});
