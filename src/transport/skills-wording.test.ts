import { describe, expect, it } from 'vitest';
import { ARG, TOOL_DESCRIPTIONS } from './descriptions/tool-descriptions.js';
import { MCP_INSTRUCTIONS } from './mcp/instructions.js';

// list_skills reports repoUrl; a skills gitRef takes url. Every text a model reads on the way
// from one to the other says exactly how the fields map.
const MAPPING = '{url: repoUrl, path, ref}';

describe('the way from a listed skill to a gitRef', () => {
  it.each([
    ['the list_skills description', TOOL_DESCRIPTIONS.list_skills],
    ['the gitRefs argument', ARG.gitRefs],
    ['the gitRef url argument', ARG.gitRefUrl],
    ['the server instructions', MCP_INSTRUCTIONS],
  ])('is spelled out in %s', (_where, text) => {
    expect(text).toContain(MAPPING);
  });
});
