/**
 * muster's `filter_tools` as the double answers it: the caller's catalogue narrowed by an optional glob
 * `pattern` and `toolset`, paged by `limit` (default 50, at most 1000) and `offset`, as muster's JSON text:
 * the page of tools (annotations only when declared), `total`, `truncated`, the toolset's echo,
 * `toolset_unmatched` and `toolset_requiring_auth`, and every server awaiting sign-in in
 * `servers_requiring_auth`. Argument errors are error results in muster's words.
 */
import { callerView, toolPrefix, type Catalogue, type CatalogueServer, type CatalogueTool } from './catalogue.js';
import { globRegExp, parseToolset, PRESETS, resolveToolset } from './toolsets.js';

/** The tool answer: muster's JSON text, or an error text. */
export interface MetaToolAnswer {
  readonly text: string;
  readonly isError: boolean;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

const AUTH_TOOL = 'core_auth_login';

const wholeNumber = (value: unknown, fallback: number): number | undefined =>
  value === undefined ? fallback : typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;

const toolEntry = (t: CatalogueTool): Record<string, unknown> => ({
  name: t.name, description: t.description, ...(t.server ? { server: t.server } : {}), kind: t.kind,
  ...(t.annotations ? { annotations: t.annotations } : {}),
});

const authEntry = (s: CatalogueServer): Record<string, unknown> =>
  ({ name: s.name, auth_tool: AUTH_TOOL, tool_prefix: toolPrefix(s.name) });

/** filter_tools for a person who signed in to `signedIn`, with the call's arguments. */
export function filterTools(
  catalogue: Catalogue, signedIn: readonly string[], args: Record<string, unknown>,
): MetaToolAnswer {
  const error = (text: string): MetaToolAnswer => ({ text, isError: true });
  const limit = wholeNumber(args.limit, DEFAULT_LIMIT);
  const offset = wholeNumber(args.offset, 0);
  if (limit === undefined || limit < 1 || limit > MAX_LIMIT) {
    return error(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  if (offset === undefined || offset < 0) return error('offset must be a whole number, 0 or more');
  if (args.pattern !== undefined && typeof args.pattern !== 'string') return error('pattern must be a string');
  const view = callerView(catalogue, signedIn);
  const servers = new Map(catalogue.servers.map((s) => [s.name, s]));
  let tools = view.tools;
  const scoped: Record<string, unknown> = {};
  if (args.toolset !== undefined) {
    const parsed = parseToolset(args.toolset);
    if ('error' in parsed) return error(parsed.error);
    const resolution = resolveToolset(parsed.selectors, view.tools, view.pending, servers);
    tools = resolution.tools;
    scoped.toolset = parsed.selectors;
    if (resolution.unmatched.length > 0) scoped.toolset_unmatched = resolution.unmatched;
    if (resolution.requiringAuth.length > 0) scoped.toolset_requiring_auth = resolution.requiringAuth.map(authEntry);
  }
  if (typeof args.pattern === 'string') {
    const pattern = globRegExp(args.pattern);
    tools = tools.filter((t) => pattern.test(t.name));
  }
  const page = tools.slice(offset, offset + limit);
  const answer: Record<string, unknown> = {
    filters: { ...(typeof args.pattern === 'string' ? { pattern: args.pattern } : {}), case_sensitive: false,
      include_schema: false, limit, offset },
    total_tools: view.tools.length, filtered_count: page.length, total: tools.length,
    truncated: offset + page.length < tools.length, tools: page.map(toolEntry), ...scoped,
  };
  if (view.pending.length > 0) {
    answer.servers_requiring_auth = view.pending.map((s) =>
      ({ name: s.name, status: 'Auth Required', auth_tool: AUTH_TOOL }));
  }
  if (args.toolset !== undefined || args.include_presets === true) {
    answer.presets = [...PRESETS].map(([name, p]) => ({ name, description: p.description, built_in: p.builtIn }));
  }
  return { text: JSON.stringify(answer), isError: false };
}
