// `folders/no-sibling-cycle`: no two sibling folders import each other, directly or through
// other siblings (src/service/writes → src/service/commit → src/service/writes). A file cycle is
// import-x/no-cycle's; this is the same rule one level up, so that each folder of a layer can
// be read, moved or replaced knowing only the folders below it. Reported on the import that
// closes the cycle, naming the way back.
import { dirname, relative, resolve } from 'node:path';
import { folderGraph, pathBetween, runtimeSpecifiers, siblingEdge } from './folder-graph.js';

const graphs = new Map();

/** The graph of the production files under `roots`, built once per lint run. */
function graphOf(roots) {
  const key = roots.join('\0');
  if (!graphs.has(key)) graphs.set(key, folderGraph(roots));
  return graphs.get(key);
}

export const siblingFolders = {
  rules: {
    'no-sibling-cycle': {
      meta: {
        type: 'problem',
        schema: [{
          type: 'object',
          properties: { roots: { type: 'array', items: { type: 'string' } } },
          additionalProperties: false,
        }],
      },
      create(context) {
        const roots = context.options[0]?.roots ?? [];
        const file = context.filename;
        const runtime = new Set(runtimeSpecifiers(context.sourceCode.text));
        const check = (node) => {
          const spec = node.source?.value;
          if (typeof spec !== 'string' || !runtime.has(spec)) return;
          const edge = siblingEdge(file, resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
          if (!edge) return;
          const graph = graphOf(roots);
          const back = pathBetween(graph, edge[1], edge[0]);
          if (!back) return;
          const root = context.cwd;
          const way = back.map((folder, i) => (i === 0
            ? relative(root, folder)
            : `${relative(root, folder)} (${graph.get(back[i - 1]).get(folder)})`));
          context.report({
            node: node.source,
            message: `folders ${relative(root, edge[0])} and ${relative(root, edge[1])} import each other: `
              + `back by ${way.join(' → ')}. `
              + 'Move what both need into the lower one (or their parent folder).',
          });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
      },
    },
  },
};
