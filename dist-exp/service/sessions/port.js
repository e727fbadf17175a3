/**
 * The port the session operations talk to agents through: the kagent controller's A2A
 * endpoint for one agent. Everything crossing it is A2A's proto3 JSON (tasks, parts,
 * `TASK_STATE_*` names), so the service never sees an SDK type and a fake is plain data.
 * The adapter (src/a2a) maps A2A and HTTP failures to AppErrors.
 */
export {};
//# sourceMappingURL=port.js.map