// `npm start`: the build (scripts/build.mjs, which does only what changed), then
// `agent-manager serve --sandbox` with the arguments npm passes on, in this one process:
// starting Node a second time for the service was a tenth of the time to a healthy server.
// On a failed build, build() exits with TypeScript's status before anything is served.
const { build } = await import('./build.mjs');
await build();
const { runMain } = await import('../dist/main.js');
await runMain(['serve', '--sandbox', ...process.argv.slice(2)]);
