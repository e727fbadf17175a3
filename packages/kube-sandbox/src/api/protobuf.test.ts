import { describe, expect, it } from 'vitest';
import { decodeKubeProtobuf } from './protobuf-kinds.js';
import { decodeMessage, KUBE_PROTOBUF_MAGIC, openEnvelope, ProtobufError, type ProtoMessage } from './protobuf.js';

/** A minimal encoder, enough to write what kubectl's typed clients send. */
const varint = (n: bigint | number): number[] => {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return out;
};
const bytesField = (field: number, data: Uint8Array | number[]): number[] => [
  ...varint((field << 3) | 2), ...varint(data.length), ...data,
];
const strField = (field: number, value: string): number[] => bytesField(field, [...Buffer.from(value)]);
const intField = (field: number, value: number | bigint): number[] => [...varint(field << 3), ...varint(value)];
const mapEntry = (field: number, key: string, value: string): number[] =>
  bytesField(field, [...strField(1, key), ...strField(2, value)]);
const envelope = (apiVersion: string, kind: string, raw: number[]): Uint8Array =>
  Uint8Array.from([
    ...KUBE_PROTOBUF_MAGIC, ...bytesField(1, [...strField(1, apiVersion), ...strField(2, kind)]), ...bytesField(2, raw),
  ]);

const SCHEMA: ProtoMessage = {
  fields: {
    1: { name: 'name', type: 'string' },
    2: { name: 'tags', type: 'string', repeated: true },
    3: { name: 'labels', type: { map: 'string' } },
    4: { name: 'count', type: 'int' },
    5: { name: 'on', type: 'bool' },
    6: { name: 'when', type: 'time' },
    7: { name: 'blob', type: 'bytes' },
  },
};

describe('decodeMessage', () => {
  it('reads strings, repeated fields, maps, integers, booleans, bytes and times', () => {
    const bytes = Uint8Array.from([
      ...strField(1, 'x'), ...strField(2, 'a'), ...strField(2, ''), ...mapEntry(3, 'k', 'v'), ...mapEntry(3, 'e', ''),
      ...intField(4, -5), ...intField(5, 1), ...bytesField(6, intField(1, 1_700_000_000)),
      ...bytesField(7, [0xff, 0x00]),
    ]);
    expect(decodeMessage(bytes, SCHEMA)).toEqual({
      name: 'x', tags: ['a', ''], labels: { k: 'v', e: '' }, count: -5, on: true, when: '2023-11-14T22:13:20Z', blob: '/wA=',
    });
  });

  it('leaves out empty strings, zero numbers and Go zero times, as the JSON form omits them', () => {
    const bytes = Uint8Array.from([...strField(1, ''), ...intField(4, 0), ...bytesField(6, []), ...intField(5, 0)]);
    expect(decodeMessage(bytes, SCHEMA)).toEqual({ on: false });
  });

  it('skips fields it has no schema for, of every wire type', () => {
    const fixed64 = [...varint((20 << 3) | 1), 1, 2, 3, 4, 5, 6, 7, 8];
    const fixed32 = [...varint((21 << 3) | 5), 1, 2, 3, 4];
    const bytes = Uint8Array.from([...intField(19, 7), ...fixed64, ...fixed32, ...strField(22, 'ignored'), ...strField(1, 'kept')]);
    expect(decodeMessage(bytes, SCHEMA)).toEqual({ name: 'kept' });
  });

  it.each([
    ['a truncated varint', [0x08, 0x80]],
    ['a length past the end', [0x0a, 0x05, 0x61]],
    ['a deprecated group wire type', [0x0b]],
    ['field number 0', [0x00, 0x01]],
    ['a varint where a string belongs', [0x08, 0x01]],
    ['invalid UTF-8', [0x0a, 0x01, 0xff]],
  ])('refuses %s with a ProtobufError', (_name, bytes) => {
    expect(() => decodeMessage(Uint8Array.from(bytes), SCHEMA)).toThrow(ProtobufError);
  });

  it('refuses messages nested deeper than it will follow', () => {
    const nested: ProtoMessage = { fields: {} };
    (nested.fields as Record<number, unknown>)[1] = { name: 'child', type: nested };
    let bytes: number[] = [];
    for (let i = 0; i < 40; i += 1) bytes = bytesField(1, bytes);
    expect(() => decodeMessage(Uint8Array.from(bytes), nested)).toThrow(/nested deeper/);
  });
});

describe('openEnvelope', () => {
  it('needs the k8s\\0 prefix', () => {
    expect(() => openEnvelope(Uint8Array.from([0x7b, 0x7d]))).toThrow(/prefix/);
  });
});

describe('decodeKubeProtobuf', () => {
  it('decodes a ConfigMap as kubectl create configmap sends it', () => {
    const meta = [...strField(1, 'settings'), ...strField(2, ''), ...strField(3, 'team-a'), ...mapEntry(11, 'app', 'web'), ...bytesField(8, [])];
    const body = envelope('v1', 'ConfigMap', [...bytesField(1, meta), ...mapEntry(2, 'mode', 'fast')]);
    expect(decodeKubeProtobuf(body)).toEqual({
      object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'team-a', labels: { app: 'web' } }, data: { mode: 'fast' } },
    });
  });

  it('decodes a SelfSubjectAccessReview as kubectl auth can-i sends it', () => {
    const attributes = [...strField(1, 'kagent'), ...strField(2, 'create'), ...strField(3, 'helm.toolkit.fluxcd.io'), ...strField(5, 'helmreleases')];
    const body = envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', [...bytesField(1, []), ...bytesField(2, bytesField(1, attributes)), ...bytesField(3, [])]);
    expect(decodeKubeProtobuf(body)).toEqual({
      object: {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {},
        spec: { resourceAttributes: { namespace: 'kagent', verb: 'create', group: 'helm.toolkit.fluxcd.io', resource: 'helmreleases' } },
      },
    });
  });

  it('names the kind it has no message for', () => {
    expect(decodeKubeProtobuf(envelope('apps/v1', 'StatefulSet', []))).toEqual({ unsupported: 'apps/v1/StatefulSet' });
  });

  it('refuses an envelope that names no kind', () => {
    expect(() => decodeKubeProtobuf(Uint8Array.from(KUBE_PROTOBUF_MAGIC))).toThrow(/names no apiVersion and kind/);
  });
});
