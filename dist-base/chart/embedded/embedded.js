/**
 * The agent chart values schema compiled into agent-manager: the fallback that
 * validates when the chart registry cannot be read (chart 0.5.2, the
 * chart line that renders kagent.dev/v1alpha2 Agents). The JSON sits next to this module in src/ and,
 * copied by scripts/copy-assets.mjs, next to the compiled module in dist/, so the
 * lookup relative to import.meta.url works from both.
 */
import { readFileSync } from 'node:fs';
/** The agent chart version the embedded schema belongs to. */
export const EMBEDDED_SCHEMA_VERSION = '0.5.2';
/** The parsed embedded schema; one frozen object, so its compiled validator is reused. */
export const EMBEDDED_SCHEMA = deepFreeze(JSON.parse(readFileSync(new URL('./agent-values.schema.json', import.meta.url), 'utf8')));
function deepFreeze(value) {
    if (typeof value === 'object' && value !== null) {
        for (const child of Object.values(value))
            deepFreeze(child);
        Object.freeze(value);
    }
    return value;
}
//# sourceMappingURL=embedded.js.map