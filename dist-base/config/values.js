/** A value that does not parse; `message` is the reason, without flag or value. */
export class ValueError extends Error {
    name = 'ValueError';
}
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);
/** A whole number of things, 0 or more, in decimal digits (at most 9 of them). */
export function parseCount(text) {
    if (!/^[0-9]{1,9}$/.test(text))
        throw new ValueError('not a count (want a whole number such as 0 or 10)');
    return Number(text);
}
/** Go `strconv.ParseBool`. */
export function parseGoBool(text) {
    if (GO_TRUE.has(text))
        return true;
    if (GO_FALSE.has(text))
        return false;
    throw new ValueError('not a bool (want true or false; 1, t, T, TRUE, True, 0, f, F, FALSE, False also work)');
}
// Nanoseconds per unit, as Go's time package spells units.
const UNIT_NS = {
    ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9,
};
const SEGMENT = /^(\d*)(?:\.(\d*))?([^\d.]*)/;
// Go durations are int64 nanoseconds.
const MAX_NS = 2 ** 63;
/** Go `time.ParseDuration`: a sequence of decimal numbers with units, e.g. 1h30m, 1.5s, 500ms; `0` alone. */
export function parseGoDuration(text) {
    const bad = new ValueError('not a duration (want Go syntax such as 10m, 1h30m, 500ms or 0)');
    let rest = text;
    let sign = 1;
    if (rest.startsWith('-') || rest.startsWith('+')) {
        sign = rest.startsWith('-') ? -1 : 1;
        rest = rest.slice(1);
    }
    if (rest === '0')
        return { text, ms: 0 };
    if (rest === '')
        throw bad;
    let ns = 0;
    while (rest !== '') {
        const m = SEGMENT.exec(rest);
        const [whole, int = '', frac, unit = ''] = m ?? [];
        if (!whole || (int === '' && (frac === undefined || frac === '')))
            throw bad;
        const perUnit = UNIT_NS[unit];
        if (perUnit === undefined)
            throw bad;
        ns += Number(`${int || '0'}.${frac ?? '0'}`) * perUnit;
        rest = rest.slice(whole.length);
    }
    if (ns >= MAX_NS)
        throw new ValueError('duration out of range (at most about 2562047h)');
    return { text, ms: (sign * ns) / 1e6 };
}
/** Go `net.Listen` style `host:port`: `:8080`, `127.0.0.1:0`, `[::1]:9464`, `localhost:8080`. */
export function parseListenAddress(text) {
    const bad = new ValueError('not a listen address (want host:port such as :8080, 127.0.0.1:8080 or [::1]:8080)');
    const colon = text.lastIndexOf(':');
    if (colon < 0)
        throw bad;
    let host = text.slice(0, colon);
    const portText = text.slice(colon + 1);
    if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
        throw bad;
    if (host.startsWith('[') || host.endsWith(']')) {
        if (!(host.startsWith('[') && host.endsWith(']')) || !host.slice(1, -1).includes(':'))
            throw bad;
        host = host.slice(1, -1);
    }
    else if (host.includes(':') || /\s|\//.test(host)) {
        // A bare IPv6 address must be bracketed, as Go requires.
        throw bad;
    }
    return { host: host === '' ? undefined : host, port: Number(portText) };
}
/** Comma-separated list: items trimmed, empty items dropped. */
export function splitList(text) {
    return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}
/** An absolute http or https URL with a host. Returns it unchanged. */
export function checkHttpUrl(text) {
    let url;
    try {
        url = new URL(text);
    }
    catch {
        throw new ValueError('not a URL (want an absolute http or https URL)');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new ValueError('not an http or https URL');
    if (url.hostname === '')
        throw new ValueError('URL has no host');
    return text;
}
/**
 * A browser origin as a browser sends it in `Origin`: `http(s)://host[:port]`, without
 * user info, path, query or fragment (one trailing `/` is tolerated). Returns it
 * normalised as browsers write it (`https://Portal.Example.com:443/` gives
 * `https://portal.example.com`), so it compares equal to the header.
 */
export function parseBrowserOrigin(text) {
    const want = 'want http(s)://host[:port] such as https://portal.example.com';
    if (!URL.canParse(text))
        throw new ValueError(`not an origin (${want})`);
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw new ValueError(`not an http or https origin (${want})`);
    }
    if (url.hostname === '')
        throw new ValueError(`origin has no host (${want})`);
    // The WHATWG parser accepts `*` in a host name; a browser never sends one, so a
    // wildcard here would silently match nothing.
    if (url.hostname.includes('*'))
        throw new ValueError(`wildcards are not supported: list each origin (${want})`);
    if (url.username !== '' || url.password !== '' || url.pathname !== '/' || /[?#]/.test(text)) {
        throw new ValueError(`an origin has no user info, path, query or fragment (${want})`);
    }
    return url.origin;
}
/**
 * `oci://<registry>/<repository>`, the form the chart resolver and the OCIRepository take.
 * Throws the text clients already match on: `chart URL "x" must look like oci://<registry>/<repository>`.
 */
export function checkOciUrl(text) {
    const bad = new ValueError(`chart URL ${JSON.stringify(text)} must look like oci://<registry>/<repository>`);
    if (!text.startsWith('oci://'))
        throw bad;
    const rest = text.slice('oci://'.length);
    const slash = rest.indexOf('/');
    if (slash <= 0)
        throw bad;
    const registry = rest.slice(0, slash);
    const segments = rest.slice(slash + 1).split('/');
    // A tag or digest belongs in the semver range, not the URL; the chart name is the last segment.
    if (/[\s@/]/.test(registry) || segments.some((s) => s === '' || /[\s@:]/.test(s)))
        throw bad;
    return text;
}
/** Loopback host names for the OAuth base URL rule. */
export function isLoopbackHost(hostname) {
    return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname === '::1';
}
//# sourceMappingURL=values.js.map