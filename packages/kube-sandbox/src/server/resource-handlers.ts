/**
 * The resource endpoints: one handler per verb, each a thin translation between HTTP
 * (URL, query, body, Accept and Content-Type) and the operations in ../ops. Responses
 * follow the real server: 201 for creates (and creating applies), the object or a
 * Success Status for deletes, `<Kind>List` bodies with list metadata, and tables when
 * kubectl asks for them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObject, type JsonObject } from '../api/json.js';
import { ProtobufError } from '../api/protobuf.js';
import { decodeKubeProtobuf } from '../api/protobuf-kinds.js';
import { statusErrors, successStatus } from '../api/status.js';
import { createObject } from '../ops/create.js';
import { deleteCollection, deleteObject } from '../ops/delete.js';
import { listObjects, validateWatchOptions } from '../ops/list.js';
import { patchObject } from '../ops/patch.js';
import { PATCH_CONTENT_TYPES, type OpsEnv, type PatchType } from '../ops/op-options.js';
import { patchScale, readScale, writeScale } from '../ops/scale.js';
import { updateObject } from '../ops/update.js';
import { apiVersionOf, groupResource, type ResourceDef } from '../resources/resource-def.js';
import { answerInYaml, decodeBody, listText, mediaType, readBody, readBodyBytes, sendJson,
  sendJsonText } from './http-io.js';
import { negotiate, type Representation } from './negotiate.js';
import { deleteOptions, listOptions, writeOptions } from './query.js';
import { isTrue, type RequestInfo } from './request-info.js';
import { partialObject, toTable, type IncludeObject } from './table.js';
import { serveWatch, type WatchTiming } from './watch-stream.js';

/** Everything a resource handler needs besides the request. */
export interface HandlerEnv {
  readonly env: OpsEnv;
  readonly timing: WatchTiming;
}

const PATCH_TYPES = new Map<string, PatchType>(
  Object.entries(PATCH_CONTENT_TYPES).map(([k, v]) => [v, k as PatchType]),
);

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

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

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

/** Deletes of these answer with the object; others with a Success Status, as the real registries do. */
const returnsDeletedObject = (def: ResourceDef): boolean =>
  def.custom || def.resource === 'pods' || def.resource === 'namespaces';

function includeObject(query: URLSearchParams): IncludeObject {
  const value = query.get('includeObject');
  return value === 'None' || value === 'Object' ? value : 'Metadata';
}

function render(def: ResourceDef, obj: JsonObject, rep: Representation, query: URLSearchParams): unknown {
  if (rep.kind === 'table') {
    return toTable(def, [obj], { resourceVersion: String(isObject(obj.metadata) ? obj.metadata.resourceVersion ?? ''
      : '') }, includeObject(query), rep.version);
  }
  if (rep.kind === 'partial') return partialObject(obj, rep.version);
  return obj;
}

/** Which handler serves a verb, and whether the route allows it. */
function routeAllows(def: ResourceDef, info: RequestInfo): boolean {
  if (info.subresource) return ['get', 'update', 'patch'].includes(info.verb);
  if (def.namespaced && !info.namespace && !info.name) return info.verb === 'list' || info.verb === 'watch';
  return def.verbs.includes(info.verb);
}

/** Pod subresources that need a running container; the sandbox's kubelet runs none. */
const CONTAINER_SUBRESOURCES = new Set(['log', 'exec', 'attach', 'portforward', 'proxy']);

/**
 * `kubectl logs` and `kubectl exec` on a sandbox pod: the pod must exist (404 as usual),
 * and then a 400 that says why there is nothing to read, instead of the bare 404 of an
 * unknown subresource.
 */
function refuseContainerAccess(h: HandlerEnv, def: ResourceDef, info: RequestInfo): never {
  if (!h.env.objects.get(def, info.namespace, info.name)) throw statusErrors.notFound(groupResource(def), info.name);
  const what = info.subresource === 'log' ? 'has no logs' : `cannot be reached (${info.subresource})`;
  throw statusErrors.badRequest(
    `pod "${info.name}" ${what}: the sandbox simulates pods and runs no containers; ` +
      `kubectl describe pod ${info.name} -n ${info.namespace} and kubectl get events -n ${info.namespace} show what ` +
      `the simulated kubelet did`,
  );
}

