/**
 * The ToolsetResolver over muster: one MCP streamable-HTTP session per resolution, the caller's token as
 * `Authorization: Bearer` and nothing else. filter_tools resolves the toolset, `preset:agent-platform` and
 * the non-preset selectors alone (which name the servers awaiting sign-in), 200 a page, at most 20 pages,
 * 20 s for it all: a truncated answer, a slow muster or an unreadable page fails, never a shorter list.
 * Requests go through the given fetch (the service's outbound fetch: proxy, metrics, spans).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { AGENT_PLATFORM_PRESET, explicitSelectors, type ResolvedTool,
  type ToolsetResolution } from '../core/guards/tool-verdict.js';
import { ToolsetCheckError, type ToolsetResolver,
  type ToolsetResolveRequest } from '../service/guards/toolset-port.js';
import { asObject } from '../core/json.js';

/** Tools asked for per page. */
export const PAGE_SIZE = 200;
/** Pages followed per toolset at most. */
export const MAX_PAGES = 20;
/** The whole resolution, the session's initialize included. */
export const RESOLVE_TIMEOUT_MS = 20_000;

export interface MusterToolsetResolverOptions {
  /** The outbound fetch (proxy, metrics with peer `muster`, spans). */
  readonly fetch: typeof fetch;
  /** agent-manager's version, announced at initialize. */
  readonly version: string;
  /** Overrides RESOLVE_TIMEOUT_MS (tests). */
  readonly timeoutMs?: number;
}

// The part of filter_tools' answer a resolution reads; muster adds more, which is ignored.
const PAGE = z.object({
  tools: z.array(z.object({ name: z.string(), server: z.string().optional(),
    annotations: z.object({ readOnlyHint: z.boolean().optional() }).optional() })),
  truncated: z.boolean().optional(),
  toolset_unmatched: z.array(z.string()).optional(),
  toolset_requiring_auth: z.array(z.object({ name: z.string() })).optional(),
});

interface Walked {
  tools: ResolvedTool[];
  unmatched: string[];
  requiringAuth: string[];
}

const failed = (kind: 'unreachable' | 'error' | 'unauthorized', detail: string, cause?: unknown) =>
  new ToolsetCheckError({ kind, detail }, { cause });

export class MusterToolsetResolver implements ToolsetResolver {
  constructor(private readonly options: MusterToolsetResolverOptions) {}

  async resolve(request: ToolsetResolveRequest): Promise<ToolsetResolution> {
    const where = `muster ${displayUrl(request.url)}`;
    const timeoutMs = this.options.timeoutMs ?? RESOLVE_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const transport = new StreamableHTTPClientTransport(new URL(request.url), {
      fetch: withSignal(this.options.fetch, signal),
      requestInit: { headers: { authorization: `Bearer ${request.token}` } },
    });
    const client = new Client({ name: 'agent-manager', version: this.options.version });
    try {
      await client.connect(transport, { signal, timeout: timeoutMs });
      const page = (toolset: readonly string[], offset: number, limit = PAGE_SIZE) =>
        client.callTool({ name: 'filter_tools', arguments: { toolset: [...toolset], limit, offset } },
          undefined, { signal, timeout: timeoutMs });
      const explicit = explicitSelectors(request.toolset);
      const toolset = await walk(page, request.toolset, where);
      const platform = await walk(page, [AGENT_PLATFORM_PRESET], where);
      // Only the first page's toolset_requiring_auth is read: one tool a page is enough.
      const named = explicit.length > 0 ? await walk(page, explicit, where, true) : undefined;
      return { tools: toolset.tools, unmatched: toolset.unmatched, signInRequired: named?.requiringAuth ?? [],
        agentPlatformTools: platform.tools };
    } catch (err) {
      throw err instanceof ToolsetCheckError ? err : classify(err, where, timeout.aborted, timeoutMs);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    }
  }
}

type CallTool = (toolset: readonly string[], offset: number, limit?: number) => ReturnType<Client['callTool']>;

/** Every page of one toolset's resolution (or a one-tool first page), or a failure naming the toolset. */
async function walk(call: CallTool, toolset: readonly string[], where: string, firstOnly = false): Promise<Walked> {
  const out: Walked = { tools: [], unmatched: [], requiringAuth: [] };
  const about = `${where}: filter_tools toolset [${toolset.join(', ')}]`;
  for (let i = 0; i < MAX_PAGES; i++) {
    const result = await call(toolset, i * PAGE_SIZE, firstOnly ? 1 : PAGE_SIZE);
    const text = (Array.isArray(result.content) ? result.content : [])
      .map((c: { type?: string; text?: string }) => (c.type === 'text' ? c.text ?? '' : '')).join('');
    if (result.isError === true) throw failed('error', `${about}: muster answered an error: ${text}`);
    const parsed = PAGE.safeParse(parseJson(text));
    if (!parsed.success) throw failed('error', `${about}: unreadable answer ${JSON.stringify(text.slice(0, 200))}`);
    out.tools.push(...parsed.data.tools.map((t) => ({ name: t.name, readOnly: t.annotations?.readOnlyHint === true,
      ...(t.server ? { server: t.server } : {}) })));
    if (i === 0) {
      out.unmatched = parsed.data.toolset_unmatched ?? [];
      out.requiringAuth = (parsed.data.toolset_requiring_auth ?? []).map((s) => s.name);
    }
    if (parsed.data.truncated !== true || firstOnly) return out;
  }
  throw failed('error',
    `${about}: more than ${PAGE_SIZE * MAX_PAGES} tools; the resolution was not followed to its end`);
}

function parseJson(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return undefined;
  }
}

/** A failure of the session or the transport, as the guard tells them apart. */
function classify(err: unknown, where: string, timedOut: boolean, timeoutMs: number): ToolsetCheckError {
  if (timedOut) return failed('unreachable', `${where}: no answer within ${timeoutMs / 1000}s`, err);
  if (err instanceof StreamableHTTPError && err.code === 401) {
    return failed('unauthorized', `${where}: muster refused the token (401)`, err);
  }
  if (err instanceof StreamableHTTPError && err.code !== undefined && err.code > 0) {
    return failed('error', `${where}: muster answered HTTP ${err.code}`, err);
  }
  const cause = asObject(asObject(err).cause).code;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof TypeError) {
    return failed('unreachable', `${where}: ${message}${typeof cause === 'string' ? ` (${cause})` : ''}`, err);
  }
  return failed('error', `${where}: ${message}`, err);
}

/** The URL without credentials, for a message. */
function displayUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** `fetchFn` whose requests also end when `signal` aborts. */
function withSignal(fetchFn: typeof fetch, signal: AbortSignal): typeof fetch {
  const bounded: typeof fetch = (input, init) =>
    fetchFn(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
  return bounded;
}
