// Lint: TypeScript, React and hooks rules, and the module borders of docs/decisions/011 as a check
// that fails CI (a module's index.ts is its only door; tables stay private; the table below is the
// only allowed direction between modules, so no cycle can form).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import layers from './scripts/lint/no-restricted-dynamic-import.js';

/**
 * Which modules each module may call (through `#modules/<name>` only). Acyclic: a module is listed
 * after everything it depends on. Tests of a module may set up scenarios with any module's door.
 */
export const MODULE_DEPENDENCIES = {
  // The shared vocabulary (refusal shape, UUID rule): no tables, no dependency, used by every module.
  kernel: [],
  // Outbound mail and SMS (the outbox), early so that every module writing to members may call it.
  messaging: ['kernel'],
  // drand's public randomness beacon (quicknet): chain info, round arithmetic, verification, a client. No
  // tables; pure and browser-safe, so any later module (the draw, fairness's beacon mode) may call it.
  beacon: ['kernel'],
  // Provably fair packs: the sequence mode's seed and reveal, and the beacon mode's formats and verification,
  // which checks drand's beacons (decision 081).
  fairness: ['kernel', 'beacon'],
  identity: ['kernel'],
  idempotency: ['kernel'],
  content: ['kernel'],
  wallet: ['kernel'],
  // The mailbox (docs/decisions/034): personal mails and broadcasts, claimed attachments (wallet), and the one
  // notification interface every later module sends through; early so that all of them may call it.
  mailbox: ['kernel', 'messaging', 'wallet', 'identity', 'content'],
  // Shop-wide state: maintenance mode and the closure (decision 085), read by the money paths inside their own
  // transactions; the closure tells members (mailbox, messaging, identity) and refunds paid coins (wallet).
  shop: ['kernel', 'messaging', 'identity', 'wallet', 'mailbox'],
  gacha: ['kernel', 'fairness'],
  // Exp, levels (the level-up mail is sent by the draw's SQL through the mailbox's) and the recorded monthly
  // ranks with their rank-up mails (docs/decisions/037).
  progression: ['kernel', 'wallet', 'mailbox'],
  // Self-limits (docs/decisions/035): the member's own monthly limits and self-exclusion; read by the
  // purchase and the draw inside their own transactions.
  limits: ['kernel'],
  // The waiting room for hot releases (decision 087): the queue of a pack (gacha's settings) before and
  // after its start; the draw asks it, in its own transaction, whether the member's window is open.
  waitingroom: ['kernel', 'gacha'],
  // The beacon mode (decision 081) closes and settles rounds with drand's verified beacons.
  draw: ['kernel', 'shop', 'gacha', 'wallet', 'progression', 'identity', 'fairness', 'beacon', 'limits', 'waitingroom'],
  payments: ['kernel', 'shop', 'wallet', 'mailbox', 'progression', 'identity', 'idempotency', 'limits'],
  // The ranking boards (docs/decisions/037): per-period scores folded from the draws' feed, levels from progression.
  ranking: ['kernel', 'draw', 'progression'],
  // Operators: staff roles and permissions, the append-only audit log every admin action writes to,
  // and the operators' audited actions on packs, coins, coin packs, orders, members and banners (content).
  // 特典コード (docs/decisions/032): codes redeemed once per member for free coins through the wallet,
  // with new-member (identity) and rank (progression) conditions.
  promo: ['kernel', 'wallet', 'identity', 'progression'],
  admin: ['kernel', 'shop', 'identity', 'messaging', 'content', 'wallet', 'gacha', 'payments', 'mailbox'],
  // Prizes reach members: addresses (encrypted), shipping requests, the promised date, the desk.
  shipping: ['kernel', 'wallet', 'identity', 'messaging', 'mailbox', 'gacha', 'draw', 'payments', 'admin'],
  // Inquiries (the contact form and the desk that answers them): names the member's own orders, draws
  // and shipping requests, mails the inquirer, and audits every answer.
  support: ['kernel', 'identity', 'messaging', 'draw', 'payments', 'shipping', 'admin', 'shop'],
  // Fraud signals (docs/decisions/029): reads sessions, address books, draws and payments through their
  // feeds, keeps keyed fingerprints, and decides a signal with the admin module's hold and ban.
  risk: ['kernel', 'identity', 'messaging', 'draw', 'payments', 'shipping', 'admin'],
  // The daily login bonus (docs/decisions/033): its claims table, a free-coin grant per Japan-time day,
  // refused to staff, banned and deleted members (identity's standing).
  bonus: ['kernel', 'wallet', 'identity'],
  // Invitations (docs/decisions/038): codes, the invitation attached at sign-up, the reward settled once the
  // invitee verified a phone (identity) and made a first purchase (payments), refused on shared phones and
  // devices (identity's sessions, risk's fingerprints), delivered as mailbox attachments.
  invitation: ['kernel', 'identity', 'payments', 'risk', 'mailbox'],
  // Friends (decision 045): requests by the member's personal (invitation) code, shown by public names.
  friends: ['kernel', 'identity', 'invitation'],
  // The farm (decision 044): plots, seeds, harvests granted through the wallet at the member's level
  // (progression) and watered by friends; its operators' actions are audited through admin
  // (modules/farm/operator-actions.ts).
  farm: ['kernel', 'wallet', 'identity', 'progression', 'admin', 'friends'],
  // The refusal catalogue (docs/decisions/064): gathers every module's refusal words (its refusal-words.ts)
  // and answers describeRefusal for the API, the pages and the command line; no tables, last so it may read all.
  refusals: [
    'kernel',
    'shop',
    'identity',
    'idempotency',
    'content',
    'wallet',
    'mailbox',
    'gacha',
    'limits',
    'waitingroom',
    'draw',
    'payments',
    'promo',
    'admin',
    'shipping',
    'support',
    'risk',
    'bonus',
    'invitation',
    'friends',
    'farm',
  ],
};

