/**
 * The YAML frontmatter of a `SKILL.md`: the block between a leading `---` line and the
 * next `---` line. Skill files come from any repository a caller names, so the parser
 * never throws: a missing, unterminated or malformed block is simply no frontmatter, and
 * only string values are kept (a list or a number where a name belongs is ignored).
 */
import { isJsonObject } from '../core/json.js';
import { parse } from 'yaml';

const BOM = '\ufeff';
const FENCE = /^---[ \t]*$/;

/** The string values of `text`'s frontmatter; `{}` when it has none (or none that parses). */
export function parseFrontmatter(text: string): Record<string, string> {
  const lines = (text.startsWith(BOM) ? text.slice(BOM.length) : text).split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) return {};
  const end = lines.findIndex((line, i) => i > 0 && FENCE.test(line));
  if (end < 0) return {};
  let data: unknown;
  try {
    // maxAliasCount bounds alias expansion, so a hostile file cannot blow up memory.
    data = parse(lines.slice(1, end).join('\n'), { maxAliasCount: 50, uniqueKeys: false });
  } catch {
    return {};
  }
  if (!isJsonObject(data)) return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}
