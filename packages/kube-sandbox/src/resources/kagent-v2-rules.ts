/**
 * The CEL rules of the `api.kagent.dev/v1alpha3` kinds that a client can break and the sandbox checks
 * by hand (it evaluates no CEL), with upstream kagent's messages: a skill's or plugin's source names
 * exactly one of oci, git or bucket, and its path is relative without `..`; a Harness names exactly one
 * runtime. So a branch-pinned or two-source skill is refused at admission, as on a cluster.
 */
import { fieldError, type FieldError } from '../api/field-errors.js';
import { asObject, isObject, type JsonObject } from '../api/json.js';

function sourceErrors(source: unknown, path: string): FieldError[] {
  const s = asObject(source);
  const errors: FieldError[] = [];
  if (['oci', 'git', 'bucket'].filter((k) => k in s).length !== 1) {
    errors.push(fieldError.invalid(path, 'object', 'exactly one of oci, git or bucket must be specified'));
  }
  if (typeof s.path === 'string' && (s.path.startsWith('/') || s.path.split('/').includes('..'))) {
    errors.push(fieldError.invalid(path, 'object', 'path must be relative and must not contain \'..\' segments'));
  }
  return errors;
}

/** The Agent's rules on `spec.template.skills[].source` and `spec.template.plugins[].source`. */
export function agentV2Rules(agent: JsonObject): FieldError[] {
  const template = asObject(asObject(agent.spec).template);
  return (['skills', 'plugins'] as const).flatMap((key) =>
    (Array.isArray(template[key]) ? template[key] : []).flatMap((entry, i) =>
      isObject(entry) && 'source' in entry ? sourceErrors(entry.source, `spec.template.${key}[${i}].source`) : []));
}

/** The Harness's rule: exactly one runtime block. */
export function harnessRules(harness: JsonObject): FieldError[] {
  const spec = asObject(harness.spec);
  return ['kagent', 'codex', 'claude', 'byo'].filter((k) => k in spec).length === 1 ? []
    : [fieldError.invalid('spec', 'object', 'exactly one of kagent, codex, claude or byo must be specified')];
}
