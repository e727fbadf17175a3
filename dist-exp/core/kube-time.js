/**
 * Kubernetes timestamps as the status read model reports them: UTC to the second,
 * `YYYY-MM-DDTHH:MM:SSZ` (Go's `Format("2006-01-02T15:04:05Z")`). Pure: it reads plain JSON
 * strings (RFC 3339, with or without fractional seconds, as `eventTime` has them) and the
 * `Date` objects @kubernetes/client-node's typed APIs hand out.
 */
// Kubernetes objects repeat the same few timestamps on every read (a condition's
// lastTransitionTime changes only when the condition does), so strings are formatted
// once: parsing and re-printing a date is most of what reading a condition costs in a
// list of hundreds of agents. Bounded: cleared when full.
const FORMATTED = new Map();
const MAX_FORMATTED = 20_000;
/**
 * `value` as `YYYY-MM-DDTHH:MM:SSZ` in UTC, fractional seconds cut off (not rounded, as Go
 * formats), or undefined when it is absent or not a time.
 */
export function formatKubeTime(value) {
    if (typeof value === 'string') {
        if (value === '')
            return undefined;
        if (FORMATTED.has(value))
            return FORMATTED.get(value);
        const formatted = formatMs(Date.parse(value));
        if (FORMATTED.size >= MAX_FORMATTED)
            FORMATTED.clear();
        FORMATTED.set(value, formatted);
        return formatted;
    }
    return value instanceof Date ? formatMs(value.getTime()) : undefined;
}
function formatMs(ms) {
    if (!Number.isFinite(ms))
        return undefined;
    const iso = new Date(ms).toISOString();
    // toISOString always has milliseconds; only four-digit years have the plain shape.
    return /^\d{4}-/.test(iso) ? iso.replace(/\.\d{3}Z$/, 'Z') : undefined;
}
//# sourceMappingURL=kube-time.js.map