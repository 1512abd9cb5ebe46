// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules everywhere, Next's
// rules (core web vitals included) and the React Hooks rules for the dashboard. Formatting is
// Prettier's job (prettier.config.mjs), so no stylistic rules here.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Layers (README, "Layers"). Every folder of lib/ is one module and sits in one layer; a module
// imports only modules of its own layer or of layers below it, and reaches another module only
// through that module's entry point: lib/<m>/index.ts (its public API, re-exported by name), or
// lib/<m>/browser.ts (its browser-safe part) from client components. lib imports nothing from
// app/, workers/, cli/, bench/ or scripts/. Tests (*.test.ts, test/, e2e/) are white-box: they may
// import a module's private files. A new folder of lib/ must be added to a layer here first.
const LAYERS = [
  { name: 'core', modules: ['errors', 'config', 'log', 'text', 'csv', 'net', 'db', 'queue', 'audit', 'auth', 'states', 'bundle'] },
  { name: 'environments', modules: ['env', 'sandbox', 'validate'] },
  { name: 'evolution', modules: ['sequence', 'difficulty', 'synth', 'gate', 'rubric', 'missed-issues', 'evolution'] },
  { name: 'training', modules: ['rollout', 'scheduler', 'trajectories'] },
  { name: 'read models', modules: ['dashboard', 'drift', 'calibration', 'review'] },
];
// A module's entry points, from lib/: <module>/index.ts, <module>/browser.ts, and lib/db's schema
// tooling (migrations, test databases), which the web app never imports: its bundler cannot follow them.
const EXTRA_ENTRY_POINTS = ['db/migrations.ts'];
const ENTRY_POINT = `(?:[^/]+/(?:index|browser)\\.ts|${EXTRA_ENTRY_POINTS.map((entry) => entry.replaceAll('.', '\\.')).join('|')})$`;
const OUTSIDE_LIB = ['app', 'workers', 'cli', 'bench', 'scripts'];
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', 'test/**', 'e2e/**'];
const DEEP_IMPORT_MESSAGE =
  'Import another lib module through its entry point (lib/<module>/index.ts; lib/<module>/browser.ts in a client component; lib/db/migrations.ts for schema tooling), not one of its files: they are private to it (README, Layers).';

const unplaced = readdirSync(new URL('./lib', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !LAYERS.some((layer) => layer.modules.includes(entry.name)))
  .map((entry) => entry.name);
if (unplaced.length > 0) throw new Error(`eslint.config.mjs: put lib/${unplaced.join(', lib/')} in a layer of LAYERS (README, Layers)`);

/** The no-restricted-imports blocks for a module's files `depth` folders below lib/<module>/. */
function moduleImportRules(layerIndex, module, depth) {
  const toLib = `^(?:\\.\\./){${depth + 1}}`; // a relative specifier climbing from the file to lib/
  const above = LAYERS.slice(layerIndex + 1).flatMap((layer) => layer.modules);
  const allowed = LAYERS.slice(0, layerIndex + 1).map((layer) => layer.name);
  const patterns = [
    { regex: `${toLib}(?!${module}/)(?!${ENTRY_POINT})[^./][^/]*/`, message: DEEP_IMPORT_MESSAGE },
    { regex: `^@/lib/(?!${module}/)(?!${ENTRY_POINT})[^/]+/`, message: DEEP_IMPORT_MESSAGE },
    {
      regex: `(?:${toLib}\\.\\./|^@/)(?:${OUTSIDE_LIB.join('|')})/`,
      message: `lib imports nothing from ${OUTSIDE_LIB.map((dir) => `${dir}/`).join(', ')}: they build on lib, never the other way round (README, Layers).`,
    },
  ];
  if (above.length > 0) {
    patterns.push({
      regex: `(?:${toLib}|^@/lib/)(?:${above.join('|')})/`,
      message: `lib/${module} is in the ${LAYERS[layerIndex].name} layer: it imports only from ${allowed.join(', ')} (README, Layers). Move what both need down a layer instead.`,
    });
  }
  return {
    files: [`lib/${module}/${'*/'.repeat(depth)}*.{ts,tsx}`],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

const layerRules = [
  ...LAYERS.flatMap((layer, layerIndex) => layer.modules.flatMap((module) => [0, 1, 2, 3].map((depth) => moduleImportRules(layerIndex, module, depth)))),
  {
    // The code built on lib (the dashboard, the workers, the CLI, the benchmarks) may import any
    // module, through its entry point.
    files: [`{${OUTSIDE_LIB.join(',')}}/**/*.{ts,tsx,mjs}`, '*.{ts,tsx}'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: `^(?:@/|(?:\\.\\./)+)lib/(?!${ENTRY_POINT})[^/]+/`, message: DEEP_IMPORT_MESSAGE }] }],
    },
  },
];

