/**
 * Kubernetes syntax of an agent's label and annotation maps (apimachinery validation: optional DNS-1123
 * prefix and `/`, a name of at most 63 characters; label values empty or such a name; annotations at
 * most 256 KiB together), checked before anything is written so a bad key is a 400 naming it instead of
 * a HelmRelease Flux fails to install.
 */
import { goQuote } from './go-quote.js';
const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const MAX_ANNOTATIONS_BYTES = 256 * 1024;
const utf8 = new TextEncoder();
const byteLength = (s) => utf8.encode(s).length;
/** Why `key` is not a qualified name, or undefined. */
function keyProblem(key) {
    const slash = key.indexOf('/');
    const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
    const name = slash >= 0 ? key.slice(slash + 1) : key;
    if (prefix !== undefined) {
        if (prefix.length === 0)
            return 'the prefix before "/" is empty';
        if (prefix.length > 253)
            return 'the prefix is longer than 253 characters';
        if (!SUBDOMAIN.test(prefix))
            return 'the prefix must be a DNS subdomain: lowercase alphanumerics, "-" and "."';
    }
    if (name.length === 0)
        return 'the name is empty';
    if (name.length > 63)
        return 'the name is longer than 63 characters';
    if (!NAME.test(name))
        return 'the name must be alphanumerics, "-", "_" or ".", starting and ending alphanumeric';
    return undefined;
}
function entries(map) {
    return map && typeof map === 'object' && !Array.isArray(map) ? Object.entries(map) : [];
}
/** Every problem of a labels map, one line each. */
export function labelsViolations(labels) {
    const out = [];
    for (const [key, value] of entries(labels)) {
        const bad = keyProblem(key);
        if (bad)
            out.push(`labels key ${goQuote(key)} is not a valid Kubernetes label key: ${bad}`);
        if (typeof value !== 'string')
            continue;
        if (value.length > 63)
            out.push(`labels[${goQuote(key)}] is longer than 63 characters (a label ` +
                `value has at most 63)`);
        else if (value !== '' && !NAME.test(value)) {
            out.push(`labels[${goQuote(key)}] value ${goQuote(value)} must be empty or alphanumerics, "-", "_" or ".", ` +
                `starting and ending alphanumeric`);
        }
    }
    return out;
}
/** Every problem of the labels and annotations of a request, one line each. */
export function metadataMapsViolations(input) {
    return [...labelsViolations(input.labels), ...annotationsViolations(input.annotations)];
}
/** Every problem of an annotations map, one line each. */
export function annotationsViolations(annotations) {
    const out = [];
    let bytes = 0;
    for (const [key, value] of entries(annotations)) {
        const bad = keyProblem(key);
        if (bad)
            out.push(`annotations key ${goQuote(key)} is not a valid Kubernetes annotation key: ${bad}`);
        bytes += byteLength(key) + (typeof value === 'string' ? byteLength(value) : 0);
    }
    if (bytes > MAX_ANNOTATIONS_BYTES) {
        out.push(`annotations hold ${bytes} bytes; Kubernetes accepts at most 262144 in all`);
    }
    return out;
}
//# sourceMappingURL=labels.js.map