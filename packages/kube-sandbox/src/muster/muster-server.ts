/**
 * A muster double on loopback: an MCP streamable-HTTP endpoint (`/mcp`, sessions by `Mcp-Session-Id`, the
 * MCP SDK's server side) whose `filter_tools` meta-tool resolves toolsets over a fixed catalogue as the
 * person its bearer token names (filter-tools.ts). Trust boundary as muster draws it: a request without a
 * token it knows is answered 401 with `WWW-Authenticate: Bearer resource_metadata="…"` and reaches no tool;
 * the catalogue each person sees depends on the servers they signed in to. For fail-closed tests it can be
 * told to answer errors (`fault`) or be stopped. It imports nothing of agent-manager.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_CATALOGUE, type Catalogue } from './catalogue.js';
import { filterTools, type MetaToolAnswer } from './filter-tools.js';

/** The path muster serves MCP on. */
export const MUSTER_PATH = '/mcp';

/** The person the generated token names when no tokens are given. */
export const DEFAULT_MUSTER_SUBJECT = 'sandbox-user';

/** `tool-error`: every filter_tools call is an error result; `http-error`: every request is answered 500. */
export type MusterFault = 'tool-error' | 'http-error' | undefined;

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

const METADATA_PATH = '/.well-known/oauth-protected-resource';

const FAILING = 'muster failed on purpose (the double was told to)';

const FILTER_TOOLS_SCHEMA = {
  type: 'object',
  properties: {
    pattern: { type: 'string', description: 'Glob on the exposed tool name' },
    toolset: { type: 'array', items: { type: 'string' }, description: 'Inline toolset selectors' },
    include_presets: { type: 'boolean' },
    limit: { type: 'integer', minimum: 1 },
    offset: { type: 'integer', minimum: 0 },
  },
} as const;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

/** Start a muster double. */
export async function startMuster(options: MusterOptions = {}): Promise<Muster> {
  const catalogue = options.catalogue ?? DEFAULT_CATALOGUE;
  const generated = { [randomBytes(24).toString('base64url')]: DEFAULT_MUSTER_SUBJECT };
  const tokens = new Map(Object.entries(options.tokens ?? generated));
  const signedIn = new Map(Object.entries(options.signedIn ?? {}));
  const calls: MusterCall[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const state = { fault: undefined as MusterFault };

  const answer = (subject: string, tool: string, args: Record<string, unknown>): MetaToolAnswer => {
    calls.push({ subject, tool, arguments: args });
    if (tool !== 'filter_tools') return { text: `unknown meta-tool ${JSON.stringify(tool)}`, isError: true };
    if (state.fault === 'tool-error') return { text: FAILING, isError: true };
    return filterTools(catalogue, signedIn.get(subject) ?? [], args);
  };

  const openSession = async (): Promise<StreamableHTTPServerTransport> => {
    const server = new Server({ name: 'muster', version: 'sandbox' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'filter_tools', description:
      'Filter the tools available to you, optionally within a toolset', inputSchema: FILTER_TOOLS_SCHEMA }] }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const result = answer(extra.authInfo?.clientId ?? '', request.params.name, request.params.arguments ?? {});
      return { content: [{ type: 'text', text: result.text }], ...(result.isError ? { isError: true } : {}) };
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };

  let base = '';
  const handle = async (req: IncomingMessage & { auth?: { token: string; clientId: string; scopes: string[] } },
    res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://muster').pathname;
    if (path === METADATA_PATH || path === `${METADATA_PATH}${MUSTER_PATH}`) {
      sendJson(res, 200, { resource: `${base}${MUSTER_PATH}`, authorization_servers: [base],
        bearer_methods_supported: ['header'] });
      return;
    }
    if (path !== MUSTER_PATH) return sendJson(res, 404, { error: 'not_found' });
    if (state.fault === 'http-error') return sendJson(res, 500, { error: FAILING });
    const token = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const subject = token === undefined ? undefined : tokens.get(token);
    if (token === undefined || subject === undefined) {
      const challenge = `Bearer resource_metadata="${base}${METADATA_PATH}${MUSTER_PATH}", error="invalid_token"`;
      const body = { error: 'invalid_token', error_description: 'a bearer token muster accepts is required' };
      return sendJson(res, 401, body, { 'www-authenticate': challenge });
    }
    req.auth = { token, clientId: subject, scopes: [] };
    let body: unknown;
    try {
      body = req.method === 'POST' ? await readJson(req) : undefined;
    } catch {
      return sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    }
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport && id === undefined && isInitializeRequest(body)) transport = await openSession();
    if (!transport) {
      return sendJson(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
    }
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = http.address() as AddressInfo;
  base = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  let stopping: Promise<void> | undefined;
  return {
    url: `${base}${MUSTER_PATH}`, token: [...tokens.keys()][0] ?? '', tokens, signedIn, calls,
    get fault() {
      return state.fault;
    },
    set fault(value: MusterFault) {
      state.fault = value;
    },
    stop: () => {
      stopping ??= (async () => {
        await Promise.all([...sessions.values()].map((t) => t.close()));
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
      })();
      return stopping;
    },
  };
}