/** `kubectl scale`: GET, PUT and PATCH of a deployment's or replica set's Scale. */
async function serveScale(
  env: OpsEnv, def: ResourceDef, info: RequestInfo, req: IncomingMessage, res: ServerResponse,
): Promise<void> {
  const { namespace, name, query } = info;
  if (info.verb === 'get') return sendJson(res, 200, readScale(env, def, namespace, name));
  if (info.verb === 'update') {
    const opts = writeOptions(query, req, 'update');
    return sendJson(res, 200, writeScale(env, def, namespace, name, await objectBody(req), opts), opts.warnings);
  }
  if (info.verb === 'patch') {
    const type = PATCH_TYPES.get(mediaType(req.headers['content-type']));
    if (!type) {
      throw statusErrors.unsupportedMediaType([
        PATCH_CONTENT_TYPES.json, PATCH_CONTENT_TYPES.merge, PATCH_CONTENT_TYPES.strategic,
      ]);
    }
    const opts = writeOptions(query, req, 'patch');
    const body = decodeBody(await readBody(req));
    if (body === undefined) throw statusErrors.badRequest('the body of the request was empty; send a patch document');
    return sendJson(res, 200, patchScale(env, def, namespace, name, type, body, opts), opts.warnings);
  }
  throw statusErrors.methodNotAllowed(groupResource(def));
}

/**
 * A GET at a resourceVersion is served "not older than" it, from the current state; one
 * the store has not reached is the watch cache's 504 Too large resource version, as for
 * lists, and one that is no number a 400.
 */
function checkGetVersion(env: OpsEnv, rv: string): void {
  if (rv === '' || rv === '0') return;
  if (!/^\d+$/.test(rv)) throw statusErrors.badRequest(`invalid resource version: ${rv}`);
  if (Number(rv) > env.objects.revision) throw statusErrors.tooLargeResourceVersion(Number(rv), env.objects.revision);
}

