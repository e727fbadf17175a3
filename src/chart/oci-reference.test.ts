import { describe, expect, it } from 'vitest';
import { isLoopbackRegistry, parseOciReference } from './oci-reference.js';

describe('parseOciReference', () => {
  it('splits registry and repository and names the chart after the last segment', () => {
    expect(parseOciReference('oci://gsoci.azurecr.io/charts/giantswarm/agent')).toEqual({
      url: 'oci://gsoci.azurecr.io/charts/giantswarm/agent',
      registry: 'gsoci.azurecr.io',
      repository: 'charts/giantswarm/agent',
      chartName: 'agent',
      baseUrl: 'https://gsoci.azurecr.io',
    });
  });

  it.each([
    ['oci://127.0.0.1:5000/charts/agent', 'http://127.0.0.1:5000'],
    ['oci://127.8.9.10/charts/agent', 'http://127.8.9.10'],
    ['oci://localhost:5000/agent', 'http://localhost:5000'],
    ['oci://[::1]:5000/agent', 'http://[::1]:5000'],
    ['oci://registry.local:5000/agent', 'https://registry.local:5000'],
    ['oci://10.0.0.1:5000/agent', 'https://10.0.0.1:5000'],
    ['oci://127.example.com/agent', 'https://127.example.com'],
    ['oci://localhost.example.com/agent', 'https://localhost.example.com'],
  ])('%s is spoken to at %s (plain http only on loopback)', (url, base) => {
    expect(parseOciReference(url).baseUrl).toBe(base);
  });

  it.each([
    'https://gsoci.azurecr.io/charts/agent',
    'gsoci.azurecr.io/charts/agent',
    'oci://gsoci.azurecr.io',
    'oci://gsoci.azurecr.io/',
    'oci:///charts/agent',
    'oci://gsoci.azurecr.io/charts/agent/',
    'oci://gsoci.azurecr.io/charts/agent:0.5.2',
    'oci://gsoci.azurecr.io/Charts/Agent',
    'oci://user@gsoci.azurecr.io/charts/agent',
    ' oci://gsoci.azurecr.io/charts/agent',
    '',
  ])('refuses %j with the text clients match on', (url) => {
    expect(() => parseOciReference(url)).toThrow(`chart URL ${JSON.stringify(url)} must look like oci://<registry>/<repository>`);
  });
});

describe('isLoopbackRegistry', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.0.0.1:5000', true],
    ['LOCALHOST:1', true],
    ['[::1]:443', true],
    ['128.0.0.1', false],
    ['0.0.0.0:5000', false],
    ['example.com', false],
  ])('%s: %s', (registry, loopback) => {
    expect(isLoopbackRegistry(registry)).toBe(loopback);
  });
});
