/**
 * The protobuf request bodies kubectl's typed clients post (`application/vnd.kubernetes.protobuf`: magic
 * `k8s\0`, then a `runtime.Unknown` whose `raw` is the kind's proto2 message): the wire format and a
 * schema-driven decoder; the kinds' schemas are in protobuf-kinds.ts.
 * Trust boundary: the bytes are the client's, so every read is bounds-checked, nesting is limited, unknown
 * fields are skipped by wire type (as proto2 does) and malformed input is a `ProtobufError` answered 400.
 */
import { asObject, isObject, stringOr } from './json.js';

/** A malformed protobuf body. */
export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
}

/** How a field is decoded. `time` is metav1.Time (seconds, nanos) → RFC 3339. */
export type ProtoType = 'string' | 'bytes' | 'bool' | 'int' | 'time' | ProtoMessage
  | { readonly map: 'string' | 'bytes' };

export interface ProtoField {
  readonly name: string;
  readonly type: ProtoType;
  readonly repeated?: boolean;
  /** A pointer (`*int32`): sent only when set, so a zero is the client's value, not an empty one. */
  readonly pointer?: boolean;
}

/** A message: its fields by number. */
export interface ProtoMessage {
  readonly fields: Readonly<Record<number, ProtoField>>;
}

const MAX_DEPTH = 32;

/** A bounds-checked cursor over a byte buffer. */
class Reader {
  pos = 0;
  constructor(private readonly buf: Uint8Array, private readonly end = buf.length) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint');
      const byte = this.buf[this.pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
    throw new ProtobufError('varint longer than 10 bytes');
  }

  bytes(): Uint8Array {
    const length = Number(this.varint());
    if (length < 0 || this.pos + length > this.end) {
      throw new ProtobufError('length-delimited field runs past the end of its message');
    }
    const out = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 2) this.bytes();
    else if (wireType === 1 || wireType === 5) {
      const size = wireType === 1 ? 8 : 4;
      if (this.pos + size > this.end) throw new ProtobufError('truncated fixed-width field');
      this.pos += size;
    } else throw new ProtobufError(`unsupported wire type ${wireType}`);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function text(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ProtobufError('a string field is not valid UTF-8');
  }
}

function time(bytes: Uint8Array): string | undefined {
  const value = decodeMessage(bytes, { fields: { 1: { name: 'seconds', type: 'int' },
    2: { name: 'nanos', type: 'int' } } }, 0);
  const seconds = typeof value.seconds === 'number' ? value.seconds : 0;
  // Go's zero time is marshalled as an empty message; anything before 1970 is treated the same.
  if (seconds <= 0) return undefined;
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function mapEntry(bytes: Uint8Array, valueType: 'string' | 'bytes'): [string, string] {
  const entry = decodeMessage(bytes, { fields: { 1: { name: 'key', type: 'string' },
    2: { name: 'value', type: valueType } } }, 0);
  return [String(entry.key ?? ''), String(entry.value ?? '')];
}

function scalar(type: ProtoType, reader: Reader, wireType: number, depth: number): unknown {
  if (type === 'bool' || type === 'int') {
    if (wireType !== 0) throw new ProtobufError(`wire type ${wireType} where a varint was expected`);
    const raw = BigInt.asIntN(64, reader.varint());
    return type === 'bool' ? raw !== 0n : Number(raw);
  }
  const bytes = lengthDelimited(reader, wireType);
  if (type === 'string') return text(bytes);
  // []byte fields are base64 in JSON, as the real server serialises them.
  if (type === 'bytes') return Buffer.from(bytes).toString('base64');
  if (type === 'time') return time(bytes);
  if ('map' in type) return mapEntry(bytes, type.map);
  return decodeMessage(bytes, type, depth + 1);
}

function lengthDelimited(reader: Reader, wireType: number): Uint8Array {
  if (wireType !== 2) throw new ProtobufError(`wire type ${wireType} where a length-delimited field was expected`);
  return reader.bytes();
}

/** Decode one message into plain JSON by its schema; unknown fields are skipped. */
export function decodeMessage(bytes: Uint8Array, schema: ProtoMessage, depth = 0): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw new ProtobufError(`messages nested deeper than ${MAX_DEPTH}`);
  const reader = new Reader(bytes);
  const out: Record<string, unknown> = {};
  while (!reader.done) {
    const key = Number(reader.varint());
    const number = key >>> 3;
    const wireType = key & 7;
    if (number === 0) throw new ProtobufError('field number 0');
    const field = schema.fields[number];
    if (!field) {
      reader.skip(wireType);
      continue;
    }
    if (typeof field.type === 'object' && 'map' in field.type) {
      const [k, v] = mapEntry(lengthDelimited(reader, wireType), field.type.map);
      const map = out[field.name];
      if (isObject(map)) map[k] = v;
      else out[field.name] = { [k]: v };
      continue;
    }
    const value = scalar(field.type, reader, wireType, depth);
    if (field.repeated) {
      const list = out[field.name];
      if (Array.isArray(list)) list.push(value);
      else out[field.name] = [value];
    } else if (value !== undefined && value !== '' && !(field.type === 'int' && value === 0 && !field.pointer)) {
      // proto2 as gogo writes it sends every non-pointer scalar, empty or not; the JSON
      // form (`omitempty`) leaves empty strings and zero numbers out, so do we.
      out[field.name] = value;
    }
  }
  return out;
}

/** The 4 bytes every Kubernetes protobuf body starts with. */
export const KUBE_PROTOBUF_MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

const UNKNOWN: ProtoMessage = {
  fields: {
    1: { name: 'typeMeta', type: { fields: { 1: { name: 'apiVersion', type: 'string' },
      2: { name: 'kind', type: 'string' } } } },
    2: { name: 'raw', type: 'bytes' },
    3: { name: 'contentEncoding', type: 'string' },
  },
};

/** The envelope of a Kubernetes protobuf body: apiVersion, kind and the object's own bytes. */
export interface KubeEnvelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
}

/** Open the `k8s\0` + runtime.Unknown envelope. */
export function openEnvelope(body: Uint8Array): KubeEnvelope {
  if (body.length < 4 || KUBE_PROTOBUF_MAGIC.some((b, i) => body[i] !== b)) {
    throw new ProtobufError('the body does not start with the Kubernetes protobuf prefix "k8s\\0"');
  }
  const unknown = decodeMessage(body.subarray(4), UNKNOWN);
  if (unknown.contentEncoding) {
    throw new ProtobufError(`content encoding ${JSON.stringify(unknown.contentEncoding)} is not supported`);
  }
  const typeMeta = asObject(unknown.typeMeta);
  const raw = Buffer.from(typeof unknown.raw === 'string' ? unknown.raw : '', 'base64');
  return { apiVersion: stringOr(typeMeta.apiVersion, ''), kind: stringOr(typeMeta.kind, ''), raw };
}
