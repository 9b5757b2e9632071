// ESLint finds code problems; Prettier (.prettierrc.json) owns the layout. eslint-config-prettier turns off
// every rule that would fight Prettier, and max-len is switched back on after it for what Prettier cannot wrap.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The first line of a test or a suite: `it('…', …)`, `describe.only('…', …)`. */
const testTitle = String.raw`^\s*(describe|context|it|specify)(\.only|\.skip)?\(`;

export default defineConfig(
  // node_modules/ is ignored by default; these are written at run time and are not in git.
  globalIgnores(['data/', '**/dist/', '.bench/', 'test-artifacts/']),
  js.configs.recommended,
  // Without type information: the type-aware set adds mostly no-unsafe-* rules, which flag every read of a parsed
  // JSON body in the tests.
  tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // Prettier wraps code at the same width but cannot split strings, template literals, URLs or comments,
      // so none of those is exempt: no source line is longer than 120 characters. max-len stays in ESLint
      // until its version 11; @stylistic/max-len is the drop-in replacement then.
      'max-len': ['error', { code: 120 }],
      // The code drops a property by destructuring it beside a rest (`{ position: _position, ...line }`) and names
      // a loop variable it does not read `_`: neither is an unused variable.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**'],
    rules: {
      // A test's title is the sentence its report prints, so the line that opens a test or a suite may run long;
      // every other test line keeps to 120.
      'max-len': ['error', { code: 120, ignorePattern: testTitle }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
);