/** Serve one resource request already authenticated and authorized. */
export async function handleResource(
  h: HandlerEnv, def: ResourceDef, info: RequestInfo, req: IncomingMessage, res: ServerResponse,
): Promise<void> {
  if (def.resource === 'pods' && !def.group && info.name && CONTAINER_SUBRESOURCES.has(info.subresource)) {
    refuseContainerAccess(h, def, info);
  }
  if (info.subresource === 'scale' && def.scaleSubresource && info.name) return serveScale(h.env, def, info, req, res);
  if (info.subresource && (info.subresource !== 'status' || !def.statusSubresource)) throw statusErrors.pathNotFound();
  // A cluster-scoped kind has no route under a namespace (the API server registers none there).
  if (!def.namespaced && info.namespace) throw statusErrors.pathNotFound();
  if (!routeAllows(def, info)) throw statusErrors.methodNotAllowed(groupResource(def));
  const { env } = h;
  const { query, namespace, name } = info;
  const scope = info.subresource === 'status' ? 'status' : 'main';
  const rep = () => {
    const chosen = negotiate(req.headers.accept, true);
    if (chosen.kind === 'json' && chosen.yaml) {
      // A watch streams JSON only, as the real server's watch encoders do.
      if (info.verb === 'watch') {
        throw statusErrors.notAcceptable(['application/json', 'application/json;stream=watch']);
      }
      answerInYaml(res);
    }
    return chosen;
  };

  switch (info.verb) {
    case 'get': {
      checkGetVersion(env, query.get('resourceVersion') ?? '');
      const obj = env.objects.get(def, namespace, name);
      if (!obj) throw statusErrors.notFound(groupResource(def), name);
      return sendJson(res, 200, render(def, obj, rep(), query));
    }
    case 'list': {
      validateWatchOptions(false, { sendInitialEvents: query.get('sendInitialEvents') ?? undefined });
      const representation = rep();
      const page = listObjects(env, def, listOptions(query, namespace));
      const metadata: JsonObject = { resourceVersion: page.resourceVersion };
      if (page.continue) metadata.continue = page.continue;
      if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
      if (representation.kind === 'table') {
        return sendJson(res, 200, toTable(def, page.items, page, includeObject(query), representation.version));
      }
      if (representation.kind === 'partial') {
        return sendJson(res, 200, { kind: 'PartialObjectMetadataList',
          apiVersion: `meta.k8s.io/${representation.version}`, metadata,
          items: page.items.map((o) => partialObject(o, representation.version)) });
      }
      return sendJsonText(res, 200, listText(`${def.kind}List`, apiVersionOf(def), metadata, page.items, !def.custom));
    }
    case 'watch': {
      const opts = listOptions(query, namespace);
      validateWatchOptions(true, {
        sendInitialEvents: query.get('sendInitialEvents') ?? undefined,
        resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
        continue: query.get('continue') ?? undefined,
      });
      if (name) opts.fieldSelector = [opts.fieldSelector, `metadata.name=${name}`].filter(Boolean).join(',');
      return serveWatch(env, def, {
        ...opts, resourceVersion: query.get('resourceVersion') ?? undefined,
        sendInitialEvents: isTrue(query.get('sendInitialEvents')),
        allowBookmarks: isTrue(query.get('allowWatchBookmarks')),
      }, rep(), includeObject(query), req, res, h.timing);
    }
    case 'create': {
      const opts = writeOptions(query, req, 'create');
      const body = await objectBody(req);
      const created = createObject(env, def, namespace, body, opts);
      return sendJson(res, 201, render(def, created, rep(), query), opts.warnings);
    }
    case 'update': {
      const opts = writeOptions(query, req, 'update');
      const body = await objectBody(req);
      const updated = updateObject(env, def, namespace, name, body, opts, scope);
      return sendJson(res, 200, render(def, updated, rep(), query), opts.warnings);
    }
    case 'patch': {
      const type = PATCH_TYPES.get(mediaType(req.headers['content-type']));
      if (!type) {
        throw statusErrors.unsupportedMediaType(
          def.custom
            ? [PATCH_CONTENT_TYPES.json, PATCH_CONTENT_TYPES.merge, PATCH_CONTENT_TYPES.apply]
            : Object.values(PATCH_CONTENT_TYPES),
        );
      }
      const opts = { ...writeOptions(query, req, 'patch'),
        subresource: scope === 'status' ? 'status' as const : undefined };
      const body = decodeBody(await readBody(req), type === 'apply');
      if (body === undefined) throw statusErrors.badRequest('the body of the request was empty; send a patch document');
      const result = patchObject(env, def, namespace, name, type, body, opts);
      return sendJson(res, result.created ? 201 : 200, render(def, result.object, rep(), query), opts.warnings);
    }
    case 'delete': {
      const opts = deleteOptions(query, decodeBody(await readBody(req)), req, 'delete');
      const result = deleteObject(env, def, namespace, name, opts);
      if (!result.removed || returnsDeletedObject(def)) {
        return sendJson(res, 200, render(def, result.object, rep(), query));
      }
      const uid = isObject(result.object.metadata) ? String(result.object.metadata.uid ?? '') : '';
      return sendJson(res, 200, successStatus(groupResource(def), name, uid));
    }
    case 'deletecollection': {
      const opts = deleteOptions(query, decodeBody(await readBody(req)), req, 'deletecollection');
      const items = deleteCollection(env, def, listOptions(query, namespace), opts);
      return sendJson(res, 200, { kind: `${def.kind}List`, apiVersion: apiVersionOf(def),
        metadata: { resourceVersion: String(env.objects.revision) }, items });
    }
    default:
      throw statusErrors.methodNotAllowed(groupResource(def));
  }
}
