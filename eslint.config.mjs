import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import testBoundaries from './scripts/lint/test-boundaries.mjs';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', '.cache/**', 'coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        setImmediate: 'readonly',
        document: 'readonly',
        window: 'readonly',
        getComputedStyle: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read settings through @sitelens/config.' }],
    },
  },
  {
    // The config module, scripts, tests and benchmarks may read the environment.
    files: ['packages/config/src/**', 'packages/testkit/**', 'scripts/**', '**/test/**', 'test/**', 'bench/**', 'jest.config.js'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Tests read loosely shaped JSON bodies and poke at them field by field.
    files: ['**/test/**', 'test/**', 'packages/testkit/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests stay in their own tree: shared helpers come from @sitelens/testkit, other packages by name.
    files: ['**/test/**/*.{ts,js}', 'test/**/*.{ts,js}', 'packages/testkit/**/*.{ts,js}'],
    plugins: { 'test-boundaries': testBoundaries },
    rules: { 'test-boundaries/no-cross-package': 'error' },
  },
);
