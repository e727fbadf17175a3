/**
 * One handler per verb of the resource endpoints, each a thin translation between HTTP (query, body,
 * Content-Type) and the operations in ../ops. Responses follow the real server: 201 for creates (and
 * creating applies), the object or a Success Status for deletes, `<Kind>List` bodies with list
 * metadata, and tables when kubectl asks for them. The route was checked before (resource-route.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObject, type JsonObject } from '../api/json.js';
import { statusErrors, successStatus } from '../api/status.js';
import type { WriteScope } from '../fields/managed-fields.js';
import { createObject } from '../ops/create.js';
import { deleteCollection, deleteObject } from '../ops/delete.js';
import { listObjects, validateWatchOptions } from '../ops/list.js';
import { patchObject } from '../ops/patch.js';
import { PATCH_CONTENT_TYPES, type OpsEnv } from '../ops/op-options.js';
import { updateObject } from '../ops/update.js';
import { apiVersionOf, groupResource, type ResourceDef } from '../resources/resource-def.js';
import { decodeBody, listText, readBody, sendJson, sendJsonText } from './http-io.js';
import type { Representation } from './negotiate.js';
import { objectBody, patchTypeOf } from './object-body.js';
import { deleteOptions, listOptions, writeOptions } from './query.js';
import { isTrue, type RequestInfo } from './request-info.js';
import { partialObject, toTable, type IncludeObject } from './table.js';
import { serveWatch, type WatchTiming } from './watch-stream.js';

/** Everything a resource handler needs besides the request. */
export interface HandlerEnv {
  readonly env: OpsEnv;
  readonly timing: WatchTiming;
}

/** One routed resource request. */
export interface VerbRequest {
  readonly h: HandlerEnv;
  readonly def: ResourceDef;
  readonly info: RequestInfo;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly scope: WriteScope;
  /** The representation the client accepts; called once the request is known to be answered with a body. */
  readonly rep: () => Representation;
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

function serveGet({ h: { env }, def, info: { query, namespace, name }, res, rep }: VerbRequest): void {
  checkGetVersion(env, query.get('resourceVersion') ?? '');
  const obj = env.objects.get(def, namespace, name);
  if (!obj) throw statusErrors.notFound(groupResource(def), name);
  sendJson(res, 200, render(def, obj, rep(), query));
}

function serveList({ h: { env }, def, info: { query, namespace }, res, rep }: VerbRequest): void {
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
  sendJsonText(res, 200, listText(`${def.kind}List`, apiVersionOf(def), metadata, page.items, !def.custom));
}

function serveWatchVerb({ h, def, info: { query, namespace, name }, req, res, rep }: VerbRequest): void {
  const opts = listOptions(query, namespace);
  validateWatchOptions(true, {
    sendInitialEvents: query.get('sendInitialEvents') ?? undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
    continue: query.get('continue') ?? undefined,
  });
  if (name) opts.fieldSelector = [opts.fieldSelector, `metadata.name=${name}`].filter(Boolean).join(',');
  serveWatch(h.env, def, {
    ...opts, resourceVersion: query.get('resourceVersion') ?? undefined,
    sendInitialEvents: isTrue(query.get('sendInitialEvents')),
    allowBookmarks: isTrue(query.get('allowWatchBookmarks')),
  }, rep(), includeObject(query), req, res, h.timing);
}

async function serveCreate({ h: { env }, def, info: { query, namespace }, req, res, rep }: VerbRequest) {
  const opts = writeOptions(query, req, 'create');
  const body = await objectBody(req);
  const created = createObject(env, def, namespace, body, opts);
  sendJson(res, 201, render(def, created, rep(), query), opts.warnings);
}

async function serveUpdate({ h: { env }, def, info: { query, namespace, name }, req, res, rep, scope }: VerbRequest) {
  const opts = writeOptions(query, req, 'update');
  const body = await objectBody(req);
  const updated = updateObject(env, def, namespace, name, body, opts, scope);
  sendJson(res, 200, render(def, updated, rep(), query), opts.warnings);
}

async function servePatch({ h: { env }, def, info: { query, namespace, name }, req, res, rep, scope }: VerbRequest) {
  const type = patchTypeOf(req);
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
  sendJson(res, result.created ? 201 : 200, render(def, result.object, rep(), query), opts.warnings);
}

async function serveDelete({ h: { env }, def, info: { query, namespace, name }, req, res, rep }: VerbRequest) {
  const opts = deleteOptions(query, decodeBody(await readBody(req)), req, 'delete');
  const result = deleteObject(env, def, namespace, name, opts);
  if (!result.removed || returnsDeletedObject(def)) {
    return sendJson(res, 200, render(def, result.object, rep(), query));
  }
  const uid = isObject(result.object.metadata) ? String(result.object.metadata.uid ?? '') : '';
  sendJson(res, 200, successStatus(groupResource(def), name, uid));
}

async function serveDeleteCollection({ h: { env }, def, info: { query, namespace }, req, res }: VerbRequest) {
  const opts = deleteOptions(query, decodeBody(await readBody(req)), req, 'deletecollection');
  const items = deleteCollection(env, def, listOptions(query, namespace), opts);
  sendJson(res, 200, { kind: `${def.kind}List`, apiVersion: apiVersionOf(def),
    metadata: { resourceVersion: String(env.objects.revision) }, items });
}

/** The handler of each verb a resource route serves. */
export const VERB_HANDLERS: ReadonlyMap<string, (request: VerbRequest) => void | Promise<void>> = new Map([
  ['get', serveGet], ['list', serveList], ['watch', serveWatchVerb], ['create', serveCreate],
  ['update', serveUpdate], ['patch', servePatch], ['delete', serveDelete], ['deletecollection', serveDeleteCollection],
]);
