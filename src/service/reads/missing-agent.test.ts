/**
 * Every operation on one agent that does not exist answers the same 404: `not found: agent
 * <ns>/<name>` first, as clients compare it, then the next step, list_agents, as a missing
 * revision names list_agent_revisions and a missing session list_sessions.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import type { AgentService } from '../agent-service.js';
import { startFakeServiceFixture } from '../../../test/support/service/fake-fixture.js';

const f = startFakeServiceFixture();
const nope = { name: 'nope' };

const CALLS: [string, (s: AgentService) => Promise<unknown>][] = [
  ['get_agent', (s) => s.getAgent(f.ctx(), nope)],
  ['get_agent_status', (s) => s.getAgentStatus(f.ctx(), nope)],
  ['update_agent', (s) => s.updateAgent(f.ctx(), { ...nope, description: 'd' })],
  ['delete_agent', (s) => s.deleteAgent(f.ctx(), nope)],
  ['validate_agent in update mode', (s) => s.validateAgent(f.ctx(), { mode: 'update', update: { ...nope, description: 'd' } })],
  ['list_agent_revisions', (s) => s.listAgentRevisions(f.ctx(), nope)],
  ['get_agent_revision', (s) => s.getAgentRevision(f.ctx(), { ...nope, revision: 1 })],
  ['rollback_agent', (s) => s.rollbackAgent(f.ctx(), { ...nope, revision: 1 })],
];

describe('an operation on an agent that does not exist', () => {
  it.each(CALLS)('%s answers 404 "not found: agent kagent/nope" and says to call list_agents', async (_tool, call) => {
    const err = await call(f.service).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'not_found' });
    const { message } = err as AppError;
    expect(message.startsWith('not found: agent kagent/nope')).toBe(true);
    expect(message).toMatch(/\(list_agents lists the agents there are\)$/);
  });
});
