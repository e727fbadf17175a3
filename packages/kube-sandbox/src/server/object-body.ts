/**
 * The bodies of writes as the API server reads them: an object in JSON, YAML or (for the built-in
 * kinds of protobuf-kinds.ts) the protobuf kubectl's typed clients send, and the patch type a
 * PATCH's Content-Type names. Shared by the resource handlers, the scale subresource and the reviews.
 */
import type { IncomingMessage } from 'node:http';
import type { JsonObject } from '../api/json.js';
import { ProtobufError } from '../api/protobuf.js';
import { decodeKubeProtobuf } from '../api/protobuf-kinds.js';
import { statusErrors } from '../api/status.js';
import { PATCH_CONTENT_TYPES, type PatchType } from '../ops/op-options.js';
import { decodeBody, mediaType, readBody, readBodyBytes } from './http-io.js';

const PATCH_TYPE_NAMES: readonly PatchType[] = ['json', 'merge', 'strategic', 'apply'];
const PATCH_TYPES = new Map(PATCH_TYPE_NAMES.map((type) => [PATCH_CONTENT_TYPES[type], type] as const));

/** The patch type a request's Content-Type names, if it names one. */
export function patchTypeOf(req: IncomingMessage): PatchType | undefined {
  return PATCH_TYPES.get(mediaType(req.headers['content-type']));
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/**
 * Decode a create/update body: JSON, YAML, or the protobuf kubectl's typed clients send
 * for the built-in kinds in protobuf-kinds.ts. Protobuf of any other kind is refused with
 * a way forward: write the object as YAML.
 */
export async function objectBody(req: IncomingMessage): Promise<unknown> {
  const type = mediaType(req.headers['content-type']);
  if (type === PROTOBUF) return protobufObject(await readBodyBytes(req));
  if (type !== '' && type !== 'application/json' && type !== 'application/yaml' && type !== '*/*') {
    throw statusErrors.unsupportedMediaType([`application/json, application/yaml (got ${type})`]);
  }
  return decodeBody(await readBody(req), type === 'application/yaml');
}

function protobufObject(body: Buffer): JsonObject {
  let decoded: ReturnType<typeof decodeKubeProtobuf>;
  try {
    decoded = decodeKubeProtobuf(body);
  } catch (err) {
    if (err instanceof ProtobufError) throw statusErrors.badRequest(`error decoding protobuf: ${err.message}`);
    throw err;
  }
  if ('object' in decoded) return decoded.object;
  throw statusErrors.unsupportedMediaType([
    `application/json, application/yaml (got ${PROTOBUF} for ${decoded.unsupported}); the sandbox API ` +
      `server reads protobuf ` +
      'only for namespaces, configmaps, secrets, serviceaccounts, pods, deployments, RBAC objects and access ' +
      'reviews: ' +
      'write the object as YAML and use `kubectl apply -f` or `kubectl create -f`',
  ]);
}
