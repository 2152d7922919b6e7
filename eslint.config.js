// ESLint: typescript-eslint's recommended type-checked rules over every TypeScript
// file (types from tsconfig.test.json: sources, tests, configs), and unused code as
// an error. Formatting is prettier's (.prettierrc.json), not ESLint's.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'results/', '.test-results/', 'work/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Failure messages in tests show arrays and record fields as their plain text.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // The page of `tafel serve`: browser code, its types from its own tsconfig (the DOM's).
    files: ['web/**/*.ts'],
    languageOptions: {
      globals: globals.browser,
      parserOptions: { project: './web/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  // The example bots import the built package ('tafel'), so their types exist only after a
  // build; test/bot-author.test.ts type-checks them with their own tsconfig.json.
  { files: ['bots/examples/**/*.ts'], ...tseslint.configs.disableTypeChecked },
);
