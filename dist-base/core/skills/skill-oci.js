/**
 * An OCI skill reference: `<host>[:port]/<repository>[:<tag>][@sha256:<digest>]`, the
 * image reference grammar of the OCI distribution spec with the registry host required
 * (a skill is never pulled from an implied default registry). The host is the first
 * segment when it holds a `.` or a `:` or is `localhost`, as container tooling decides
 * it. Pure.
 */
import { goQuote } from '../go-quote.js';
const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
/** The parts of `text`, or the error saying what is wrong with it. */
export function parseSkillOci(text) {
    const quoted = `OCI reference ${goQuote(text)}`;
    let rest = text.trim();
    let digest;
    const at = rest.indexOf('@');
    if (at !== -1) {
        digest = rest.slice(at + 1);
        rest = rest.slice(0, at);
        if (!DIGEST.test(digest))
            return { error: `${quoted}: digest must be sha256:<64 hex digits>` };
    }
    const slash = rest.indexOf('/');
    const host = slash === -1 ? rest : rest.slice(0, slash);
    if (!(host.includes('.') || host.includes(':') || host === 'localhost') || host.startsWith('.')) {
        return { error: `${quoted} must start with the registry host (e.g. registry.example.io/skills/runbooks:1.4.0)` };
    }
    let path = slash === -1 ? '' : rest.slice(slash + 1);
    let tag;
    const colon = path.lastIndexOf(':');
    if (colon !== -1) {
        tag = path.slice(colon + 1);
        path = path.slice(0, colon);
        if (!TAG.test(tag))
            return { error: `${quoted}: tag ${goQuote(tag)} must be letters, digits, "_", "." and "-" ` +
                    `(at most 128, not starting with "." or "-")` };
    }
    if (path === '')
        return { error: `${quoted} has no repository` };
    if (!path.split('/').every((c) => COMPONENT.test(c))) {
        return { error: `${quoted}: repository ${goQuote(path)} must be lowercase path components (letters, digits and ` +
                `single separators ".", "_", "-")` };
    }
    return {
        registry: host, repository: path, ...(tag !== undefined ? { tag } : {}),
        ...(digest !== undefined ? { digest } : {}),
    };
}
/** The digest-pinned form written to the values: `<host>/<repository>@<digest>`. */
export function pinnedOci(reference, digest) {
    return `${reference.registry}/${reference.repository}@${digest}`;
}
//# sourceMappingURL=skill-oci.js.map