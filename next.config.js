// @ts-check
/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build folders let tests and benchmarks build side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // PGlite loads its WASM and data files from its own package folder; pg and pino
  // are Node-only. Keep them out of the server bundle.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino'],
  poweredByHeader: false,
  // NEXT_OUTPUT=standalone: the build also writes a self-contained server (<distDir>/standalone/server.js)
  // for a container. It and `next start` serve the console alone, in front of PAYMENT_API_BASE_URL
  // (instrumentation.ts). Opt-in: with it, Next warns on every `next start` and `npm start`. `npm start`
  // runs its own node:http server (scripts/start.ts, lib/server/app-server.ts), which answers the payment
  // API (/v1/index.php), health and metrics ahead of Next and hands Next the rest.
  output: process.env.NEXT_OUTPUT === 'standalone' ? 'standalone' : undefined,
  // Read from node_modules at run time (console/server/routes/api-reference.ts), which tracing cannot see.
  outputFileTracingIncludes: { '/docs/api/redoc.standalone.js': ['./node_modules/redoc/bundles/redoc.standalone.js'] },
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
