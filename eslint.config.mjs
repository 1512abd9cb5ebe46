// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules everywhere, Next's
// rules (core web vitals included) and the React Hooks rules for the dashboard. Formatting is
// Prettier's job (prettier.config.mjs), so no stylistic rules here.
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

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
    // One error hierarchy (lib/errors): a class in lib extends a DomainError category, so every
    // caller tells a missing thing from a refusal by type and a client reads a stable code.
    files: ['lib/**/*.ts'],
    ignores: ['lib/errors/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ClassDeclaration[superClass.name='Error'], ClassExpression[superClass.name='Error']",
          message: 'Extend a DomainError category from lib/errors (NotFoundError, RefusedError, UnavailableError, …) with a stable code, not Error.',
        },
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
  {
    // One writer per state (issue 28): a generation row is created or updated only by
    // lib/evolution/generation-writer.ts, which checks the expected revision, asserts the move,
    // bumps the revision and audits it in the caller's transaction. Tests and fixtures may seed rows.
    files: ['{lib,app,cli,workers,scripts}/**/*.{ts,tsx,mjs}', '*.ts'],
    ignores: ['lib/evolution/generation-writer.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.property.name='generation'][property.name=/^(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert)$/]",
          message: 'Generation rows are written only by lib/evolution/generation-writer.ts (changeGenerationState, createGeneration).',
        },
        {
          selector: 'TemplateElement[value.raw=/\\bupdate\\s+"?generation"?\\s+set\\b/i], Literal[value=/\\bupdate\\s+"?generation"?\\s+set\\b/i]',
          message: 'Generation rows are written only by lib/evolution/generation-writer.ts (changeGenerationState), not by raw SQL.',
        },
      ],
    },
  },
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
