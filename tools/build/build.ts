/**
 * The `build` target of every project (`npx nx run-many -t build`): compiles a project's sources
 * (`<project>/<sources>/**\/*.ts`, tests and declarations left out) to CommonJS JavaScript in
 * `<project>/dist`, with SWC, file by file, as the development register does in memory (decorator
 * metadata kept: NestJS's injection reads it). Workspace imports (`@taproot/x`) stay as written and
 * resolve at run time through node_modules to each package's `main`, its built `dist/index.js`, so
 * the built apps run on plain `node` with production dependencies only.
 *
 *   node -r ./tools/register.js tools/build/build.ts <project root> [sources folder, default src]
 */
import { globSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { transformFile, type Options } from '@swc/core';

const ROOT = resolve(__dirname, '..', '..');

const SWC: Options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: true,
  swcrc: false,
};

/** What ships: sources, not their tests, fixtures or type declarations. */
const shipped = (file: string) => !/(\.|-)spec\.ts$|\.d\.ts$|\.fixture\.ts$/.test(file) && !file.split('/').includes('fixtures');

export async function buildProject(projectRoot: string, sources = 'src'): Promise<number> {
  const project = resolve(ROOT, projectRoot);
  const from = join(project, sources);
  const out = join(project, 'dist');
  rmSync(out, { recursive: true, force: true });
  const files = globSync('**/*.ts', { cwd: from }).filter(shipped);
  for (const file of files) {
    const { code, map } = await transformFile(join(from, file), { ...SWC, filename: join(from, file), sourceFileName: relative(join(out, dirname(file)), join(from, file)) });
    const target = join(out, file.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${code}\n//# sourceMappingURL=${file.split('/').pop()!.replace(/\.ts$/, '.js.map')}\n`);
    if (map) writeFileSync(`${target}.map`, map);
  }
  return files.length;
}

if (require.main === module) {
  const [projectRoot, sources] = process.argv.slice(2);
  if (!projectRoot) {
    console.error('usage: build.ts <project root> [sources folder]');
    process.exit(2);
  }
  buildProject(projectRoot, sources).then(
    (n) => console.log(`${projectRoot}: ${n} files -> ${join(projectRoot, 'dist')}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
