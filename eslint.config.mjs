import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries are real (docs/architecture.md): apps import libs only; a context lib
 * imports platform libs and other contexts' public index.ts only; platform libs import
 * platform libs only; the composition lib (@taproot/contexts, the list of contexts the apps
 * iterate) imports contexts and platform libs. Deep imports into another project are refused.
 */
export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '.nx/**', 'tools/kafka/.cache/**', 'tools/fuzz/.cache/**', 'tools/sdk/.cache/**', 'tools/scim/.cache/**', 'tools/mcp/.cache/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:platform', 'type:context', 'type:composition'] },
            { sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['type:platform', 'type:context'] },
            { sourceTag: 'type:context', onlyDependOnLibsWithTags: ['type:platform', 'type:context'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform'] },
            // The repository's commands (npm start, the CLI, the test runner, the bench) compose the apps.
            { sourceTag: 'type:tooling', onlyDependOnLibsWithTags: ['type:app', 'type:platform', 'type:context', 'type:composition'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
];
