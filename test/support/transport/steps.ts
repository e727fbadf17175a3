/**
 * Steps without an app, for tests of one step or a few: the request prepared as express prepares it
 * (`path`, `query`, `params`), and steps run in order until one answers, as the app's middleware runs them.
 */
import type { IncomingMessage } from 'node:http';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';
import type { HttpRequest, HttpResponse, Step } from '../../../src/transport/http/exchange.js';

const NO_QUERY: ParsedUrlQuery = Object.freeze(Object.create(null) as ParsedUrlQuery);

/** Sets `path`, `query` and `params` from the URL; idempotent. */
export function prepareRequest(incoming: IncomingMessage): HttpRequest {
  const req = incoming as HttpRequest;
  if (req.path !== undefined) return req;
  let url = req.url ?? '/';
  // RFC 9112 §3.2.2: a server accepts the absolute form (`GET http://host/path`) too; only its path counts.
  if (!url.startsWith('/') && URL.canParse(url)) {
    const absolute = new URL(url);
    url = `${absolute.pathname}${absolute.search}`;
  }
  const at = url.indexOf('?');
  req.path = at < 0 ? url : url.slice(0, at);
  // As express 5's default ("simple") parser: node's querystring, repeated keys as arrays.
  req.query = at < 0 || at === url.length - 1 ? NO_QUERY : parseQuery(url.slice(at + 1));
  req.params = {};
  return req;
}

/**
 * Runs `steps` in order until one answers; true when one did. Synchronous steps run without
 * a promise, as the middleware adapter runs them.
 */
export function runSteps(steps: readonly Step[], req: HttpRequest, res: HttpResponse, from = 0):
  boolean | Promise<boolean> {
  for (let i = from; i < steps.length; i++) {
    const outcome = steps[i]!(req, res);
    if (outcome === true) return true;
    if (outcome instanceof Promise) {
      return outcome.then((answered) => answered === true || runSteps(steps, req, res, i + 1));
    }
  }
  return false;
}
