// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let tests and benchmarks build side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // PGlite loads its WASM and data files from its own package folder; pg and pino
  // are Node-only. Keep them out of the server bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino'],
  poweredByHeader: false,
  reactStrictMode: true,
};

module.exports = nextConfig;
