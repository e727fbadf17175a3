/**
 * Agent names: a DNS-1123 label, because the name becomes the HelmRelease, the Agent CR,
 * the Deployment and the `kagent=<name>` pod label. The texts are the Go service's
 * (`ValidateName`), quoted with Go's `%q`.
 *
 * Applied on create, update, delete and status; not on get or list, where a bad name simply
 * finds nothing (404). Names are never derived from `displayName`.
 */
import { invalid } from './errors.js';
import { goQuote } from './go-quote.js';
/** The longest name, in bytes of UTF-8 (Go's `len`), as Kubernetes limits a label. */
export const MAX_NAME_BYTES = 63;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const utf8 = new TextEncoder();
/**
 * What is wrong with `name` (the message without the `invalid request: ` prefix, as
 * validate_agent lists it), or undefined when it is a valid agent name. An absent name is
 * the same as an empty one.
 */
export function nameViolation(name) {
    if (name === undefined || name === null || name === '')
        return 'name is required';
    // Bytes, not characters: the Go check is len(name), so "ü" counts twice.
    if (utf8.encode(name).length > MAX_NAME_BYTES) {
        return `name ${goQuote(name)} is longer than ${MAX_NAME_BYTES} characters`;
    }
    if (!DNS1123_LABEL.test(name)) {
        return `name ${goQuote(name)} must be a DNS-1123 label: lowercase letters, digits and '-', starting and ` +
            `ending alphanumeric`;
    }
    return undefined;
}
/** Throws `invalid_request` (400) with the Go service's text when `name` is not a valid agent name. */
export function validateName(name) {
    const violation = nameViolation(name);
    if (violation !== undefined)
        throw invalid(violation);
}
/** The longest name any Kubernetes object of ours (a custom resource) can have. */
export const MAX_OBJECT_NAME_LENGTH = 253;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/**
 * True when `name` can be the name of an Agent CR or a HelmRelease: a DNS-1123 subdomain
 * of at most 253 characters, as the API server requires of custom resources. get_agent
 * checks no name rule, but a name that fails this one cannot exist, so it is answered
 * "not found" without asking: asked, the API server would read `""` or `.` as the
 * collection path, and a very long name as a URL it refuses.
 */
export function isObjectName(name) {
    return name.length <= MAX_OBJECT_NAME_LENGTH && DNS1123_SUBDOMAIN.test(name);
}
//# sourceMappingURL=names.js.map