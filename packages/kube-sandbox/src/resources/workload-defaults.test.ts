import { describe, expect, it } from 'vitest';
import { defaultDeployment, defaultPod, defaultPullPolicy } from './workload-defaults.js';

describe('workload defaults', () => {
  it.each([
    ['nginx', 'Always'], ['nginx:latest', 'Always'], ['registry.local:5000/app', 'Always'],
    ['nginx:1.27', 'IfNotPresent'], ['registry.local:5000/app:v2', 'IfNotPresent'], ['app@sha256:abc', 'IfNotPresent'],
  ])('pulls %s with policy %s, as Go defaults it from the tag', (image, policy) => {
    expect(defaultPullPolicy(image)).toBe(policy);
  });

  it('fills a bare Deployment as the API server defaults apps/v1', () => {
    const deployment: Record<string, any> = { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1', ports: [{ containerPort: 80 }] }] } } } };
    defaultDeployment(deployment);
    expect(deployment.spec).toEqual({
      replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      template: {
        spec: {
          restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler',
          containers: [{
            name: 'c', image: 'nginx:1', ports: [{ containerPort: 80, protocol: 'TCP' }], imagePullPolicy: 'IfNotPresent',
            terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File',
          }],
        },
      },
    });
  });

  it('keeps what the client set, and gives a Recreate strategy no rollingUpdate', () => {
    const deployment: Record<string, any> = { spec: { replicas: 0, revisionHistoryLimit: 2, strategy: { type: 'Recreate' } } };
    defaultDeployment(deployment);
    expect(deployment.spec).toEqual({ replicas: 0, revisionHistoryLimit: 2, progressDeadlineSeconds: 600, strategy: { type: 'Recreate' } });
    const pod: Record<string, any> = { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', imagePullPolicy: 'Never' }] } };
    defaultPod(pod);
    expect(pod.spec.restartPolicy).toBe('Never');
    expect(pod.spec.containers[0].imagePullPolicy).toBe('Never');
  });
});
