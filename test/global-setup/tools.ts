/**
 * Vitest global set-up: finds every external program the tests run once, before any
 * worker starts, and passes the answer to the workers in their environment, so no test
 * file probes the machine at import.
 */
import { locateTestTools, TOOLS_ENV } from '../support/test-tools.js';

export default function setup(): void {
  process.env[TOOLS_ENV] = JSON.stringify(locateTestTools());
}
