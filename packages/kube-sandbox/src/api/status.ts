/**
 * The `Status` object kube-apiserver answers every failed request with, and the
 * constructors for each reason the sandbox produces. Messages follow the real server's
 * forms word for word (`helmreleases.helm.toolkit.fluxcd.io "sre" not found`,
 * `Operation cannot be fulfilled on …`), because clients and people match on them.
 * Everything the sandbox rejects is thrown as a `StatusError` and rendered by the server.
 */
import { aggregate, fieldErrorBody, type FieldError } from './field-errors.js';

/** One cause of a failure (metav1.StatusCause). */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** metav1.StatusDetails. `kind` is the resource (plural) for most reasons, the Kind for Invalid. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** metav1.Status as served on the wire. */
export interface KubeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** A resource type as errors name it: `helmreleases.helm.toolkit.fluxcd.io`, `pods`. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** A kind as Invalid errors name it: `HelmRelease.helm.toolkit.fluxcd.io`, `Pod`. */
export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

/** The text the real server uses for a stale resourceVersion. */
export const OPTIMISTIC_LOCK_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

/** `resource.group`, or the bare resource for the core group. */
export function groupResourceString(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

/** `Kind.group`, or the bare kind for the core group. */
export function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** A failure the server renders as its Status body and HTTP code. */
export class StatusError extends Error {
  override readonly name = 'StatusError';
  readonly status: KubeStatus;

  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
    if (details) this.status.details = details;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): string {
    return this.status.reason ?? '';
  }
}

const REASON_BY_CODE: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed',
  406: 'NotAcceptable', 409: 'Conflict', 410: 'Expired', 413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType', 422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError',
  503: 'ServiceUnavailable', 504: 'Timeout',
};

/** A Status for an arbitrary HTTP code, with the reason the real server pairs it with. */
export function statusForCode(code: number, message: string): StatusError {
  return new StatusError(code, REASON_BY_CODE[code] ?? 'Unknown', message);
}

const detailsFor = (gr: GroupResource, name: string): StatusDetails => ({
  name, group: gr.group || undefined, kind: gr.resource,
});

export const statusErrors = {
  notFound: (gr: GroupResource, name: string): StatusError =>
    new StatusError(404, 'NotFound', `${groupResourceString(gr)} "${name}" not found`, detailsFor(gr, name)),

  alreadyExists: (gr: GroupResource, name: string): StatusError =>
    new StatusError(409, 'AlreadyExists', `${groupResourceString(gr)} "${name}" already exists`, detailsFor(gr, name)),

  conflict: (gr: GroupResource, name: string, why: string = OPTIMISTIC_LOCK_MESSAGE): StatusError =>
    new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${groupResourceString(gr)} "${name}": ${why}`,
      detailsFor(gr, name)),

  invalid: (gk: GroupKind, name: string, errors: readonly FieldError[]): StatusError =>
    new StatusError(422, 'Invalid', `${groupKindString(gk)} "${name}" is invalid: ${aggregate(errors)}`, {
      name, group: gk.group || undefined, kind: gk.kind,
      causes: errors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
    }),

  badRequest: (message: string): StatusError => new StatusError(400, 'BadRequest', message),

  methodNotAllowed: (gr?: GroupResource): StatusError =>
    new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource',
      gr ? { group: gr.group || undefined, kind: gr.resource } : undefined),

  unauthorized: (): StatusError => new StatusError(401, 'Unauthorized', 'Unauthorized'),

  /** `subject` is `pods "x"`, `helmreleases.helm.toolkit.fluxcd.io` or '' for non-resource paths. */
  forbidden: (subject: string, why: string, gr?: GroupResource, name?: string): StatusError =>
    new StatusError(403, 'Forbidden', subject ? `${subject} is forbidden: ${why}` : `forbidden: ${why}`,
      gr ? { name: name || undefined, group: gr.group || undefined, kind: gr.resource } : undefined),

  expired: (message: string): StatusError => new StatusError(410, 'Expired', message),

  /** A list or watch from a resourceVersion the store has not reached (the watch cache's answer). */
  tooLargeResourceVersion: (wanted: number, current: number): StatusError =>
    new StatusError(504, 'Timeout', `Too large resource version: ${wanted}, current: ${current}`, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1,
    }),

  unsupportedMediaType: (accepted: readonly string[]): StatusError =>
    new StatusError(415, 'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`),

  notAcceptable: (accepted: readonly string[] = ['application/json', 'application/yaml']): StatusError =>
    new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`),

  pathNotFound: (): StatusError =>
    new StatusError(404, 'NotFound', 'the server could not find the requested resource', {}),

  internal: (message: string): StatusError =>
    new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }),

  applyConflict: (message: string, causes: StatusCause[]): StatusError =>
    new StatusError(409, 'Conflict', message, { causes }),
};

/**
 * The Status body of a successful delete that returns no object, as the generic store
 * builds it: status Success and the details, no code (the HTTP status says 200).
 */
export function successStatus(gr: GroupResource, name: string, uid: string): Omit<KubeStatus, 'code'> {
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
    details: { name, group: gr.group || undefined, kind: gr.resource, uid },
  };
}
