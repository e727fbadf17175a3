// autocannon setupRequest for `POST /api/v1/agents` in worker threads: every request
// creates an agent with a name no other request (of any worker or run) uses. The run's
// prefix and namespace come from the environment the bench sets before each run.
// CommonJS because autocannon require()s it inside its worker threads.
/* global module, require */
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { threadId } = require('node:worker_threads');

let n = 0;
const prefix = `${process.env.BENCH_CREATE_PREFIX || 'c'}-${threadId}`;
const namespace = process.env.BENCH_CREATE_NAMESPACE || 'kagent';

module.exports = (request) => ({
  ...request,
  body: JSON.stringify({ name: `${prefix}-${n++}`, namespace, modelConfig: 'default-model-config', toolset: ['preset:none'] }),
});
