/**
 * Toolsets as muster resolves them, for the double: the inline grammar with muster's texts, the presets
 * (built-in `read-only`, `none`, `full`; the platform's `infrastructure` and `agent-platform` by the
 * tool-group label, overlapping with read-only as muster's do), the union of what each selector selects in
 * the caller's catalogue, and the sign-in servers a selector could select once listed (a readOnly rule
 * counts as a possible include, as in muster).
 */
import { isStringList } from '../api/json.js';
import { TOOL_GROUP_LABEL, toolPrefix, type CatalogueServer, type CatalogueTool } from './catalogue.js';

/** One preset rule; each sets one key. */
interface Rule {
  readonly tool?: string;
  readonly pattern?: string;
  readonly server?: string;
  readonly readOnly?: true;
  readonly label?: string;
}

export interface Preset {
  readonly description: string;
  readonly builtIn: boolean;
  readonly include: readonly Rule[];
}

/** The presets in muster's message order: built-ins first, then the configured ones by name. */
export const PRESETS: ReadonlyMap<string, Preset> = new Map([
  ['read-only', { description: 'Every tool annotated readOnlyHint: true', builtIn: true,
    include: [{ readOnly: true }] }],
  ['none', { description: 'Nothing', builtIn: true, include: [] }],
  ['full', { description: 'The whole catalogue', builtIn: true, include: [{ pattern: '*' }] }],
  ['agent-platform', { description: "The platform's own management surface, including muster's core tools",
    builtIn: false, include: [{ label: `${TOOL_GROUP_LABEL}=agent-platform` }, { pattern: 'core_*' }] }],
  ['infrastructure', { description: 'The servers for the infrastructure underneath the platform', builtIn: false,
    include: [{ label: `${TOOL_GROUP_LABEL}=infrastructure` }] }],
]);

const MAX_INLINE = 32;
const SELECTOR = /^(preset|server|workflow|tool):[^\t\n\f\r ,]+$/;

/** The selectors of a filter_tools `toolset` argument, or muster's error for it. */
export function parseToolset(raw: unknown): { selectors: string[] } | { error: string } {
  if (!isStringList(raw)) {
    return { error: 'toolset must be an array of selector strings' };
  }
  const selectors = raw.map((s) => s.trim());
  const shown = `toolset [${selectors.join(',')}]`;
  if (selectors.length === 0) return { error: 'toolset [] is empty; use "preset:none" for an agent without tools' };
  if (selectors.length > MAX_INLINE) {
    return { error: `${shown} has ${selectors.length} selectors, more than the ${MAX_INLINE} allowed inline; ` +
      'define a preset' };
  }
  for (const s of selectors) {
    const kind = s.includes(':') ? s.slice(0, s.indexOf(':')) : undefined;
    if (kind === 'toolset') return { error: `${shown} selector ${JSON.stringify(s)} is reserved for shared toolsets` };
    if (kind === 'label') return { error: `${shown} selector ${JSON.stringify(s)} is allowed inside presets only` };
    if (!SELECTOR.test(s)) {
      return { error: `${shown} selector ${JSON.stringify(s)} is malformed; expected preset:<name>, server:<name>, ` +
        'workflow:<name> or tool:<name>' };
    }
    if (kind === 'preset' && !PRESETS.has(s.slice('preset:'.length))) {
      return { error: `${shown} names unknown preset ${JSON.stringify(s.slice('preset:'.length))}; known presets: ` +
        [...PRESETS.keys()].join(', ') };
    }
  }
  return { selectors };
}

/** A glob in Go `path.Match` syntax (`*`, `?`) as a regular expression. */
export function globRegExp(glob: string): RegExp {
  const body = [...glob].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${body.join('')}$`);
}

const labelMatches = (labels: Readonly<Record<string, string>>, rule: string): boolean => {
  const at = rule.indexOf('=');
  return at < 0 ? Object.hasOwn(labels, rule) : labels[rule.slice(0, at)] === rule.slice(at + 1);
};

function selects(rule: Rule, tool: CatalogueTool, servers: ReadonlyMap<string, CatalogueServer>): boolean {
  if (rule.tool !== undefined) return tool.name === rule.tool;
  if (rule.pattern !== undefined) return globRegExp(rule.pattern).test(tool.name);
  if (rule.server !== undefined) return tool.server === rule.server;
  if (rule.readOnly) return tool.annotations?.readOnlyHint === true;
  const server = tool.server === undefined ? undefined : servers.get(tool.server);
  return rule.label !== undefined && server !== undefined && labelMatches(server.labels, rule.label);
}

/** Whether `rule` could select a tool of `server` once it is listed (its tools are unknown before sign-in). */
function couldSelect(rule: Rule, server: CatalogueServer): boolean {
  const prefix = toolPrefix(server.name);
  if (rule.tool !== undefined) return rule.tool.startsWith(prefix);
  if (rule.pattern !== undefined) {
    const literal = rule.pattern.split(/[*?[]/)[0]!;
    return literal.startsWith(prefix) || prefix.startsWith(literal);
  }
  if (rule.server !== undefined) return rule.server === server.name;
  if (rule.readOnly) return true;
  return rule.label !== undefined && labelMatches(server.labels, rule.label);
}

/** The rules one inline selector stands for. */
function rulesOf(selector: string): readonly Rule[] {
  const name = selector.slice(selector.indexOf(':') + 1);
  if (selector.startsWith('preset:')) return PRESETS.get(name)?.include ?? [];
  if (selector.startsWith('server:')) return [{ server: name }];
  if (selector.startsWith('workflow:')) return [{ tool: `workflow_${name}` }];
  return [{ tool: name }];
}

export interface Resolution {
  readonly tools: CatalogueTool[];
  readonly unmatched: string[];
  readonly requiringAuth: CatalogueServer[];
}

/** What `selectors` resolve to in one caller's view (listed tools sorted by name, pending servers). */
export function resolveToolset(
  selectors: readonly string[], listed: readonly CatalogueTool[], pending: readonly CatalogueServer[],
  servers: ReadonlyMap<string, CatalogueServer>,
): Resolution {
  const chosen = new Set<string>();
  const unmatched: string[] = [];
  for (const selector of selectors) {
    const rules = rulesOf(selector);
    const hits = listed.filter((t) => rules.some((r) => selects(r, t, servers)));
    if (hits.length === 0 && selector !== 'preset:none') unmatched.push(selector);
    for (const t of hits) chosen.add(t.name);
  }
  const requiringAuth = pending.filter((s) => selectors.some((sel) => rulesOf(sel).some((r) => couldSelect(r, s))))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  return { tools: listed.filter((t) => chosen.has(t.name)), unmatched, requiringAuth };
}
