// Mutation testing of the security- and money-critical modules (`npm run mutate`, not part of
// `npm test`): StrykerJS breaks each line of the modules in `mutate` one way at a time and runs the
// node:test files that cover it (the tap runner: each test file one run, under tsx); a mutant that
// every test survives is a check nothing would notice breaking. Scores per module are printed and
// written to reports/mutation/ (HTML and JSON).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'tap',
  tap: {
    // The fast tests aimed at these modules, and the coupon suite over HTTP (malformed, reused and
    // replayed Idempotency-Keys; the other HTTP suites that also cover them run in npm test): every
    // mutant runs only the files that reach it.
    testFiles: [
      'test/node/connect/id-token.test.ts',
      'test/node/connect/callback.test.ts',
      'test/node/proxy/upstream/cursor.test.ts',
      'test/node/proxy/http/idempotency.test.ts',
      'test/node/proxy/http/idempotency-race.test.ts',
      'test/node/proxy/http/rate-limit.test.ts',
      'test/node/proxy/app/key-scrubbing.test.ts',
      'test/node/proxy/http/coupons.test.ts',
    ],

    nodeArgs: ['--import', 'tsx'],
    forceBail: true,
  },
  mutate: [
    // The ID token's checks (signature, issuer, audience, nonce, at_hash, times).
    'src/connect/id-token.ts',
    // The popup callback: who gets the sign-in response.
    'src/connect/callback.ts',
    // The proxy's tamper-evident page cursors.
    'src/proxy/upstream/cursor.ts',
    // One coupon per Idempotency-Key.
    'src/proxy/http/idempotency.ts',
    // Coupon and query rate limits, and the address they count.
    'src/proxy/http/rate-limit.ts',
    // The API key never passed on from an upstream answer.
    'src/proxy/upstream/transport.ts:223-232',
  ],
  coverageAnalysis: 'perTest',
  // Type errors a mutant causes are no test's concern: tsx strips types without checking them.
  disableTypeChecks: true,
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: true, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['build', 'dist', 'reports', 'test/wordpress', 'test/e2e', 'demo', 'integrations', 'bench'],
};
