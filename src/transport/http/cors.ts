/**
 * CORS on `/api/v1` and the MCP path for the origins of `--allowed-origins` (and `--oauth-base-url`),
 * matched exactly against the normalised set the origin check reads too, so the two agree. A listed
 * origin's preflight is answered 204 before the origin check and the bearer guard (it carries no
 * credentials); its other requests get `Access-Control-Allow-Origin` and the exposed headers. Any other
 * origin gets no CORS header, and its preflight the origin check's 403. No `Allow-Credentials`: callers
 * send a bearer token the page holds, never cookies (docs/security.md "Browser origins").
 */
import { addVary, type HttpRequest, type HttpResponse, type Step } from './exchange.js';

/** How long a browser may reuse a preflight's answer (10 minutes: a changed list applies soon). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

export interface CorsOptions {
  /** The origins answered, normalised (`https://host[:port]`, as `normaliseOrigin` gives them). */
  allowedOrigins: ReadonlySet<string>;
  /** The methods the surface answers (`Access-Control-Allow-Methods`). */
  methods: readonly string[];
  /** The request headers the surface reads (`Access-Control-Allow-Headers`). */
  allowHeaders: readonly string[];
  /** The response headers a page may read besides the safelisted ones (`Access-Control-Expose-Headers`). */
  exposeHeaders: readonly string[];
}

/**
 * The step: answers a listed origin's preflight (true), marks a listed origin's actual request with
 * the CORS response headers, and leaves every other request as it came. With no origin listed it
 * does nothing at all.
 */
export function cors(options: CorsOptions): Step {
  const { allowedOrigins } = options;
  const methods = options.methods.join(', ');
  const allowHeaders = options.allowHeaders.join(', ');
  const exposeHeaders = options.exposeHeaders.join(', ');
  return (req: HttpRequest, res: HttpResponse): boolean | undefined => {
    if (allowedOrigins.size === 0) return undefined;
    // The answer depends on the Origin whoever asks, so a cache keeps one answer per origin.
    addVary(res, 'Origin');
    const origin = req.headers.origin;
    if (typeof origin !== 'string' || !allowedOrigins.has(origin)) return undefined;
    res.setHeader('Access-Control-Allow-Origin', origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.statusCode = 204;
      res.setHeader('Access-Control-Allow-Methods', methods);
      res.setHeader('Access-Control-Allow-Headers', allowHeaders);
      res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
      res.end();
      return true;
    }
    res.setHeader('Access-Control-Expose-Headers', exposeHeaders);
    return undefined;
  };
}
