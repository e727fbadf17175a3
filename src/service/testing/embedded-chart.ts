/**
 * A ChartSchemaSource that always answers with the embedded agent chart schema, for
 * service and transport tests that are not about the registry (the Go tests' fake
 * `embeddedChart{}`).
 */
import { EMBEDDED_SCHEMA, EMBEDDED_SCHEMA_VERSION } from '../../chart/embedded/embedded.js';
import type { ChartInfo } from '../../core/types.js';
import type { ChartSchemaSource, ResolvedSchema } from '../ports.js';

export class EmbeddedChartSource implements ChartSchemaSource {
  constructor(private readonly ociUrl = 'oci://gsoci.azurecr.io/charts/giantswarm/agent', private readonly semver = 'x.x.x') {}

  async schema(): Promise<ResolvedSchema> {
    return { version: EMBEDDED_SCHEMA_VERSION, source: 'embedded', schema: EMBEDDED_SCHEMA as Record<string, unknown> };
  }

  async info(): Promise<ChartInfo> {
    return { ociUrl: this.ociUrl, semver: this.semver, schemaVersion: EMBEDDED_SCHEMA_VERSION, schemaSource: 'embedded' };
  }
}
