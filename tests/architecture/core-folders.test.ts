// The payment core's folders form layers without a cycle: pipeline < ledger < domains < test mode and the
// assembly (lib/payments/core.ts, the root). dependency-cruiser's folder-scoped rule (core-no-folder-cycle)
// does not see the root's files as a folder of their own; this check counts them, and names every arrow
// that runs up the layers. `npx tsx scripts/folder-graph.ts` prints the same figures.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cruiseFolderGraph, LAYERS, ROOT, stronglyConnected } from '../../scripts/folder-graph';

describe('the folders of lib/payments', () => {
  it('form no cycle, and no arrow runs up the layers', async () => {
    const graph = await cruiseFolderGraph('lib/payments');
    expect(graph.cycles).toEqual([]);
    expect(graph.upward).toEqual([]);
  });

  it('each have their place in the layers (a new folder is placed there first)', async () => {
    const graph = await cruiseFolderGraph('lib/payments');
    expect(graph.folders.filter((f) => !LAYERS.some((layer) => layer.includes(f)))).toEqual([]);
  });

  it('the check finds a cycle and the upward arrows (fixture tree)', async () => {
    const graph = await cruiseFolderGraph('lib/payments', { baseDir: path.join(__dirname, 'fixture'), tsConfig: false });
    expect(graph.cycles).toEqual([['payouts', 'pipeline']]);
    expect(graph.upward).toEqual(['ledger -> payouts', 'pipeline -> payouts', `refunds -> ${ROOT}`]);
  });

  it('the cycle finder sees a cycle through the root, and none in a chain', () => {
    const next = (edges: [string, string][]) => {
      const map = new Map<string, Set<string>>();
      for (const [a, b] of edges) map.set(a, (map.get(a) ?? new Set()).add(b));
      return map;
    };
    const nodes = [ROOT, 'payouts', 'pipeline', 'webhooks'];
    expect(
      stronglyConnected(
        nodes,
        next([
          [ROOT, 'payouts'],
          ['payouts', 'webhooks'],
          ['webhooks', 'pipeline'],
          ['pipeline', ROOT],
        ]),
      ),
    ).toEqual([[ROOT, 'payouts', 'pipeline', 'webhooks'].sort()]);
    expect(
      stronglyConnected(
        nodes,
        next([
          [ROOT, 'payouts'],
          ['payouts', 'webhooks'],
          ['webhooks', 'pipeline'],
        ]),
      ),
    ).toEqual([]);
  });
});
