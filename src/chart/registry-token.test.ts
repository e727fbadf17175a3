import { describe, expect, it } from 'vitest';
import { nextLink } from './registry-client.js';
import { bearerChallenge } from './registry-token.js';

describe('bearerChallenge', () => {
  it.each([
    [
      'Bearer realm="https://auth.example.com/token",service="registry.example.com",scope="repository:charts/agent:pull"',
      { realm: 'https://auth.example.com/token', service: 'registry.example.com', scope: 'repository:charts/agent:pull' },
    ],
    ['bearer realm="https://a/t"', { realm: 'https://a/t', service: undefined, scope: undefined }],
    ['Bearer realm=https://a/t, service=reg', { realm: 'https://a/t', service: 'reg', scope: undefined }],
    [
      'Bearer realm="https://a/t",scope="repository:x:pull,push",error="insufficient_scope"',
      { realm: 'https://a/t', service: undefined, scope: 'repository:x:pull,push' },
    ],
    ['Bearer service="s", realm="https://a/\\"q\\""', { realm: 'https://a/"q"', service: 's', scope: undefined }],
  ])('reads %s', (header, expected) => {
    expect(bearerChallenge(header)).toEqual(expected);
  });

  it.each(['', 'Basic realm="registry"', 'Bearer service="s"', 'Bearer realm=""', 'Bearerrealm="x"'])(
    'finds no bearer realm in %j',
    (header) => {
      expect(bearerChallenge(header)).toBeUndefined();
    },
  );
});

describe('nextLink', () => {
  const current = 'http://127.0.0.1:5000/v2/charts/agent/tags/list?n=2';
  it.each([
    ['</v2/charts/agent/tags/list?last=b&n=2>; rel="next"', 'http://127.0.0.1:5000/v2/charts/agent/tags/list?last=b&n=2'],
    ['<http://127.0.0.1:5000/v2/x?last=b>; rel=next', 'http://127.0.0.1:5000/v2/x?last=b'],
    ['</prev>; rel="prev", </next>; rel="next"', 'http://127.0.0.1:5000/next'],
    [null, undefined],
    ['</v2/x>; rel="prev"', undefined],
    ['<https://elsewhere.example.com/v2/x>; rel="next"', undefined],
  ])('%s gives %s', (header, expected) => {
    expect(nextLink(header, current)).toBe(expected);
  });
});
