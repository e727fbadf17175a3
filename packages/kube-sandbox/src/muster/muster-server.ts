/**
 * A muster double on loopback: an MCP streamable-HTTP endpoint (`/mcp`, sessions by `Mcp-Session-Id`, the
 * MCP SDK's server side) whose `filter_tools` meta-tool resolves toolsets over a fixed catalogue as the
 * person its bearer token names (filter-tools.ts). Trust boundary as muster draws it: a request without a
 * token it knows is answered 401 with `WWW-Authenticate: Bearer resource_metadata="…"` and reaches no tool;
 * the catalogue each person sees depends on the servers they signed in to. For fail-closed tests it can be
 * told to answer errors (`fault`) or be stopped. It imports nothing of agent-manager.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { tcpAddress } from '../tcp-listen.js';
import { DEFAULT_CATALOGUE, type Catalogue } from './catalogue.js';
import { filterTools, type MetaToolAnswer } from './filter-tools.js';
import { METADATA_PATH, MUSTER_PATH, musterRoute, type MusterFault } from './muster-route.js';
import { MusterSessions } from './muster-sessions.js';

export { MUSTER_PATH, type MusterFault } from './muster-route.js';

/** The person the generated token names when no tokens are given. */
export const DEFAULT_MUSTER_SUBJECT = 'sandbox-user';

export interface MusterOptions {
  /** Loopback host; default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Bearer token → the person it names; default one random token for {@link DEFAULT_MUSTER_SUBJECT}. */
  tokens?: Readonly<Record<string, string>>;
  /** Person → the sign-in servers they signed in to (default: none). */
  signedIn?: Readonly<Record<string, readonly string[]>>;
  catalogue?: Catalogue;
}

/** One meta-tool call the double answered. */
export interface MusterCall {
  readonly subject: string;
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A running muster double. */
export interface Muster {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  /** The first configured token (the generated one by default). */
  readonly token: string;
  /** Token → person; add or remove tokens while serving. */
  readonly tokens: Map<string, string>;
  /** Person → servers signed in to; change while serving. */
  readonly signedIn: Map<string, readonly string[]>;
  /** The meta-tool calls answered, oldest first. */
  readonly calls: readonly MusterCall[];
  fault: MusterFault;
  /** Stop serving: sessions end, connections close, the port refuses connections. Again: nothing. */
  stop(): Promise<void>;
}

const FAILING = 'muster failed on purpose (the double was told to)';

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  // A request stream without an encoding set yields Buffers; a string chunk is kept in its bytes.
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  if (chunks.length === 0) return undefined;
  const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  return parsed;
}

/** What serving a request needs: the live tables and the fault, and the URL the double is served at. */
interface MusterState {
  readonly tokens: ReadonlyMap<string, string>;
  readonly sessions: MusterSessions;
  fault: MusterFault;
  /** `http://127.0.0.1:<port>`, set once listening. */
  base: string;
}

type AuthedRequest = IncomingMessage & { auth?: { token: string; clientId: string; scopes: string[] } };

/** Serve one request: the route first (musterRoute), then MCP on the caller's session. */
async function serveMuster(state: MusterState, req: AuthedRequest, res: ServerResponse): Promise<void> {
  const { base } = state;
  const route = musterRoute(req.url ?? '/', req.headers.authorization, state.fault, state.tokens);
  switch (route.kind) {
    case 'metadata':
      return sendJson(res, 200, { resource: `${base}${MUSTER_PATH}`, authorization_servers: [base],
        bearer_methods_supported: ['header'] });
    case 'not-found': return sendJson(res, 404, { error: 'not_found' });
    case 'failing': return sendJson(res, 500, { error: FAILING });
    case 'unauthorized': {
      const challenge = `Bearer resource_metadata="${base}${METADATA_PATH}${MUSTER_PATH}", error="invalid_token"`;
      const body = { error: 'invalid_token', error_description: 'a bearer token muster accepts is required' };
      return sendJson(res, 401, body, { 'www-authenticate': challenge });
    }
    case 'mcp': break;
  }
  req.auth = { token: route.token, clientId: route.subject, scopes: [] };
  let body: unknown;
  try {
    body = req.method === 'POST' ? await readJson(req) : undefined;
  } catch {
    return sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
  }
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? state.sessions.get(id) : undefined;
  if (!transport && id === undefined && isInitializeRequest(body)) transport = await state.sessions.open();
  if (!transport) {
    return sendJson(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
  }
  await transport.handleRequest(req, res, body);
}

/** Listen on `host:port` and return the base URL served. */
async function listen(http: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => resolve());
  });
  const address = tcpAddress(http);
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}

/** Start a muster double. */
export async function startMuster(options: MusterOptions = {}): Promise<Muster> {
  const catalogue = options.catalogue ?? DEFAULT_CATALOGUE;
  const generated = { [randomBytes(24).toString('base64url')]: DEFAULT_MUSTER_SUBJECT };
  const tokens = new Map(Object.entries(options.tokens ?? generated));
  const signedIn = new Map(Object.entries(options.signedIn ?? {}));
  const calls: MusterCall[] = [];
  const answer = (subject: string, tool: string, args: Record<string, unknown>): MetaToolAnswer => {
    calls.push({ subject, tool, arguments: args });
    if (tool !== 'filter_tools') return { text: `unknown meta-tool ${JSON.stringify(tool)}`, isError: true };
    if (state.fault === 'tool-error') return { text: FAILING, isError: true };
    return filterTools(catalogue, signedIn.get(subject) ?? [], args);
  };
  const state: MusterState = { tokens, sessions: new MusterSessions(answer), fault: undefined, base: '' };

  const http = createServer((req, res) => {
    serveMuster(state, req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
    });
  });
  state.base = await listen(http, options.port ?? 0, options.host ?? '127.0.0.1');
  let stopping: Promise<void> | undefined;
  return {
    url: `${state.base}${MUSTER_PATH}`, token: [...tokens.keys()][0] ?? '', tokens, signedIn, calls,
    get fault() {
      return state.fault;
    },
    set fault(value: MusterFault) {
      state.fault = value;
    },
    stop: () => {
      stopping ??= (async () => {
        await state.sessions.closeAll();
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
      })();
      return stopping;
    },
  };
}
