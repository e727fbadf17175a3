/**
 * The query parameters (and DeleteOptions bodies) of resource requests, validated like
 * the real server: `dryRun` accepts only `All`, `fieldValidation` only Ignore, Warn or
 * Strict, `limit` and `timeoutSeconds` must be numbers. Invalid options are 422 Invalid
 * on the `<Verb>Options.meta.k8s.io` kind, as kube-apiserver reports them.
 */
import type { IncomingMessage } from 'node:http';
import { fieldError, type FieldError } from '../api/field-errors.js';
import { isObject } from '../api/json.js';
import { statusErrors } from '../api/status.js';
import type { DeleteOptions, FieldValidation, ListOptions, WriteOptions } from '../ops/op-options.js';
import type { PatchOptions } from '../ops/patch.js';
import { isTrue } from './request-info.js';

const FIELD_VALIDATIONS: readonly FieldValidation[] = ['Ignore', 'Warn', 'Strict'];

const OPTIONS_KIND: Record<string, string> =
  { create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions', delete: 'DeleteOptions',
    deletecollection: 'DeleteOptions' };

function invalidOptions(verb: string, errors: FieldError[]): Error {
  return statusErrors.invalid({ group: 'meta.k8s.io', kind: OPTIONS_KIND[verb] ?? 'ListOptions' }, '', errors);
}

function dryRunValues(values: readonly unknown[], verb: string): boolean {
  const bad = values.find((v) => v !== 'All');
  if (bad !== undefined) throw invalidOptions(verb, [fieldError.notSupported('dryRun', bad, ['All'])]);
  return values.length > 0;
}

/** Write options of create, update and patch. */
export function writeOptions(query: URLSearchParams, req: IncomingMessage, verb: string): PatchOptions {
  const opts: WriteOptions & PatchOptions = { warnings: [], userAgent: req.headers['user-agent'] };
  opts.dryRun = dryRunValues(query.getAll('dryRun'), verb);
  const manager = query.get('fieldManager');
  if (manager) opts.fieldManager = manager;
  const validation = query.get('fieldValidation');
  if (validation) {
    const chosen = FIELD_VALIDATIONS.find((known) => known === validation);
    if (!chosen) {
      throw invalidOptions(verb, [fieldError.notSupported('fieldValidation', validation,
        ['Ignore', 'Warn', 'Strict'])]);
    }
    opts.fieldValidation = chosen;
  }
  const force = query.get('force');
  if (force !== null) opts.force = isTrue(force);
  return opts;
}

function nonNegativeInt(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) {
    throw statusErrors.badRequest(`invalid value for ${name}: ${JSON.stringify(raw)}: must be a non-negative integer`);
  }
  return Number(raw);
}

/** List (and watch) options. */
export function listOptions(query: URLSearchParams, namespace: string): ListOptions & { timeoutSeconds?: number } {
  return {
    namespace,
    labelSelector: query.get('labelSelector') ?? undefined,
    fieldSelector: query.get('fieldSelector') ?? undefined,
    limit: nonNegativeInt(query, 'limit'),
    continue: query.get('continue') ?? undefined,
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
    timeoutSeconds: nonNegativeInt(query, 'timeoutSeconds'),
  };
}

/** Delete options from the query and an optional DeleteOptions body. */
export function deleteOptions(
  query: URLSearchParams, body: unknown, req: IncomingMessage, verb: string,
): DeleteOptions {
  const opts: DeleteOptions = { warnings: [], userAgent: req.headers['user-agent'] };
  const fromBody = isObject(body) ? body : {};
  const dryRun = [...query.getAll('dryRun'), ...(Array.isArray(fromBody.dryRun) ? fromBody.dryRun : [])];
  opts.dryRun = dryRunValues(dryRun, verb);
  const policy = query.get('propagationPolicy') ??
    (typeof fromBody.propagationPolicy === 'string' ? fromBody.propagationPolicy : undefined);
  // orphanDependents is the deprecated form of propagationPolicy (true: Orphan); a request may not give both.
  const orphanQuery = query.get('orphanDependents');
  const orphan = orphanQuery !== null ? orphanQuery === 'true'
    : typeof fromBody.orphanDependents === 'boolean' ? fromBody.orphanDependents : undefined;
  if (policy !== undefined && orphan !== undefined) {
    throw invalidOptions(verb, [fieldError.invalid('propagationPolicy', policy,
      'orphanDependents and deletionPropagation cannot be both set')]);
  }
  if (policy !== undefined) {
    if (!['Orphan', 'Background', 'Foreground'].includes(policy)) {
      throw invalidOptions(verb, [fieldError.notSupported('propagationPolicy', policy,
        ['Foreground', 'Background', 'Orphan', 'nil'])]);
    }
    opts.propagationPolicy = policy;
  }
  if (orphan !== undefined) opts.propagationPolicy = orphan ? 'Orphan' : 'Background';
  if (isObject(fromBody.preconditions)) {
    const { uid, resourceVersion } = fromBody.preconditions;
    opts.preconditions = {
      uid: typeof uid === 'string' ? uid : undefined,
      resourceVersion: typeof resourceVersion === 'string' ? resourceVersion : undefined,
    };
  }
  const grace = nonNegativeInt(query, 'gracePeriodSeconds') ??
    (typeof fromBody.gracePeriodSeconds === 'number' ? fromBody.gracePeriodSeconds : undefined);
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  return opts;
}
