#!/usr/bin/env node
/**
 * `npm ci` refuses a lockfile that lacks any optional dependency a package declares. Some
 * registries serve only the platform builds of native packages (swc, nx) for the platforms they
 * host, so `npm install` leaves the other builds out of package-lock.json and the next `npm ci`
 * fails with "Missing: @swc/core-darwin-arm64@ from lock file". This adds those entries back,
 * marked optional with the os/cpu/libc their names state, so npm skips them on other machines
 * without fetching them. Run it after any `npm install` that changes the lockfile:
 *   node tools/scripts/complete-lockfile.js
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const file = join(__dirname, '..', '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

function platformOf(name) {
  const n = name.toLowerCase();
  const os = ['darwin', 'win32', 'freebsd', 'linux', 'android', 'openbsd', 'sunos'].find((o) => n.includes(o));
  const cpu = ['arm64', 'x64', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'arm'].find((c) => n.includes(`-${c}`));
  const libc = n.includes('musl') ? 'musl' : n.includes('-gnu') && os === 'linux' ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const at = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`;
    if (packages[at] || packages[`node_modules/${dep}`]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os || !cpu || !/^\d+\.\d+\.\d+/.test(range)) continue; // not a platform build: leave it to npm
    packages[`node_modules/${dep}`] = {
      version: range,
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      os: [os],
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} platform build entries added`);
