/**
 * Kubernetes timestamps as the status read model reports them: UTC to the second,
 * `YYYY-MM-DDTHH:MM:SSZ` (Go's `Format("2006-01-02T15:04:05Z")`). Pure: it reads plain JSON
 * strings (RFC 3339, with or without fractional seconds, as `eventTime` has them) and the
 * `Date` objects @kubernetes/client-node's typed APIs hand out.
 */

/**
 * `value` as `YYYY-MM-DDTHH:MM:SSZ` in UTC, fractional seconds cut off (not rounded, as Go
 * formats), or undefined when it is absent or not a time.
 */
export function formatKubeTime(value: unknown): string | undefined {
  let ms: number;
  if (value instanceof Date) ms = value.getTime();
  else if (typeof value === 'string' && value !== '') ms = Date.parse(value);
  else return undefined;
  if (!Number.isFinite(ms)) return undefined;
  const iso = new Date(ms).toISOString();
  // toISOString always has milliseconds; only four-digit years have the plain shape.
  return /^\d{4}-/.test(iso) ? iso.replace(/\.\d{3}Z$/, 'Z') : undefined;
}
