/**
 * The hooks metrics and tracing hang on every service operation see each operation of the
 * table under its tool name, and as a write exactly when its tool is not read-only: so an
 * operation added to the table (the revision reads, rollback_agent, …) is counted and
 * traced like the others without touching the hooks.
 */
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../identity/caller.js';
import { pino } from 'pino';
import { OPERATIONS } from '../transport/operations.js';
import { FakeService } from '../../test/support/transport/fake-service.js';
import { instrumentService, type OperationCall } from './instrumented-service.js';

const ctx: RequestContext = { requestId: 'r', log: pino({ level: 'silent' }) };
const INPUT = { name: 'sre', namespace: 'kagent', revision: 1, toolset: ['preset:none'], modelConfig: 'm' };

describe('instrumentService over the operation table', () => {
  it.each(OPERATIONS.map((o) => [o.tool, o] as const))('hooks %s under its tool name, a write exactly when it is not read-only', async (tool, operation) => {
    const calls: OperationCall[] = [];
    const service = instrumentService(new FakeService(), [(call, run) => {
      calls.push(call);
      return run();
    }]);
    await operation.run(service, ctx, INPUT as never);
    expect(calls).toEqual([{ name: tool, write: !operation.annotations.readOnlyHint }]);
  });
});
