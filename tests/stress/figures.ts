import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One line of figures per stress case, gathered across test files and printed at the end. */
export const FIGURES_FILE = path.join(process.env.TEST_RUN_DIR ?? os.tmpdir(), 'prove-stress-figures.jsonl');

export type Figures = Record<string, string | number | boolean>;

export function recordFigures(name: string, figures: Figures) {
  fs.appendFileSync(FIGURES_FILE, JSON.stringify({ name, ...figures }) + '\n');
}

export function readFigures(): Array<{ name: string } & Figures> {
  if (!fs.existsSync(FIGURES_FILE)) return [];
  return fs
    .readFileSync(FIGURES_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** quick: the bounded size that runs inside `npm test`; full: `npm run test:stress`. */
export const SIZE = process.env.STRESS_SIZE === 'quick' ? 'quick' : 'full';

export const STRESS = {
  quick: {
    keys: 50,
    duplicates: 20,
    overdraw: 500,
    crashKeys: 40,
    crashes: 3,
    crashClients: 8,
    groupCrashClients: 24,
    fuzzRuns: 300,
    fuzzRawRuns: 60,
    keepAliveRuns: 2,
    poolerKills: 1,
  },
  full: {
    keys: 50,
    duplicates: 20,
    overdraw: 500,
    crashKeys: 150,
    crashes: 6,
    crashClients: 12,
    groupCrashClients: 48,
    fuzzRuns: 2000,
    fuzzRawRuns: 300,
    keepAliveRuns: 10,
    poolerKills: 3,
  },
}[SIZE];
