/**
 * The agent chart's lines as the simulated registry serves them: the major of the chart version a
 * release's source resolved picks what Helm checks and renders. 0.x renders the `kagent.dev/v1alpha2`
 * Agent (agent-chart.ts), 2.x the `api.kagent.dev/v1alpha3` Agent and its muster RemoteMCPServer
 * (agent-chart-v2.ts); the registry holds no other line, and a version of one fails the render.
 */
import semver from 'semver';
import type { JsonObject } from '../api/json.js';
import { chartFailure, renderAgent, type ChartFailure, type RenderInput } from './agent-chart.js';
import { chartFailureV2, renderReleaseV2 } from './agent-chart-v2.js';

/** The major version of a chart version (`2.1.0`, `0.6.1+abc`). */
export function chartMajor(chartVersion: string): number {
  return semver.coerce(chartVersion)?.major ?? 0;
}

/** Why the chart of `chartVersion` refuses the values, or undefined. */
export function releaseFailure(values: JsonObject, chartVersion: string): ChartFailure | undefined {
  switch (chartMajor(chartVersion)) {
    case 0: return chartFailure(values);
    case 2: return chartFailureV2(values, chartVersion);
    default: return { kind: 'render', message: `the sandbox simulates the agent chart lines 0.x and 2.x, ` +
      `not ${chartVersion}` };
  }
}

/** Every object the chart of `input.chartVersion` renders (none for a line the sandbox does not simulate). */
export function renderRelease(input: RenderInput): JsonObject[] {
  switch (chartMajor(input.chartVersion)) {
    case 0: return [renderAgent(input)];
    case 2: return renderReleaseV2(input);
    default: return [];
  }
}
