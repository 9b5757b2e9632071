// ESLint finds code problems; Prettier (.prettierrc.json) owns the layout. eslint-config-prettier turns off
// every rule that would fight Prettier, and max-len is switched back on after it for what Prettier cannot wrap.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // node_modules/ is ignored by default; these are written at run time and are not in git.
  globalIgnores(['data/', 'dist/', '.bench/']),
  js.configs.recommended,
  // The recommended set without type information: the type-aware one needs a TypeScript program per run.
  tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // Prettier wraps code at the same width but cannot split strings, template literals, URLs or comments,
      // so none of those is exempt: no source line is longer than 120 characters. max-len stays in ESLint
      // until its version 11; @stylistic/max-len is the drop-in replacement then.
      'max-len': ['error', { code: 120 }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
);
