/**
 * Request counters of the sandbox API server: how many requests each verb, resource and
 * user made, so a test or benchmark can state what an operation costs in API round trips
 * ("creating an agent is 2 creates and 1 get"). Every authenticated request is counted,
 * including refused ones; discovery and other non-resource paths count under the
 * resource `(discovery)`. Readable in-process and at `GET /sandbox/counters`.
 */

/** One counted request. `resource` is `plural[.group][/subresource]`, e.g.
 * `helmreleases.helm.toolkit.fluxcd.io/status`. */
export interface RequestRecord {
  readonly verb: string;
  readonly resource: string;
  readonly user: string;
}

/** Counts at one moment. */
export interface CounterSnapshot {
  total: number;
  byVerb: Record<string, number>;
  byResource: Record<string, number>;
  byUser: Record<string, number>;
  /** Every (verb, resource, user) combination seen, with its count, sorted. */
  entries: Array<RequestRecord & { count: number }>;
}

/** The resource label non-resource requests are counted under. */
export const DISCOVERY = '(discovery)';

const SEP = '\u0000';

export class RequestCounters {
  private readonly counts = new Map<string, number>();

  record(r: RequestRecord): void {
    const key = [r.verb, r.resource, r.user].join(SEP);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** Requests matching every given field (all requests when the filter is empty). */
  count(filter: Partial<RequestRecord> = {}): number {
    let n = 0;
    for (const [key, count] of this.counts) {
      const [verb = '', resource = '', user = ''] = key.split(SEP);
      if ((filter.verb === undefined || filter.verb === verb)
        && (filter.resource === undefined || filter.resource === resource)
        && (filter.user === undefined || filter.user === user)) n += count;
    }
    return n;
  }

  snapshot(): CounterSnapshot {
    const snap: CounterSnapshot = { total: 0, byVerb: {}, byResource: {}, byUser: {}, entries: [] };
    for (const [key, count] of [...this.counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const [verb = '', resource = '', user = ''] = key.split(SEP);
      snap.total += count;
      snap.byVerb[verb] = (snap.byVerb[verb] ?? 0) + count;
      snap.byResource[resource] = (snap.byResource[resource] ?? 0) + count;
      snap.byUser[user] = (snap.byUser[user] ?? 0) + count;
      snap.entries.push({ verb, resource, user, count });
    }
    return snap;
  }

  reset(): void {
    this.counts.clear();
  }
}