const MODULES = Object.keys(MODULE_DEPENDENCIES);
{
  // Refuse a table with a cycle or an unknown name: the order above must be a topological order.
  const seen = new Set();
  for (const [name, deps] of Object.entries(MODULE_DEPENDENCIES)) {
    for (const dep of deps)
      if (!seen.has(dep)) throw new Error(`eslint.config.js: ${name} depends on ${dep}, which is not listed before it`);
    seen.add(name);
  }
}

/** Tests, their kits (a layer's or module's testing.ts and its testing/ folder, imported by tests only) and benchmarks. */
const TEST_FILES = [
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/testing.ts',
  '**/testing/**',
  'tests/**',
  'e2e/**',
  'bench/**',
  'vitest.config.ts',
];

/** Imports that no file may write: past a module's door by a relative path, or climbing three folders. */
const everywhere = [
  {
    regex: String.raw`^(\.\.?/)+(.+/)?modules/`,
    message: "Import a module through its door: '#modules/<name>' (index.ts), not a path into its folder.",
  },
  {
    regex: String.raw`^(\.\./){3}`,
    message:
      'Use an alias (#modules/…, #db/…, #server/…, #tests/…, #scripts/…, ~/…) instead of climbing three folders.',
  },
  // An alias that climbs ('~/../modules/x', '#server/../modules/x') passes every border by the back door.
  {
    regex: String.raw`^(~|#[\w-]+)/(.*/)?\.\.(/|$)`,
    message: 'An alias names a door and does not climb out of it: import the other folder by its own alias.',
  },
];
/** Development stand-ins: tests may import them; shop code loads them only by a dynamic import on the sandbox path. */
const noDevtools = [
  {
    regex: String.raw`^(\.\.?/)+(.+/)?devtools/`,
    message: 'Development stand-ins are loaded only with a dynamic import on the sandbox path.',
  },
  {
    regex: String.raw`^#devtools/`,
    message: 'Development stand-ins are loaded only with a dynamic import on the sandbox path.',
  },
];
const noSchema = {
  regex: String.raw`^#db/schema$|^(\.\.?/)+(.+/)?db/schema$`,
  message:
    "Tables are private to their module: call the module's functions ('#modules/<name>'). Only db/client, tests and benchmarks read the gathered schema.",
};
const noTestKit = {
  regex: String.raw`^#tests/|(^|/)testing(/|$)`,
  message: 'Test kits (tests/support, testing.ts) are for tests and benchmarks only.',
};

/**
 * The layers (decision 066): app/ → server/ (only through its door, '#server/context') → modules/ → db/.
 * The server and the modules never import the app; the modules never import the server.
 */
const notApp = [
  {
    regex: String.raw`^~/`,
    message:
      'server/ and modules/ do not import the app: move what both need to modules/kernel or the owning module (decision 066).',
  },
  {
    regex: String.raw`^(\.\.?/)+(.+/)?app/`,
    message:
      'server/ and modules/ do not import the app: move what both need to modules/kernel or the owning module (decision 066).',
  },
];
const notServerMessage =
  'modules/ do not import the server: a module declares what it needs (a type, a function) and the server passes it in (decision 066).';
const notServer = [
  { regex: String.raw`^#server/`, message: notServerMessage },
  { regex: String.raw`^(\.\.?/)+(.+/)?server/`, message: notServerMessage },
];
const appToServerMessage =
  "The app reaches the server only through its door: '#server/context' (the request context and the use cases it names; decision 066).";
