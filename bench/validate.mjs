// Validations per second with a warm chart resolver: the schema comes from
// RegistryChartSchemaSource (compiled once, the same object on every call) and each
// validation is `await source.schema()` + `valuesViolations()`, as a create does.
//
// Run from the built code:  npm run build:bench && node bench/validate.mjs [--seconds=2]
//
// With Debian's docker-registry installed, a real loopback registry serves chart 0.6.0
// (declares toolset) and 0.5.2 (does not); without it the embedded 0.5.2 schema answers,
// and the table says so. Each row runs for a fixed time budget, so the bench ends by itself.
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';

// The benchmarks' build (npm run build:bench): src/ with its testing/ folders.
const dist = new URL('./.tmp/dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);

const secondsArg = process.argv.find((a) => a.startsWith('--seconds='));
const SECONDS = Math.min(Math.max(Number(secondsArg?.split('=')[1] ?? process.env.BENCH_SECONDS ?? 2), 0.2), 30);

let resolverModule, valuesSchema, testing;
try {
  resolverModule = await load('chart/resolver.js');
  valuesSchema = await load('core/values-schema.js');
  testing = {
    registry: await load('chart/testing/registry-server.js'),
    push: await load('chart/testing/push-chart.js'),
    schemas: await load('chart/testing/chart-schemas.js'),
  };
} catch (err) {
  console.error(`bench/validate: build first (npm run build:bench): ${err.message}`);
  process.exit(1);
}
const { RegistryChartSchemaSource } = resolverModule;
const { valuesViolations } = valuesSchema;
const log = pino({ level: 'silent' });

const REPO = 'charts/agent';
let server;
let ociUrl = 'oci://127.0.0.1:9/charts/agent'; // nobody listens: the embedded schema answers
const { mode, reason } = testing.registry.registryTestMode();
if (mode === 'run') {
  server = await testing.registry.startRegistry();
  ociUrl = server.ociUrl(REPO);
  for (const [version, schema] of [
    ['0.5.2', testing.schemas.schemaWithoutToolset('0.5.2')],
    ['0.6.0', testing.schemas.schemaWithToolset('0.6.0')],
  ]) {
    await testing.push.pushChart({
      registryUrl: server.url, repository: REPO, tag: version, chart: { version, schema },
    });
  }
} else {
  console.log(`docker-registry unavailable (${reason}); every row uses the embedded schema`);
}

const valid = {
  agent: { name: 'sre-agent', displayName: 'SRE agent', description: 'Looks after the clusters', systemMessage: 'You are careful.', runtime: 'python' },
  modelConfig: { name: 'default-model-config' },
  toolset: ['preset:read-only', 'workflow:incident-triage'],
};
const invalid = { ...valid, agent: { ...valid.agent, name: 'Not-A-Name', runtime: 'rust' }, modelConfig: { name: '' }, bogus: 1 };

const rows = [];
try {
  for (const [semver, label, values] of [
    ['0.x', 'valid values, toolset validated', valid],
    ['0.x', 'invalid values (4 violations)', invalid],
    ['0.5.x', 'valid values, toolset left out', valid],
  ]) {
    const source = new RegistryChartSchemaSource({ ociUrl, semver, refreshMs: 600_000, log });
    const warm = await source.schema(); // resolve and compile outside the timed loop
    valuesViolations(warm.schema, values, warm);
    const schemas = new Set();
    let n = 0;
    let violations = 0;
    const end = performance.now() + SECONDS * 1000;
    const started = performance.now();
    while (performance.now() < end) {
      for (let i = 0; i < 200; i++) {
        const resolved = await source.schema();
        schemas.add(resolved.schema);
        violations = valuesViolations(resolved.schema, values, resolved).length;
        n++;
      }
    }
    const elapsed = (performance.now() - started) / 1000;
    rows.push({
      range: semver,
      schema: `${warm.version} (${warm.source})`,
      case: label,
      violations,
      'validations/s': Math.round(n / elapsed),
      'µs/validation': Number(((elapsed * 1e6) / n).toFixed(1)),
      'schema objects': schemas.size,
    });
    source.close();
  }
} finally {
  await server?.close();
}

console.log(`validations per second with a warm resolver (${SECONDS}s per row, node ${process.version})`);
console.table(rows);
if (rows.some((r) => r['schema objects'] !== 1)) {
  console.error('bench/validate: the resolver handed out more than one schema object (the validator would recompile)');
  process.exit(1);
}
