import { ensureNextBuild as build } from '../scripts/next-build';

/** This suite's own Next build folder, so that it never races another engineer's `.next`. */
export const PROVE_DIST_DIR = process.env.PROVE_NEXT_DIST_DIR ?? '.next-prove';

export const ensureNextBuild = (distDir = PROVE_DIST_DIR) => build(distDir, { quiet: true });
