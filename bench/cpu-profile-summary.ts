// Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went within a window: self time
// per function and per source area (our code by folder, node_modules by package, node internals, GC),
// and inclusive time per function.
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function's code lives: `lib/payments`, `pg`, `node:internal`, `(garbage collector)`. */
function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const ours = /\/(lib\/[^/]+|app|bench|scripts|packages\/[^/]+)\//.exec(url);
  return ours ? ours[1]! : url;
}

const label = (f: Node['callFrame']) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^.*\/(lib|app|bench|scripts)\//, '$1/')}:${f.lineNumber + 1}`;

/** Samples from `fromMs` to `toMs` after the profile started (idle and program time are not busy). */
export function cpuProfileSummary(file: string, opts: { fromMs?: number; toMs?: number; top?: number } = {}) {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let at = 0;
  let totalUs = 0;
  p.samples.forEach((id, i) => {
    at += p.timeDeltas[i] ?? 0;
    if (at < (opts.fromMs ?? 0) * 1000 || at > (opts.toMs ?? Infinity) * 1000) return;
    self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
    totalUs += p.timeDeltas[i] ?? 0;
  });
  const fns = new Map<string, number>();
  const areas = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    busyUs += us;
    fns.set(label(f), (fns.get(label(f)) ?? 0) + us);
    areas.set(areaOf(f.url, f.functionName), (areas.get(areaOf(f.url, f.functionName)) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const key = label(byId.get(cur)!.callFrame);
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + us);
      seen.add(key);
    }
  }
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, opts.top ?? 15)
      .map(([k, us]) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%  ${k}`);
  return { totalMs: totalUs / 1000, busyMs: busyUs / 1000, functions: rows(fns), areas: rows(areas), inclusive: rows(inclusive) };
}
