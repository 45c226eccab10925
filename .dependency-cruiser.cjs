// The layering of the app, written down and checked with the tests
// (tests/architecture/layering.test.ts). See README "Architecture".
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'contract-is-pure',
      comment: 'lib/contract is the wire contract: pure zod and constants, imported by the core, the console, the browser and the SDK.',
      severity: 'error',
      from: { path: '^lib/contract/' },
      to: { pathNot: ['^lib/contract/', '^node_modules/zod/'] },
    },
    {
      name: 'openapi-only-from-the-contract',
      comment: 'lib/openapi builds the OpenAPI document from lib/contract alone (pure, framework-agnostic).',
      severity: 'error',
      from: { path: '^lib/openapi/' },
      to: { pathNot: ['^lib/(openapi|contract)/', '^node_modules/zod/'] },
    },
    {
      name: 'sdk-stands-alone',
      comment:
        'packages/sdk is published on its own: nothing outside it (no zod, no contract module), fetch and its one declared dependency.',
      severity: 'error',
      from: { path: '^packages/sdk/src/' },
      to: { pathNot: ['^packages/sdk/src/', '^node_modules/standardwebhooks/'] },
    },
    {
      name: 'core-is-framework-agnostic',
      comment: 'lib/payments imports nothing from Next, React or the console (its pages, routes, session, payment client, browser code).',
      severity: 'error',
      from: { path: '^lib/payments/' },
      to: {
        path: ['^node_modules/(next|react|react-dom|server-only|iron-session|@tanstack)/', '^(app|console|pages)/'],
      },
    },
    {
      name: 'core-pipeline-knows-no-domain',
      comment:
        'lib/payments/pipeline runs whatever action table it is handed (assembled above the domains, in lib/payments/core.ts): ' +
        'it imports nothing else of the core. The domains import it (the action shape, the caller, ids, list pages).',
      severity: 'error',
      from: { path: '^lib/payments/pipeline/' },
      to: { path: '^lib/payments/', pathNot: '^lib/payments/pipeline/' },
    },
    {
      name: 'core-ledger-below-the-domains',
      comment: 'lib/payments/ledger moves money for every domain: it imports only the pipeline below it.',
      severity: 'error',
      from: { path: '^lib/payments/ledger/' },
      to: { path: '^lib/payments/', pathNot: '^lib/payments/(ledger|pipeline)/' },
    },
    {
      name: 'core-domains-below-the-assembly',
      comment:
        'No folder of lib/payments imports its root (core.ts: the action table and the core assembled from it), the test-mode ' +
        'actions or the test clock, which sit on top of the domains they drive.',
      severity: 'error',
      from: { path: '^lib/payments/[^/]+/', pathNot: '^lib/payments/test-(mode|clock)/' },
      to: { path: ['^lib/payments/[^/]+$', '^lib/payments/test-(mode|clock)/'] },
    },
    {
      name: 'core-no-folder-cycle',
      comment:
        'The folders of lib/payments form no cycle. Folder-scoped, this rule sees the subfolders; the root (the assembly) is kept ' +
        'on top by core-domains-below-the-assembly, and tests/architecture/core-folders.test.ts checks the whole folder graph, root included.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^lib/payments/' },
      to: { path: '^lib/payments/', circular: true },
    },
    {
      name: 'data-layer-below-core',
      comment: 'lib/db knows nothing of the layers above it.',
      severity: 'error',
      from: { path: '^lib/db/' },
      to: { path: '^(app|console|pages)/|^lib/(payments|server)/' },
    },
    {
      name: 'upstream-does-not-reach-into-the-core',
      comment:
        'The console talks to the payment API through console/server/upstream, the same contract in process or over HTTP. It imports only the contract ' +
        'and the SDK (and the core request shape as a type), so it cannot reach the core one step removed either (through lib/server or a root).',
      severity: 'error',
      from: { path: '^console/server/upstream/' },
      to: {
        path: '^(lib|scripts|console)/',
        pathNot: ['^console/server/upstream/', '^lib/contract/', '^lib/payments/pipeline/api-request\\.ts$'],
      },
    },
    {
      name: 'upstream-types-only-from-the-core',
      comment: 'The in-process fetch hands a request to a core it is given: the core request shape as a type, never a value.',
      severity: 'error',
      from: { path: '^console/server/upstream/' },
      to: { path: '^lib/payments/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'roots-stay-on-top',
      comment:
        'scripts/ (the start scripts and scripts/roots: the API runtime and the console side) composes the process. Nothing under lib/, ' +
        'app/ or console/ imports it: a module gets what it needs passed in, or, in Next, through the console wiring the start script provides.',
      severity: 'error',
      from: { path: '^(lib|app|console)/' },
      to: { path: ['^scripts/', '^instrumentation\\.ts$'] },
    },
    {
      name: 'next-entry-reaches-no-core',
      comment:
        "instrumentation.ts is Next's own entry: under `next start` it composes the console alone (scripts/roots/console-in-next.ts). " +
        'Nothing it loads, however far removed, is the payment core (the core request shape excepted, a type of the in-process fetch).',
      severity: 'error',
      from: { path: '^instrumentation\\.ts$' },
      to: { path: '^lib/payments/', pathNot: '^lib/payments/pipeline/api-request\\.ts$', reachable: true },
    },
    {
      name: 'server-and-session-apart',
      comment: 'lib/server serves the API (and the hosted checkout); console/server is the console. Neither imports the other.',
      severity: 'error',
      from: { path: '^(lib/server|console/server)/' },
      to: { path: '^(lib/server|console/server)/', pathNot: '^$1/' },
    },
    {
      name: 'console-never-reads-the-core',
      comment:
        'Console pages, routes and console/ reach payment data only through the payment client (console/server/upstream). Only the hosted ' +
        'checkout (app/(hosted), the API side) reads the API runtime, through lib/server/hosted-checkout.',
      severity: 'error',
      from: { path: '^(app|console/server/(data|routes))/', pathNot: '^app/\\(hosted\\)/' },
      to: { path: ['^lib/payments/', '^lib/server/hosted-checkout\\.ts$'] },
    },
    {
      name: 'hosted-checkout-knows-no-console-session',
      comment: "The hosted checkout page is the provider's, for a customer: no merchant key, no console session, no payment client.",
      severity: 'error',
      from: { path: '^app/\\(hosted\\)/' },
      to: { path: '^console/server/(session|data|upstream)/' },
    },
    {
      name: 'session-uses-only-key-hashing-from-the-core',
      comment: 'Console sessions keep a hash of the key (to revoke every session of a key) and random ids; nothing else of the core.',
      severity: 'error',
      from: { path: '^console/server/session/' },
      to: { path: '^lib/payments/', pathNot: '^lib/payments/pipeline/(secret-keys|random-id)\\.ts$' },
    },
    {
      name: 'browser-code-stays-off-the-server',
      comment: 'console/browser runs in the browser: no database, session, upstream client, server runtime or core.',
      severity: 'error',
      from: { path: '^console/browser/' },
      to: { path: ['^lib/(db|server|payments)/', '^console/server/', '^node_modules/(pg|@electric-sql|iron-session|pino)/'] },
    },
    {
      name: 'app-only-routes-and-renders',
      comment:
        'Routes and pages reach data through console/server (the data access layer, the session, the payment client), not the database.',
      severity: 'error',
      from: { path: '^app/' },
      to: { path: '^lib/db/' },
    },
    {
      name: 'app-does-not-depend-on-deployment-tooling',
      comment:
        'ops/ starts clusters for operators and tests (ops/cluster); the app, its libraries and scripts other than the CLI never import it.',
      severity: 'error',
      from: { path: '^(app|lib|console|packages)/' },
      to: { path: '^ops/' },
    },
    {
      name: 'deployment-tooling-stands-apart',
      comment: 'ops/ knows nothing of the app: it deploys PostgreSQL, whatever runs on it.',
      severity: 'error',
      from: { path: '^ops/' },
      to: { path: '^(app|lib|console|packages)/' },
    },
    {
      name: 'bench-and-tests-meet-in-testing',
      comment:
        'bench/ measures, tests/ checks: what both use (databases, server processes, the in-process API, volume data) lives in testing/, never in tests/.',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^tests/' },
    },
    {
      name: 'testing-serves-tests-and-bench',
      comment: 'testing/ is the harness under tests/ and bench/; it knows neither.',
      severity: 'error',
      from: { path: '^testing/' },
      to: { path: '^(tests|bench)/' },
    },
    {
      name: 'harness-stays-out-of-the-app',
      comment: 'The app, its start scripts, the SDK and ops never load the tests, the benchmarks or their harness.',
      severity: 'error',
      from: { path: '^(app|lib|console|packages|ops|scripts)/|^(instrumentation|proxy)\\.ts$' },
      to: { path: '^(testing|tests|bench)/' },
    },
    {
      name: 'harness-runs-without-vitest',
      comment: 'bench/ and testing/ run under tsx and Playwright too, where a module that imports vitest throws.',
      severity: 'error',
      from: { path: '^(testing|bench)/' },
      to: { path: '^node_modules/vitest/', reachable: true },
    },
    {
      name: 'playwright-specs-never-load-vitest',
      comment: 'Playwright loads its specs itself: a helper that imports vitest (api-server, webhook-delivery) throws there.',
      severity: 'error',
      from: { path: '^tests/e2e/' },
      to: { path: '^node_modules/vitest/', reachable: true },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^(lib|app|console|scripts|ops|bench|testing)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // node_modules stay in the graph (unfollowed), so the rules on packages (next, react, vitest) can fire.
    exclude: { path: '^\\.next' },
  },
};
