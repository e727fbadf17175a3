import { describe, expect, it } from 'vitest';
import { resourceRoute } from './resource-route.js';

const pods = { resource: 'pods', group: '', namespaced: true, verbs: ['get', 'list', 'watch', 'create', 'delete'],
  statusSubresource: true };
const deployments = { ...pods, resource: 'deployments', group: 'apps', scaleSubresource: true };
const namespaces = { ...pods, resource: 'namespaces', namespaced: false };
const request = (over: Partial<{ verb: string; namespace: string; name: string; subresource: string }> = {}) =>
  ({ verb: 'get', namespace: 'team', name: 'web', subresource: '', ...over });

describe('resourceRoute', () => {
  it.each(['log', 'exec', 'attach', 'portforward', 'proxy'])('a pod\'s %s is refused as needing a container', (sub) => {
    expect(resourceRoute(pods, request({ subresource: sub }))).toEqual({ kind: 'container' });
  });

  it('the scale subresource of a kind that has one is served by name', () => {
    expect(resourceRoute(deployments, request({ subresource: 'scale', verb: 'update' }))).toEqual({ kind: 'scale' });
    expect(resourceRoute(pods, request({ subresource: 'scale' }))).toEqual({ kind: 'path-not-found' });
  });

  it('a subresource other than status, or status of a kind without one, has no route', () => {
    expect(resourceRoute(deployments, request({ subresource: 'finalize' }))).toEqual({ kind: 'path-not-found' });
    expect(resourceRoute({ ...pods, statusSubresource: false }, request({ subresource: 'status' })))
      .toEqual({ kind: 'path-not-found' });
  });

  it('a cluster-scoped kind has no route under a namespace', () => {
    expect(resourceRoute(namespaces, request())).toEqual({ kind: 'path-not-found' });
    expect(resourceRoute(namespaces, request({ namespace: '' }))).toEqual({ kind: 'verb', scope: 'main' });
  });

  it('a status write is served in the status scope, and only get, update and patch reach it', () => {
    expect(resourceRoute(pods, request({ subresource: 'status', verb: 'patch' })))
      .toEqual({ kind: 'verb', scope: 'status' });
    expect(resourceRoute(pods, request({ subresource: 'status', verb: 'delete' })))
      .toEqual({ kind: 'method-not-allowed' });
  });

  it('across all namespaces a namespaced kind is only listed or watched', () => {
    const all = request({ namespace: '', name: '' });
    expect(resourceRoute(pods, { ...all, verb: 'watch' })).toEqual({ kind: 'verb', scope: 'main' });
    expect(resourceRoute(pods, { ...all, verb: 'create' })).toEqual({ kind: 'method-not-allowed' });
  });

  it('a verb the kind does not serve is not allowed', () => {
    expect(resourceRoute(pods, request({ verb: 'update' }))).toEqual({ kind: 'method-not-allowed' });
  });
});
