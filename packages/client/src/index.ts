/**
 * @agent-manager/client: a typed REST client of agent-manager, generated from api/openapi.yaml.
 * `createAgentManagerClient` gives openapi-fetch's typed calls for every operation; `unwrap` turns
 * an answer into its data or an `AgentManagerError`; `watchAgentStatus` follows the status stream.
 */
export { createAgentManagerClient, type AgentManagerClient, type AgentManagerClientOptions } from './client.js';
export { AgentManagerError, toAgentManagerError, unwrap, type ErrorBody, type ErrorCode } from './errors.js';
export { watchAgentStatus, type StatusEvent, type WatchOptions } from './watch.js';
export type { components, operations, paths } from './openapi.generated.js';

import type { components } from './openapi.generated.js';
/** The create body. */
export type Spec = components['schemas']['Spec'];
/** The PATCH body. */
export type Update = components['schemas']['Update'];
/** One agent, as get answers it. */
export type Agent = components['schemas']['Agent'];
