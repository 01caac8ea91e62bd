import { test } from '@jest/globals';
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { bareImports, packageOf } from './source-imports';

// Jest runs from the workspace root (jest.config.mjs); ES modules have no `__dirname`.
const root = process.cwd();

/** The code the apps run: apps' and libs' sources, without their tests and fixtures. */
const productionFiles = () =>
  globSync(['apps/*/src/**/*.ts', 'libs/**/src/**/*.ts'], { cwd: root }).filter((f) => !/(\.|-)spec\.ts$|\.fixture\.ts$|\/fixtures\//.test(f) && !f.includes('node_modules'));

/** Packages outside the workspace and Node's built-ins. */
const externalImports = (source: string) => bareImports(source).filter((s) => !s.startsWith('node:') && !builtinModules.includes(packageOf(s)) && !s.startsWith('@taproot/'));

test('every package the apps and libs load at run time is a production dependency (npm ci --omit=dev keeps it)', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const missing = new Map<string, string[]>();
  const files = productionFiles();
  assert.ok(files.length > 100, `found only ${files.length} source files`);
  for (const file of files) {
    for (const name of new Set(externalImports(readFileSync(join(root, file), 'utf8')).map(packageOf))) {
      if (!(name in manifest.dependencies)) missing.set(name, [...(missing.get(name) ?? []), file]);
    }
  }
  assert.deepEqual(Object.fromEntries(missing), {}, 'imported by production code but not in package.json dependencies');
});
