// Reads a V8 .cpuprofile (node --cpu-prof) and prints where the time went: self time per function,
// and per source area (our code by folder, node_modules by package, node internals, GC, idle).
import fs from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

/** Where a function's code lives: `lib/payments`, `pg`, `node:internal`, `(garbage collector)`. */
export function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const ours = /\/(lib\/[^/]+|app|bench|scripts|packages\/[^/]+)\//.exec(url);
  return ours ? ours[1]! : url;
}

export function summarize(file: string, top = 15) {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fns = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const [id, us] of self) {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(lib|app|bench)\//, '$1/')}:${f.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    const area = areaOf(f.url, f.functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  const rows = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
  return { totalMs: total / 1000, functions: rows(fns), areas: rows(areas) };
}

if (process.argv[2]) {
  const s = summarize(process.argv[2], Number(process.argv[3] ?? 25));
  process.stdout.write(`total ${Math.round(s.totalMs)} ms sampled\n-- by area\n${s.areas.join('\n')}\n-- by function (self time)\n${s.functions.join('\n')}\n`);
}
