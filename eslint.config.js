// @ts-check
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';

/** The features folders: each may import only itself, never another feature. */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const zodImport = {
  selector: 'ImportDeclaration[source.value=/^zod(\\/|$)/]',
  message: "Import z from src/contract/z.ts ('@/contract/z' in src), the one zod: zod/mini, English messages.",
};
const serverImport = {
  regex: '^(\\.\\./)+server(/|$)',
  message: 'src/ never imports server/: the SPA talks to any server over HTTP.',
};

/**
 * Component-test helpers (test/testing/, alias `@testing`) run the reference server: only test
 * files may import them, so app code still never reaches server/.
 */
const testingImport = {
  group: ['@testing', '@testing/**', '**/test/testing/**', '**/test/**'],
  message: 'Only test files import test helpers (`@testing`); app code never does.',
};

/** Shared code (src/components, src/lib) serves every feature and imports none. */
const featureImport = {
  group: ['@/features/**', '**/features/**'],
  message:
    'Shared code (src/components, src/lib) never imports a feature: pass what it needs as props or render props.',
};

/** server/ imports from src/ only the contract. */
const serverSrcImports = [
  { group: ['@/*', '!@/contract', '!@/contract/**'], message: 'server/ imports from src/ only src/contract/.' },
  { regex: '(^|/)src/(?!contract(/|$))', message: 'server/ imports from src/ only src/contract/.' },
];

/** The server's domain folders: below server/http/, which maps their errors to the API's. */
const SERVER_DOMAINS = ['analytics', 'batch-exports', 'dns', 'insights', 'mail', 'net', 'plugins', 'seed', 'store'];
const serverHttpImport = {
  regex: '^(\\.\\./)+http(/|$)',
  message:
    'Domain code never imports server/http/: throw an error of server/domain-errors.ts; server/http/errors.ts maps it (docs/server.md).',
};

const TEST_FILES = ['src/**/*.test.{ts,tsx}'];

/** One block per feature: importing another feature (by alias or by relative path) is an error. */
const featureBoundaries = features.map((feature) => ({
  files: [`src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          serverImport,
          ...features
            .filter((other) => other !== feature)
            .map((other) => ({
              group: [
                `@/features/${other}`,
                `@/features/${other}/**`,
                `**/features/${other}/**`,
                `../../${other}/**`,
                `../../../${other}/**`,
              ],
              message: `Features do not import each other (${feature} → ${other}); they meet in routes.`,
            })),
        ],
      },
    ],
  },
}));

/**
 * import-x's no-cycle with type-only imports counted. In eslint-plugin-import-x 4.18.1 the rule
 * skips `import type` edges and has no option to count them: the linted file's imports reach it
 * as value imports, and imported files are parsed by scripts/lint-type-edges-parser.cjs.
 */
const importXNoCycle = importX.rules['no-cycle'];
/** @param {any} node */
const asValueImport = (node) =>
  node?.type === 'ImportDeclaration'
    ? {
        ...node,
        importKind: 'value',
        specifiers: node.specifiers.map((/** @type {any} */ s) => ({ ...s, importKind: 'value' })),
      }
    : node;
/** @type {any} */
const noCycleCountingTypes = {
  ...importXNoCycle,
  create(/** @type {any} */ context) {
    const listener = /** @type {Record<string, (node: any) => void>} */ (importXNoCycle.create(context));
    return Object.fromEntries(
      Object.entries(listener).map(([selector, visit]) => [
        selector,
        (/** @type {any} */ node) => visit(asValueImport(node)),
      ]),
    );
  },
};
const typeEdgesParser = fileURLToPath(new URL('./scripts/lint-type-edges-parser.cjs', import.meta.url));

export default tseslint.config(
  {
    ignores: [
      'dist/',
      '.tmp/',
      'node_modules/',
      'src/routeTree.gen.ts',
      'test-results/',
      'playwright-report/',
      '.data/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, '@tanstack/query': pluginQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      ...pluginQuery.configs['flat/recommended'][0]?.rules,
    },
  },
  {
    // Import cycles anywhere (src, server, test, scripts), with eslint-plugin-import-x's no-cycle.
    files: ['**/*.{ts,tsx,js,mjs}'],
    // Static, re-exported, dynamic and type-only imports all count: two modules that import each
    // other, however lazily, are one design. Resolved like TypeScript (aliases `@/`, `@testing`).
    plugins: { 'import-cycles': { rules: { 'no-cycle': noCycleCountingTypes } } },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      // Imported .ts/.tsx files are read with the TypeScript parser, their type-only imports as values.
      'import-x/parsers': { [typeEdgesParser]: ['.ts', '.tsx', '.cts', '.mts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: { 'import-cycles/no-cycle': ['error', { allowUnsafeDynamicCyclicDependency: false }] },
  },
  {
    // A CommonJS file (the parser that import-x loads with require) imports with require.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // src/ never imports server/; component tests reach it only through `@testing`.
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [serverImport] }] },
  },
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [serverImport, featureImport] }] },
  },
  {
    // A second rule instance, so it composes with the boundary blocks above and below.
    files: ['src/**/*.{ts,tsx}'],
    ignores: TEST_FILES,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [testingImport] }] },
  },
  {
    // One zod (src/contract/z.ts): zod/mini with its English messages, on both sides.
    files: ['**/*.{ts,tsx}'],
    ignores: ['src/contract/z.ts'],
    rules: { 'no-restricted-syntax': ['error', zodImport] },
  },
  {
    // One way to load a component later (docs/kits.md): preloadable, which draws at once when
    // its code is there; React.lazy suspends on the first render even then.
    files: ['src/**/*.{ts,tsx}'],
    ignores: [...TEST_FILES, 'src/lib/preloadable.tsx', 'src/contract/z.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        zodImport,
        {
          selector: "ImportDeclaration[source.value='react'] ImportSpecifier[imported.name='lazy']",
          message: 'Load components later with preloadable (src/lib/preloadable.tsx), not React.lazy.',
        },
        {
          // sonner loads with the first toast (docs/kits.md): a static import would put it in the page's chunk.
          selector: "ImportDeclaration[source.value='sonner'][importKind='value']",
          message: "Show toasts with `toast` from '@/lib/toast', which loads sonner with the first one.",
        },
      ],
    },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            serverImport,
            {
              group: ['react', 'react-*', 'node:*', '@/*', '../*'],
              message: 'The contract is zod only: no React, no Node, no app code.',
            },
          ],
        },
      ],
    },
  },
  ...featureBoundaries,
  {
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: serverSrcImports }] },
  },
  {
    // The domain below the HTTP layer (docs/server.md, "Layers"): it throws server/domain-errors.ts's
    // errors and server/http/ maps them to the API's; it never imports server/http/.
    files: [`server/{${SERVER_DOMAINS.join(',')}}/**/*.ts`, 'server/domain-errors.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...serverSrcImports, serverHttpImport] }] },
  },
);
