import { describe, expect, it } from 'vitest';
import type { GuardVerdict } from '../guards/claude-guard.js';
import { AppError } from '../errors.js';
import {
  createFailure, createNameRefusal, createSpecRefusal, decideCreate, type CreateFacts,
} from './create-decision.js';

const URL = 'oci://gsoci.azurecr.io/charts/giantswarm/agent';
const values = { agent: { name: 'sre' }, modelConfig: { name: 'default-model-config' } };
const facts = (extra: Partial<CreateFacts> = {}): CreateFacts => ({
  dryRun: false, guarded: { values }, chartOciUrl: URL, notes: [], source: { live: true, url: URL }, ...extra,
});
const name = { namespace: 'kagent', name: 'sre', bareAgent: false };

describe('createNameRefusal', () => {
  it('lets a free name through', () => {
    expect(createNameRefusal(name)).toBeUndefined();
  });

  it('refuses a name a live release has, pointing at update_agent', () => {
    expect(createNameRefusal({ ...name, release: { live: true } })?.error).toMatchObject({
      code: 'conflict', detail: 'HelmRelease kagent/sre already exists; use update_agent to change it',
    });
  });

  it('refuses a name whose release is being deleted, saying to retry once it is gone', () => {
    expect(createNameRefusal({ ...name, release: { live: false }, bareAgent: true })?.error.detail)
      .toBe('HelmRelease kagent/sre is being deleted; retry create_agent once it is gone');
  });

  it('refuses a name a bare Agent CR has', () => {
    expect(createNameRefusal({ ...name, bareAgent: true })?.error.detail)
      .toContain('Agent kagent/sre already exists without a HelmRelease (a bare CR)');
  });
});

describe('createSpecRefusal', () => {
  it('refuses what the chart line refuses before what the ModelConfigs do', () => {
    expect(createSpecRefusal({ lineProblem: 'line', modelConfigProblem: 'model' })?.error)
      .toMatchObject({ code: 'invalid_request', detail: 'line' });
    expect(createSpecRefusal({ modelConfigProblem: 'model' })?.error.detail).toBe('model');
  });

  it('lets a spec with neither problem through', () => {
    expect(createSpecRefusal({})).toBeUndefined();
  });
});

describe('decideCreate', () => {
  it('applies the guarded values, reusing a live source of the installation\'s chart', () => {
    const guard: GuardVerdict = { harness: 'claude', caller: 'jane', checkedAt: '2026-12-06T20:00:00Z', tools: [] };
    expect(decideCreate(facts({ guarded: { values, guard }, notes: ['n'] }))).toEqual({
      kind: 'apply', values, guard, source: 'reuse', dryRun: false, notes: ['n'],
    });
  });

  it('ensures the source when there is none or it is being deleted, and dry-runs it in a dry run', () => {
    expect(decideCreate(facts({ source: undefined }))).toMatchObject({ source: 'ensure' });
    expect(decideCreate(facts({ source: { live: false, url: URL } }))).toMatchObject({ source: 'ensure' });
    expect(decideCreate(facts({ source: undefined, dryRun: true }))).toMatchObject({ source: 'dry-run', dryRun: true });
  });

  it('reuses a live source that points elsewhere, saying so', () => {
    expect(decideCreate(facts({ source: { live: true, url: 'oci://elsewhere/agent' } })))
      .toMatchObject({ source: 'reuse-elsewhere' });
  });

  it('proposes the values in commit mode', () => {
    expect(decideCreate(facts({ mode: 'commit', notes: ['n'] }))).toEqual({ kind: 'commit', values, notes: ['n'] });
  });

  it('refuses with the guards\' code and first reason before the schema is heard', () => {
    const decision = decideCreate(facts({
      guarded: { refuse: { code: 'backend_error', reasons: ['muster is down', 'and more'] } }, schemaProblem: 'bad',
    }));
    expect(decision).toMatchObject({ kind: 'refuse', error: { code: 'backend_error', detail: 'muster is down' } });
  });

  it('refuses values the chart schema refuses, in either mode', () => {
    for (const mode of ['apply', 'commit'] as const) {
      expect(decideCreate(facts({ mode, schemaProblem: 'values do not match' })))
        .toMatchObject({ kind: 'refuse', error: { code: 'invalid_request', detail: 'values do not match' } });
    }
  });
});

describe('createFailure', () => {
  const failed = { namespace: 'kagent', name: 'sre', sourceCreated: true, dryRun: false, definite: true, conflict: false };

  it('removes a source it created when the API server refused the release', () => {
    expect(createFailure(failed)).toEqual({ removeSource: true });
  });

  it('keeps the source when the outcome is unknown, in a dry run, or when it was not created here', () => {
    expect(createFailure({ ...failed, definite: false }).removeSource).toBe(false);
    expect(createFailure({ ...failed, dryRun: true }).removeSource).toBe(false);
    expect(createFailure({ ...failed, sourceCreated: false }).removeSource).toBe(false);
  });

  it('answers a 409 as the name taken, or as another cluster\'s agent owning the placed name', () => {
    expect(createFailure({ ...failed, conflict: true }).error?.detail)
      .toBe('HelmRelease kagent/sre already exists; use update_agent to change it');
    const placedTaken = new AppError('conflict', 'placed');
    expect(createFailure({ ...failed, conflict: true, placedTaken }).error).toBe(placedTaken);
  });
});
