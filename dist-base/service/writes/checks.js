/**
 * The checks create, update and validate share, as violations (strings without the
 * `invalid request: ` prefix) so validate_agent can collect them and the writes can
 * refuse with the first one.
 */
import { isSet } from '../../core/compose.js';
import { goQuote } from '../../core/go-quote.js';
import { schemaErrorText, valuesViolations } from '../../core/values-schema.js';
/** Why `name` is not a ModelConfig of the namespace, or undefined when it is. */
export function modelConfigViolation(namespace, name, configs) {
    if (!isSet(name))
        return 'modelConfig is required';
    const names = configs.map((c) => c.metadata.name).sort();
    if (names.includes(name))
        return undefined;
    if (names.length === 0) {
        return `modelConfig ${goQuote(name)} does not exist in namespace ${namespace}: there is no ModelConfig in ` +
            `namespace ${namespace}; ` +
            'if the namespace does not exist, create it or point --kagent-namespace or --managed-namespaces at the ' +
            'namespace kagent runs in, ' +
            'otherwise ask a platform admin to provision ModelConfigs there';
    }
    return `modelConfig ${goQuote(name)} does not exist in namespace ${namespace}; valid: ${names.join(', ')}`;
}
/** The schema violations of `values`, one line each. */
export function schemaViolations(resolved, values) {
    return valuesViolations(resolved.schema, values, { version: resolved.version, source: resolved.source });
}
/** The create/update refusal for violations, or undefined when there are none. */
export function schemaRefusal(resolved, values) {
    const violations = schemaViolations(resolved, values);
    return violations.length > 0 ? schemaErrorText(resolved.version, resolved.source, violations) : undefined;
}
//# sourceMappingURL=checks.js.map