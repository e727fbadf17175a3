/**
 * Which arguments each chart line takes, checked from the request alone before anything is read or written.
 * 2.x has no per-agent runtime (the Harness is the runtime) and caps the system prompt at 20,000 characters
 * (the chart's schema and the runtime's config limit); 0.x has no Harness, no plugins and no approval, so
 * those arguments on a 0.x namespace are refused naming its line rather than silently dropped. Plugins are
 * checked by the original's rules (inventory 5.5): a plugin is written pinned and never resolved. Pure.
 */
import { goQuote } from '../go-quote.js';
import { isSet } from '../writes/compose.js';
import type { ChartLine } from './major-line.js';
import { systemMessageViolation as promptCapViolation } from '../guards/system-prompt.js';
import type { Line2Spec } from './values-2x.js';
import { asObject } from '../json.js';

export const MAX_PLUGINS = 20;
export const MAX_PLUGIN_SKILLS = 50;

const HTTP_URL = /^https?:\/\/\S+$/;
const FULL_COMMIT = /^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/;
const PINNED_OCI = /^[^\s@]+@sha256:[0-9a-f]{64}$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const RUNTIME_REFUSAL = 'runtime is gone: on chart 2.x the platform Harness is the runtime of every agent — ' +
  'there is no per-agent runtime; drop the argument, and name a Harness with harness (list_harnesses) to choose ' +
  'how the agent runs';

/** The arguments of a request whose presence depends on the chart line, of any type as the request gives them. */
export interface LineArguments {
  runtime?: unknown;
  harness?: unknown;
  plugins?: unknown;
  requireApproval?: unknown;
  egress?: unknown;
}

/** The 2.x-only arguments a request carries (null counts as absent). */
function line2Arguments(request: LineArguments): string[] {
  return (['harness', 'plugins', 'requireApproval', 'egress'] as const).filter((k) => request[k] !== undefined &&
    request[k] !== null);
}

/** The refusal of an argument the namespace's line does not have, or undefined. */
export function lineArgumentViolation(line: ChartLine, request: LineArguments, where: string): string |
  undefined {
  if (line === '2.x') {
    // A blank runtime asks for none (a rollback names every field, "" for those it clears): nothing to refuse.
    if (typeof request.runtime === 'string' ? isSet(request.runtime) : request.runtime != null) return RUNTIME_REFUSAL;
    return undefined;
  }
  const extra = line2Arguments(request);
  if (extra.length === 0) return undefined;
  return `${extra.join(', ')} ${extra.length === 1 ? 'is' : 'are'} for agents of chart 2.x, and ${where} renders ` +
    `chart 0.x (a kagent.dev/v1alpha2 Agent, which has no Harness, plugins, approval or egress); leave ` +
    `${extra.length === 1 ? 'it' : 'them'} out, or migrate the namespace to 2.x (agent-manager migrate)`;
}

/** The 20,000-character cap of 2.x, in the original's words (inventory 5.7), as the claude guard checks it too. */
export function systemMessageViolation(systemMessage: string | undefined): string | undefined {
  return typeof systemMessage === 'string' ? promptCapViolation(systemMessage) : undefined;
}

/** A Harness name: a DNS-1123 label, as the chart's schema and the Agent's harnessRef take it. */
export function harnessNameViolation(harness: unknown): string | undefined {
  if (harness === undefined || harness === null) return undefined;
  if (typeof harness !== 'string' || !isSet(harness)) return 'harness must name a Harness of the namespace ' +
    '(list_harnesses), e.g. kagent';
  if (harness.length > 63 || !DNS1123_LABEL.test(harness)) {
    return `harness ${goQuote(harness)} is not a Harness name: lowercase letters, digits and "-", at most 63 ` +
      'characters (list_harnesses)';
  }
  return undefined;
}

function sourceViolations(at: string, plugin: Record<string, unknown>): string[] {
  const git = plugin.git ? asObject(plugin.git) : undefined;
  const oci = plugin.oci;
  if (git && oci !== undefined) return [`${at} has both git and oci; a plugin has exactly one source`];
  if (!git && oci === undefined) {
    return [`${at} has no source: give git: {url, commit} or oci: <reference>@sha256:<digest>`];
  }
  const out: string[] = [];
  if (git) {
    const url = typeof git.url === 'string' ? git.url : '';
    if (!HTTP_URL.test(url)) out.push(`${at}.git.url ${goQuote(url)} must be an http(s) URL`);
    if (git.ref !== undefined) {
      out.push(`${at}.git.ref is not accepted: a plugin is written pinned, give git.commit (list_skills reports ` +
        'head commits)');
    } else if (typeof git.commit !== 'string' || !FULL_COMMIT.test(git.commit)) {
      out.push(`${at}.git.commit ${goQuote(String(git.commit ?? ''))} is not a full commit id (40 or 64 hex ` +
        'characters); a plugin source is pinned');
    }
  } else if (typeof oci !== 'string' || !PINNED_OCI.test(oci)) {
    out.push(`${at}.oci ${goQuote(String(oci))} is not digest-pinned; give <registry>/<repository>@sha256:<digest>`);
  }
  return out;
}

function pathViolation(at: string, path: unknown): string | undefined {
  if (path === undefined) return undefined;
  if (typeof path !== 'string' || path.startsWith('/')) {
    return `${at}.path ${goQuote(String(path))} must be relative to the repository root`;
  }
  if (path.split('/').includes('..')) return `${at}.path ${goQuote(path)} must not climb out of the repository ("..")`;
  return undefined;
}

function skillNameViolations(at: string, skills: unknown): string[] {
  if (!Array.isArray(skills) || skills.length === 0) {
    return [`${at} selects no skill; name at least one of the bundle's skills`];
  }
  if (skills.length > MAX_PLUGIN_SKILLS) return [`${at} selects ${skills.length} skills; at most ${MAX_PLUGIN_SKILLS}`];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const name of skills) {
    if (typeof name !== 'string' || name.trim() === '') out.push(`${at}.skills contains an empty name`);
    else if (seen.has(name)) out.push(`${at}.skills names ${goQuote(name)} twice`);
    else seen.add(name);
  }
  return out;
}

/** Every problem with a plugins list (inventory 5.5, the original's texts); `[]` when fine or absent. */
export function pluginsViolations(plugins: Line2Spec['plugins'] | unknown): string[] {
  if (plugins === undefined || plugins === null) return [];
  if (!Array.isArray(plugins)) return ['plugins must be a list of {git: {url, commit} | oci, path?, skills}'];
  if (plugins.length > MAX_PLUGINS) {
    return [`plugins has ${plugins.length} entries; the agent chart accepts at most ${MAX_PLUGINS}`];
  }
  return plugins.flatMap((plugin: unknown, i) => {
    const at = `plugins[${i}]`;
    if (typeof plugin !== 'object' || plugin === null) return [`${at} must be an object {git | oci, path?, skills}`];
    const entry = asObject(plugin);
    const path = pathViolation(at, entry.path);
    return [...sourceViolations(at, entry), ...(path ? [path] : []), ...skillNameViolations(at, entry.skills)];
  });
}
