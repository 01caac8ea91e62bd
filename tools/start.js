// `npm start`: builds what changed since the last build (Nx, cached: a second start rebuilds
// nothing), then runs the built system (tools/dist/start.js) in this very process. Nx's output
// goes to stderr, so stdout carries only what the system prints. package.json runs it with a 4 MB
// young generation (--max-semi-space-size=4, V8's default grows to 16 MB): an idle system keeps
// about 30 MB less resident (docs/benchmarks.md, startup); a collection of it stays cheap.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const built = spawnSync(process.execPath, [join(__dirname, '..', 'node_modules', '.bin', 'nx'), 'run', '@taproot/tools:build', '--output-style=static'], {
  cwd: join(__dirname, '..'),
  stdio: ['ignore', 2, 2],
  env: { ...process.env, NX_DAEMON: 'false' },
});
if (built.status !== 0) {
  console.error(`npm start: the build failed (exit ${built.status ?? built.signal}); see above`);
  process.exit(1);
}
require('./dist/start.js');
