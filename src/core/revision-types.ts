/**
 * The wire shapes of an agent's revision history (list_agent_revisions,
 * get_agent_revision, rollback_agent). Re-exported by core/types.ts, the one place the
 * transports import wire shapes from.
 */
import type { Manifests, SkillsSpec, UpdateResult } from './types.js';

/** The operation that made a revision. */
export type RevisionOperation = 'create' | 'update' | 'rollback';

/** The curated fields of an agent as a revision keeps them: create_agent's arguments without name and namespace. */
export interface RevisionSpec {
  displayName?: string;
  description?: string;
  systemMessage?: string;
  modelConfig?: string;
  toolset?: string[];
  skills?: SkillsSpec;
  runtime?: string;
  iconUrl?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/**
 * One entry of list_agent_revisions. `revision: null` (with `current: true`) stands for
 * a live release changed outside agent-manager since its newest revision; `changed`
 * then lists what differs from that revision.
 */
export interface RevisionEntry {
  revision: number | null;
  createdAt?: string;
  requestedBy?: string;
  operation?: RevisionOperation;
  rolledBackTo?: number;
  changed: string[];
  /** What Flux reports for these values: the chart version and Helm status of the release that deployed them. */
  chartVersion?: string;
  status?: string;
  current?: boolean;
}

/** get_agent_revision: the entry plus what the revision recorded and how it differs from the live agent. */
export interface RevisionDetail extends RevisionEntry {
  revision: number;
  spec: RevisionSpec;
  values: Record<string, unknown>;
  manifests: Manifests;
  /** The dotted value paths where the live release differs from this revision. */
  diff: string[];
}

/**
 * rollback_agent: the update result, the revision it recorded and the one it went back to.
 * A rollback is always a live write (there is no commit mode for it), so it has no mode or commit.
 */
export interface RollbackResult extends Omit<UpdateResult, 'mode' | 'commit'> {
  rolledBackTo: number;
}
