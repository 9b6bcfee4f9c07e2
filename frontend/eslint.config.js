// `npm run lint` (part of `make test`): ESLint 9 flat config. typescript-eslint's recommended
// rules everywhere; React hooks, react-refresh and jsx-a11y (accessibility) on the app's code.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { reactRefresh } from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  // src/gen is generated (`npm run generate`) and checked for freshness instead.
  globalIgnores(['dist/', 'src/gen/', 'test-results/', 'playwright-report/', 'blob-report/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `const { omitted: _, ...rest } = value` is how a property is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // The app (browser).
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended, reactRefresh.configs.vite(), jsxA11y.flatConfigs.recommended],
    languageOptions: { globals: globals.browser },
    rules: {
      // A scrolling table's wrapper (role="region" with a label) takes the focus, so keyboard
      // users can scroll it (axe: scrollable-region-focusable). The rest as recommended.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true }],
    },
  },
  {
    // Build scripts, tests and tool configuration (Node).
    files: ['scripts/**/*.mjs', 'e2e/**/*.ts', '*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['public/sw.js'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    // Runs before the app, in any browser: ES5 on purpose (`var`, a named catch binding).
    files: ['public/theme-init.js'],
    languageOptions: { globals: globals.browser, ecmaVersion: 5, sourceType: 'script' },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
]);