const appToServer = [
  { regex: String.raw`^#server/(?!context$)`, message: appToServerMessage },
  { regex: String.raw`^(\.\.?/)+(.+/)?server/`, message: appToServerMessage },
];

/**
 * The import rules of one block: `no-restricted-imports` for static imports and re-exports, and the same
 * patterns for a dynamic `import()` of a written-out path (scripts/lint/no-restricted-dynamic-import.js),
 * except the development stand-ins, which shop code loads only that way.
 */
function restrict(patterns) {
  return {
    'no-restricted-imports': ['error', { patterns }],
    'layers/no-restricted-dynamic-import': [
      'error',
      { patterns: patterns.filter((pattern) => !noDevtools.includes(pattern)) },
    ],
  };
}
const shopCode = [...everywhere, ...noDevtools, noSchema, noTestKit];

/** The borders of one module's own files at one depth: it leaves its folder only through other modules' doors. */
function moduleBorders(name, depth) {
  const allowed = MODULE_DEPENDENCIES[name];
  const forbidden = MODULES.filter((m) => m !== name && !allowed.includes(m));
  const patterns = [
    ...shopCode,
    ...notApp,
    ...notServer,
    {
      regex: String.raw`^#modules/${name}(/|$)`,
      message: `Inside ${name}, import its own files by a relative path, not through its door.`,
    },
    // A relative path that climbs out of modules/<name>/ (its files use '#db/client', '#server/…' or a door).
    {
      regex: String.raw`^(\.\./){${depth}}`,
      message: `A file of ${name} stays inside modules/${name}/ or uses another module's door.`,
    },
  ];
  if (forbidden.length) {
    patterns.push({
      regex: String.raw`^#modules/(${forbidden.join('|')})(/|$)`,
      message: `${name} may call only ${allowed.length ? allowed.join(', ') : 'no other module'} (MODULE_DEPENDENCIES in eslint.config.js): a new direction is a design decision.`,
    });
  }
  return patterns;
}

/** One block per module and folder depth (modules/<name>/a.ts climbs out with ../, modules/<name>/x/a.ts with ../../). */
const moduleBlocks = MODULES.flatMap((name) =>
  [1, 2, 3, 4].map((depth) => ({
    files: [`modules/${name}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    ignores: TEST_FILES,
    rules: restrict(moduleBorders(name, depth)),
  })),
);

export default tseslint.config(
  {
    ignores: [
      'build/**',
      '.react-router/**',
      'node_modules/**',
      '.data/**',
      'test-results/**',
      'bench/results/**',
      'public/**',
      'examples/**',
      'docs/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { layers },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrors: 'none',
        },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      ...restrict(shopCode),
      // Japanese text uses the ideographic space (U+3000) on purpose.
      'no-irregular-whitespace': [
        'error',
        { skipStrings: true, skipTemplates: true, skipJSXText: true, skipRegExps: true, skipComments: true },
      ],
      // Input rules reject control characters by matching them: the ranges are intended.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['app/**/*.tsx', 'app/**/*.ts'],
    plugins: { react, 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    settings: { react: { version: '19' } },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat['jsx-runtime'].rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'react/prop-types': 'off',
      // A label may wrap its control with the text a level or two deeper (title and note).
      'jsx-a11y/label-has-associated-control': ['error', { depth: 3 }],
    },
  },
  // Sizes (issue 30): a source file over 500 lines holds several concerns, a function over 150 lines several
  // steps; split along the file's own sections (docs/conventions.md). Tests and their kits are exempt.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: TEST_FILES,
    rules: {
      'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  // The layers (decision 066): the app reaches the server through '#server/context'; the server never imports the app.
  { files: ['app/**/*.{ts,tsx}'], ignores: TEST_FILES, rules: restrict([...shopCode, ...appToServer]) },
  { files: ['server/**/*.{ts,tsx}'], ignores: TEST_FILES, rules: restrict([...shopCode, ...notApp]) },
  ...moduleBlocks,
  {
    // db/client gathers every table for Drizzle; tests and benchmarks may read tables to verify.
    files: ['db/client.ts', 'drizzle.config.ts', ...TEST_FILES],
    rules: {
      ...restrict(everywhere),
      // Tests read arbitrary JSON answers.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // The stand-ins are development tools: they may import each other's shared helpers.
  { files: ['devtools/**/*.ts'], rules: restrict(everywhere) },
  // The gathered schema is the one file that reaches into every module's schema.ts.
  { files: ['db/schema.ts'], rules: { 'no-restricted-imports': 'off', 'layers/no-restricted-dynamic-import': 'off' } },
);
