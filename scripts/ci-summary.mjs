// Prints the closing line CI readers look for ("tests: N passed, N failed"), summed over
// the vitest JSON reports named on the command line. Exits 1 when a report is missing or
// counts no test at all, so a run that executed nothing cannot pass as green.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`ci-summary: no report at ${file}`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed + failed === 0) process.exit(1);
if (failed > 0) process.exit(1);
