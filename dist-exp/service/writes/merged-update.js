/**
 * An update merged onto the release it may write, and what is wrong with the result: the
 * step an applied update, a validate_agent and a commit-mode update share, so all three
 * refuse the same values. Ownership refusals (404/409) and a toolset removal are thrown;
 * the modelConfig and chart-schema problems are returned for the caller to report.
 */
import { changedPaths } from '../../core/diff.js';
import { invalid } from '../../core/errors.js';
import { toolsetRemovalViolation } from '../../core/revisions/revision-record.js';
import { applyUpdate } from '../../core/update-merge.js';
import { modelConfigViolation, schemaViolations } from './checks.js';
import { writableRelease } from './ownership.js';
/** The merge of an update into the release it may write; ownership refusals (404/409) are thrown. */
export function mergeUpdate(objects, update, modelConfigs, schema) {
    const release = writableRelease(objects, update.force === true, update.mode === 'commit');
    const before = (release.spec?.values ?? {});
    const after = applyUpdate(before, update);
    const removal = toolsetRemovalViolation(before, after);
    if (removal)
        throw invalid(removal);
    return {
        release, before, after, changed: changedPaths(before, after),
        modelConfigProblem: modelConfigs
            ? modelConfigViolation(objects.namespace, update.modelConfig, modelConfigs)
            : undefined,
        schemaViolations: schemaViolations(schema, after),
    };
}
//# sourceMappingURL=merged-update.js.map