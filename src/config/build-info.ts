/**
 * Version, commit and build date of this build. The version is read from package.json
 * at run time (the same relative path from src/ and dist/); commit and date come from
 * AGENT_MANAGER_COMMIT and AGENT_MANAGER_BUILT, set by the image build.
 */
import { readFileSync } from 'node:fs';
import { asObject, optionalString } from '../core/json.js';

/** What `agent-manager version` prints and `get_info` reports. */
export interface BuildInfo {
  readonly version: string;
  readonly commit: string;
  readonly built: string;
}

const PACKAGE_JSON = new URL('../../package.json', import.meta.url);

/** The package version, or `unknown` when package.json cannot be read. */
export function packageVersion(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8'));
    return optionalString(asObject(pkg).version) ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Version from package.json; commit and build date from the environment, else `unknown`. */
export function buildInfo(env: Readonly<Record<string, string | undefined>>): BuildInfo {
  return {
    version: packageVersion(),
    commit: env.AGENT_MANAGER_COMMIT || 'unknown',
    built: env.AGENT_MANAGER_BUILT || 'unknown',
  };
}
