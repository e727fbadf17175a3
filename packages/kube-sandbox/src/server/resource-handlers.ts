/**
 * The resource endpoints: the route is decided from the kind and the URL (resource-route.ts), then
 * served by its handler: the verb handlers in resource-verbs.ts, the scale subresource, or the refusal
 * of a pod's container subresources. The representation is negotiated here, once a verb answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { statusErrors } from '../api/status.js';
import { PATCH_CONTENT_TYPES, type OpsEnv } from '../ops/op-options.js';
import { patchScale, readScale, writeScale } from '../ops/scale.js';
import { groupResource, type ResourceDef } from '../resources/resource-def.js';
import { answerInYaml, decodeBody, readBody, sendJson } from './http-io.js';
import { negotiate, type Representation } from './negotiate.js';
import { objectBody, patchTypeOf } from './object-body.js';
import { writeOptions } from './query.js';
import type { RequestInfo } from './request-info.js';
import { resourceRoute } from './resource-route.js';
import { VERB_HANDLERS, type HandlerEnv } from './resource-verbs.js';

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
    const type = patchTypeOf(req);
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
 * The representation the client's Accept asks for. YAML is answered by marking the response; a watch
 * streams JSON only, as the real server's watch encoders do.
 */
function representation(info: RequestInfo, req: IncomingMessage, res: ServerResponse): Representation {
  const chosen = negotiate(req.headers.accept, true);
  if (chosen.kind === 'json' && chosen.yaml) {
    if (info.verb === 'watch') {
      throw statusErrors.notAcceptable(['application/json', 'application/json;stream=watch']);
    }
    answerInYaml(res);
  }
  return chosen;
}

/** Serve one resource request already authenticated and authorized. */
export async function handleResource(
  h: HandlerEnv, def: ResourceDef, info: RequestInfo, req: IncomingMessage, res: ServerResponse,
): Promise<void> {
  const route = resourceRoute(def, info);
  switch (route.kind) {
    case 'container': return refuseContainerAccess(h, def, info);
    case 'scale': return serveScale(h.env, def, info, req, res);
    case 'path-not-found': throw statusErrors.pathNotFound();
    case 'method-not-allowed': throw statusErrors.methodNotAllowed(groupResource(def));
    case 'verb': {
      const handler = VERB_HANDLERS.get(info.verb);
      if (!handler) throw statusErrors.methodNotAllowed(groupResource(def));
      const rep = () => representation(info, req, res);
      return handler({ h, def, info, req, res, scope: route.scope, rep });
    }
  }
}