// One error hierarchy (lib/errors): a class in lib extends a DomainError category, so every
// caller tells a missing thing from a refusal by type and a client reads a stable code.
const DOMAIN_ERRORS = [
  {
    selector: "ClassDeclaration[superClass.name='Error'], ClassExpression[superClass.name='Error']",
    message: 'Extend a DomainError category from lib/errors (NotFoundError, RefusedError, UnavailableError, …) with a stable code, not Error.',
  },
];
// One writer per state: a generation row is created or updated only by
// lib/evolution/generation-writer.ts, which checks the expected revision, asserts the move,
// bumps the revision and audits it in the caller's transaction. Tests and fixtures may seed rows.
const ONE_GENERATION_WRITER = [
  {
    selector:
      "MemberExpression[object.property.name='generation'][property.name=/^(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert)$/]",
    message: 'Generation rows are written only by lib/evolution/generation-writer.ts (changeGenerationState, createGeneration).',
  },
  {
    selector: 'TemplateElement[value.raw=/\\bupdate\\s+"?generation"?\\s+set\\b/i], Literal[value=/\\bupdate\\s+"?generation"?\\s+set\\b/i]',
    message: 'Generation rows are written only by lib/evolution/generation-writer.ts (changeGenerationState), not by raw SQL.',
  },
];
const GENERATION_WRITER = 'lib/evolution/generation-writer.ts';

export default tseslint.config(
  {
    // Generated or produced by tools, never edited by hand.
    ignores: [
      'node_modules/',
      '.next/',
      '.next-*/',
      'data/',
      'lib/db/generated/',
      'lib/db/generated-pg/',
      'prisma/migrations*/',
      'bench/results/',
      'e2e/screenshots/',
      'test-results/',
      'playwright-report/',
      'next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    languageOptions: {
      globals: {
        // The code runs on Node (lib, workers, scripts) and in the browser (app client components).
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
        window: 'readonly',
        document: 'readonly',
      },
    },
    rules: {
      // `_` marks what is left out on purpose (an ignored destructured field, an unused parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.test.ts'],
    rules: {
      // Off in tests only: they build malformed foreign documents (ATIF, CTRF) by mutating deep
      // JSON paths, where a type per path would be noise, not safety. Product code keeps the rule.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // no-restricted-syntax is one rule: the block a file matches last sets all of its selectors, so
  // each block below names every selector that applies to its files.
  {
    files: ['{lib,app,cli,workers,scripts}/**/*.{ts,tsx,mjs}', '*.ts'],
    ignores: [GENERATION_WRITER, '**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...ONE_GENERATION_WRITER] },
  },
  {
    files: ['lib/**/*.ts'],
    ignores: ['lib/errors/**', GENERATION_WRITER, '**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...DOMAIN_ERRORS, ...ONE_GENERATION_WRITER] },
  },
  {
    files: [GENERATION_WRITER, 'lib/**/*.test.ts'],
    ignores: ['lib/errors/**'],
    rules: { 'no-restricted-syntax': ['error', ...DOMAIN_ERRORS] },
  },
  ...layerRules,
  {
    files: ['app/**/*.{ts,tsx}', 'proxy.ts', 'instrumentation*.ts'],
    plugins: { '@next/next': nextPlugin, 'react-hooks': reactHooks },
    settings: { next: { rootDir: '.' } },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
      ...reactHooks.configs.recommended.rules,
    },
  },
);
