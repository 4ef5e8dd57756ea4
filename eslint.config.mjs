// ESLint for the TypeScript of both halves, after JupyterLab's own eslint.config.mjs (the
// recommended sets of ESLint and typescript-eslint), with the rules that catch bugs here.
// Formatting is Prettier's (.prettierrc, JupyterLab's settings): `npm run lint` runs both.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores([
    '**/node_modules',
    'dist',
    'sandbox/dist',
    'lib',
    'labextension',
    'python',
    'real-elasticsearch/*/target',
    'test-results',
    '.venv',
    '.jupyter-test',
    // The guide's site as Sphinx writes it (npm run docs:build)
    'docs/_build'
  ]),
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      globals: { ...globals.node },
      ecmaVersion: 2022
    },
    rules: {
      eqeqeq: 'error',
      curly: ['error', 'all']
    }
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: {
      globals: { ...globals.node, ...globals.browser, ...globals.jest },
      ecmaVersion: 2022
    },
    rules: {
      // TypeScript checks names itself, and knows the globals of each tsconfig better than a list.
      'no-undef': 'off',
      eqeqeq: 'error',
      // Braces on every branch: a statement added under an `if` cannot fall outside it unseen.
      // 'all' is the one setting Prettier never contradicts (it moves long bodies to the next
      // line, which 'multi-line' would then refuse); `eslint --fix` adds the braces.
      curly: ['error', 'all'],
      // Unused names are dead code or a bug; `_name` marks one a signature requires.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'none',
          ignoreRestSiblings: true
        }
      ],
      // Values crossing a module boundary are typed or parsed by a zod schema, never `any`.
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-ignore': true, 'ts-expect-error': 'allow-with-description' }
      ],
      // Type-only imports stay visible as such (isolatedModules, and the import check counts them).
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' }
      ],
      'no-control-regex': 'off',
      'no-useless-escape': 'error',
      // A `let` that closures read before its one assignment stays a `let` (const would not compile).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }]
    }
  }
]);
