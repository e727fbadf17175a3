/**
 * The agent chart's template guard on `toolset`: the chart renders it as the `X-Muster-Toolset` header
 * and `fail`s a value muster could not read. The rules are the chart's published ones (values.schema.json):
 * a non-empty list of at most 32 `preset:`/`server:`/`workflow:`/`tool:` selectors, names without
 * whitespace or commas; `toolset:` is reserved and `label:` exists only inside presets.
 */
import { isStringList } from '../../api/json.js';

/** The header the rendered muster binding carries the toolset in. */
export const TOOLSET_HEADER = 'X-Muster-Toolset';
/** The inline cap of the chart (inclusive). */
export const MAX_INLINE_SELECTORS = 32;

// Go regexp's \s is TAB, LF, FF, CR and SPACE only; `$` is the end of the text.
const SELECTOR = /^(preset|server|workflow|tool):[^\t\n\f\r ,]+$/;

/** The header value of a toolset. */
export function toolsetHeader(selectors: readonly string[]): string {
  return selectors.join(',');
}

/** Why the chart's template fails on this toolset value, or undefined (unset renders no header). */
export function toolsetRenderFailure(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isStringList(value)) {
    return 'toolset must be a list of selector strings';
  }
  if (value.length === 0) return 'toolset is empty; say ["preset:none"] for an agent without tools';
  if (value.length > MAX_INLINE_SELECTORS) {
    return `toolset has ${value.length} selectors, more than ${MAX_INLINE_SELECTORS} inline; define a preset`;
  }
  for (const selector of value) {
    if (selector.startsWith('toolset:')) {
      return `toolset selector ${JSON.stringify(selector)}: the toolset: prefix is reserved`;
    }
    if (selector.startsWith('label:')) {
      return `toolset selector ${JSON.stringify(selector)}: label: selectors exist only inside presets`;
    }
    if (!SELECTOR.test(selector)) {
      return `toolset selector ${JSON.stringify(selector)} is not preset:, server:, workflow: or tool: ` +
        `followed by a name`;
    }
  }
  return undefined;
}
