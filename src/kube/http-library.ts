/**
 * The HTTP library under @kubernetes/client-node's generated API objects: undici's
 * `request` on the dispatcher the library chose for the request, instead of its default
 * WHATWG `fetch` over the same undici.
 *
 * Why: every Kubernetes call of a read goes through here, and fetch's Request, Response,
 * Headers and web-stream objects cost about three times the CPU of the request itself
 * (0.25 ms against 0.1 ms per GET measured here); `request` speaks the same HTTP/1.1 over
 * the same pooled connection. `httpApi` is the library's documented extension point
 * (`createConfiguration({ httpApi })`): the library still builds the URL, the headers,
 * the authentication, the dispatcher (TLS material, proxy) and the abort signal, and
 * still parses the answer and raises its `ApiException`s.
 *
 * The body is read whole before the answer is handed back, as the library reads every
 * answer it parses: a connection goes back to the pool whether or not the caller reads it.
 * Redirects are not followed (an API server does not send any).
 */
import { ResponseContext, SelfDecodingBody, wrapHttpLibrary, type HttpLibrary, type RequestContext } from '@kubernetes/client-node';
import { request, type Dispatcher } from 'undici';

type Method = Dispatcher.HttpMethod;

/** Response headers as the library's ResponseContext holds them: one string per lowercase name. */
function headerRecord(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** One request of the library's shape, answered whole. */
export async function sendRequest(context: RequestContext): Promise<ResponseContext> {
  const body = context.getBody() as string | Buffer | undefined;
  const response = await request(context.getUrl(), {
    method: context.getHttpMethod().toString() as Method,
    headers: context.getHeaders(),
    body: body ?? null,
    signal: context.getSignal() ?? undefined,
    dispatcher: (context.getDispatcher() as Dispatcher | undefined) ?? undefined,
  });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  return new ResponseContext(response.statusCode, headerRecord(response.headers), new SelfDecodingBody(Promise.resolve(bytes)));
}

/** The library to pass as `httpApi`. */
export const undiciRequestLibrary: HttpLibrary = wrapHttpLibrary({ send: sendRequest });
