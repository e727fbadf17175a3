/**
 * The pull request that moves a GitOps-owned release to the other chart line: the same pair of changes expand
 * makes on the cluster (values and `chartRef.name` together, in the document git defines the release with) plus the
 * new source's file beside it (listed in that directory's kustomization when it has one), so Flux never applies
 * one line's values with the other line's chart. Git is the base: the values mapped are git's. Pure.
 */
import type { ComposedObject, Values } from '../writes/compose.js';
import { invalid } from '../errors.js';
import { addResource } from '../commit/kustomization.js';
import { dirOf, joinPath, KUSTOMIZATION_FILES } from '../commit/repo-paths.js';
import { planUpdate, locateRelease, type CommitPlan, type FileChange, type PlanInput } from '../commit/commit-plan.js';
import { parseFile, replaceDocument } from '../commit/manifest-yaml.js';
import { toYaml } from '../yaml.js';
import type { Mapped } from './mapped.js';

function withChartRef(path: string, text: string, index: number, target: string): string {
  const file = parseFile(path, text);
  if (!('docs' in file)) return text;
  const doc = file.docs[index]!;
  doc.setIn(['spec', 'chartRef', 'name'], target);
  return replaceDocument(file, index, doc);
}

function upsert(files: FileChange[], change: FileChange): FileChange[] {
  return [...files.filter((f) => f.path !== change.path), change].sort((a, b) => a.path.localeCompare(b.path));
}

/** The plan of the pull request; `map` maps git's values (a refusal there is a 400 naming it). */
export function planMove(
  input: PlanInput, map: (base: Values) => Mapped, target: string, source: ComposedObject,
): CommitPlan & { values: Values } {
  const valuesFor = (base: Values | undefined): Values => {
    const mapped = map(base ?? {});
    if (!mapped.values) throw invalid(`git's values of ${input.namespace}/${input.name} cannot move: ` +
      mapped.refusals.join('; '));
    return mapped.values;
  };
  const plan = planUpdate(input, valuesFor, () => { throw invalid('no release to lay out'); }, source);
  const hit = locateRelease(input)[0]!;
  const edited = plan.files.find((f) => f.path === hit.path);
  const text = edited?.content ?? input.files[hit.path]!;
  let files = upsert(plan.files, { path: hit.path, action: 'update', content: withChartRef(hit.path, text, hit.index,
    target) });
  const dir = dirOf(hit.path);
  const sourcePath = joinPath(dir, `${target}.yaml`);
  if (input.files[sourcePath] === undefined) {
    files = upsert(files, { path: sourcePath, action: 'add', content: toYaml(source) });
    const kustomization = KUSTOMIZATION_FILES.map((k) => joinPath(dir, k)).find((p) => input.files[p] !== undefined);
    if (kustomization) {
      files = upsert(files, { path: kustomization, action: 'update',
        content: addResource(input.files[kustomization]!, `${target}.yaml`) });
    }
  }
  return { files, releasePath: hit.path, values: plan.values };
}
