// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let tests and benchmarks build side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // PGlite loads its WASM and data files from its own package folder; pg and pino
  // are Node-only. Keep them out of the server bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino'],
  poweredByHeader: false,
  // The payment API (/v1/index.php), health and metrics are answered ahead of Next by the
  // process's own node:http server (scripts/start.ts, lib/server/app-server.ts).
  // Console JSON routes skip proxy.ts (a CSP nonce means nothing to JSON, and the
  // proxy cost ~3 ms per call): their security headers are static, set here.
  async headers() {
    return [
      {
        source: '/api/:path*',
        headers: [
          { key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'" },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'no-referrer' },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Cache-Control', value: 'no-store' },
        ],
      },
    ];
  },
  reactStrictMode: true,
};

module.exports = nextConfig;
