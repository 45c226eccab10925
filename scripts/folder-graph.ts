// The folder graph of the payment core (lib/payments): which folders import which, which arrows run up
// the layering, and which folders form a cycle. tests/architecture/core-folders.test.ts asserts the figures;
// `npx tsx scripts/folder-graph.ts` prints them (add --arrows for every arrow).

/** The root's own files (the assembly) count as this folder. */
export const ROOT = '(root)';

/**
 * The core's layers, bottom first: a folder may import its own layer and those below it. The pipeline
 * knows no domain; the ledger only the pipeline; the domains the two of them (and each other, without a
 * cycle); the test-mode actions and the assembly (the root: the action table) sit on top.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['pipeline'],
  ['ledger'],
  ['account', 'checkout', 'keys', 'merchants', 'payouts', 'refunds', 'requests', 'sandboxes', 'statements', 'webhooks'],
  ['test-clock', 'test-mode', ROOT],
];

export interface FolderGraph {
  folders: string[];
  /** `from -> to`, each once, with the file-level imports behind it. */
  arrows: Map<string, string[]>;
  /** Arrows from a lower layer to a higher one (a folder missing from LAYERS counts as the top). */
  upward: string[];
  /** Strongly connected components of more than one folder. */
  cycles: string[][];
}

/** The folder of a module under `base` (`lib/payments`): its first subfolder, or ROOT; undefined outside. */
export function folderOf(source: string, base: string): string | undefined {
  if (!source.startsWith(`${base}/`)) return undefined;
  const rest = source.slice(base.length + 1).split('/');
  return rest.length === 1 ? ROOT : rest[0];
}

const layerOf = (folder: string) => {
  const i = LAYERS.findIndex((layer) => layer.includes(folder));
  return i === -1 ? LAYERS.length : i;
};

/** The folder graph of dependency-cruiser's modules, restricted to `base`. */
export function folderGraph(modules: { source: string; dependencies: { resolved: string }[] }[], base: string): FolderGraph {
  const folders = new Set<string>();
  const arrows = new Map<string, string[]>();
  const next = new Map<string, Set<string>>();
  for (const m of modules) {
    const from = folderOf(m.source, base);
    if (from === undefined) continue;
    folders.add(from);
    for (const d of m.dependencies) {
      const to = folderOf(d.resolved, base);
      if (to === undefined || to === from) continue;
      const key = `${from} -> ${to}`;
      arrows.set(key, [...(arrows.get(key) ?? []), `${m.source} -> ${d.resolved}`]);
      next.set(from, (next.get(from) ?? new Set()).add(to));
    }
  }
  const upward = [...arrows.keys()].filter((key) => {
    const [from, to] = key.split(' -> ') as [string, string];
    return layerOf(from) < layerOf(to);
  });
  return { folders: [...folders].sort(), arrows, upward: upward.sort(), cycles: stronglyConnected([...folders].sort(), next) };
}

/** Tarjan's algorithm: the components of more than one node, each sorted. */
export function stronglyConnected(nodes: string[], next: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return found;
}

/** Cruises `base` (from `baseDir`, the repository by default) and builds its folder graph. */
export async function cruiseFolderGraph(base = 'lib/payments', opts: { baseDir?: string; tsConfig?: boolean } = {}): Promise<FolderGraph> {
  // dependency-cruiser is ESM only; tsx runs this file as CommonJS.
  const { cruise } = await import('dependency-cruiser');
  const result = await cruise([base], {
    ...(opts.baseDir ? { baseDir: opts.baseDir } : {}),
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    ...(opts.tsConfig === false ? {} : { tsConfig: { fileName: 'tsconfig.json' } }),
  });
  const output = result.output as { modules: { source: string; dependencies: { resolved: string }[] }[] };
  return folderGraph(output.modules, base);
}

async function main() {
  const graph = await cruiseFolderGraph();
  console.log(`folders: ${graph.folders.length} (${graph.folders.join(', ')})`);
  console.log(`folder-to-folder arrows: ${graph.arrows.size}`);
  console.log(`upward arrows: ${graph.upward.length}${graph.upward.length ? ` (${graph.upward.join('; ')})` : ''}`);
  console.log(`cycles: ${graph.cycles.length}${graph.cycles.length ? ` (${graph.cycles.map((c) => c.join(' <-> ')).join('; ')})` : ''}`);
  if (process.argv.includes('--arrows')) for (const [arrow, imports] of graph.arrows) console.log(`${arrow}: ${imports.length}`);
}

if (process.argv[1]?.endsWith('folder-graph.ts')) void main();
