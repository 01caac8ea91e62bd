/**
 * Validates the container and deployment files under docker/ as text: no Docker engine or
 * Kubernetes cluster is involved. Run with
 *
 *   npm exec -- node -r ./tools/register.js --test docker/docker.spec.ts
 *
 * The checks are about real properties (cross-references between the Dockerfile, compose.yaml,
 * the Kubernetes manifests, the lockfile and the workspace layout), not just that files exist.
 */
import { test } from '@jest/globals';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { parseAllDocuments, parseDocument } from 'yaml';

// Jest runs from the workspace root (jest.config.mjs); ES modules have no `__dirname`.
const ROOT = process.cwd();
const DOCKER_DIR = join(ROOT, 'docker');
const K8S_DIR = join(DOCKER_DIR, 'k8s');

/** What each app is: its Dockerfile target, the env var naming its port, and the port. */
const APPS = [
  { name: 'api', portEnv: 'PORT', port: 3000 },
  { name: 'auth', portEnv: 'AUTH_PORT', port: 3001 },
  { name: 'webhook-dispatcher', portEnv: 'DISPATCHER_PORT', port: 3002 },
] as const;
type AppName = (typeof APPS)[number]['name'];

/** Env vars the apps read (libs/platform/config); a Kubernetes service link must not shadow one. */
const APP_ENV_VARS = [
  'PORT', 'AUTH_PORT', 'DISPATCHER_PORT', 'HOST', 'DATABASE_URL', 'DATA_DIR', 'EMBEDDED_POSTGRES_PORT',
  'KAFKA_BROKERS', 'KAFKA_CLIENT_ID', 'BOOTSTRAP_API_KEY', 'LOG_LEVEL', 'CURSOR_SECRET',
  'RELAY_POLL_MS', 'AUTH_CACHE_TTL_MS',
];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const SECRET_NAME = /PASSWORD|SECRET|API_KEY|TOKEN|PRIVATE_KEY|CREDENTIAL|DATABASE_URL/i;

const read = (path: string): string => readFileSync(path, 'utf8');
const isRecord = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

function memo<T>(fn: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = fn();
      done = true;
    }
    return value;
  };
}

/** Glob (`*`, `?`, `**`) to an anchored RegExp over '/'-separated paths. */
function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** Expands a workspace glob such as `libs/platform/*` to existing directories. */
function expandDirGlob(glob: string): string[] {
  let paths = [''];
  for (const segment of glob.split('/')) {
    const next: string[] = [];
    for (const base of paths) {
      const abs = join(ROOT, base);
      if (/[*?]/.test(segment)) {
        if (!existsSync(abs)) continue;
        const re = globToRegExp(segment);
        for (const entry of readdirSync(abs)) {
          if (re.test(entry) && statSync(join(abs, entry)).isDirectory()) next.push(posix.join(base, entry));
        }
      } else if (existsSync(join(abs, segment))) next.push(posix.join(base, segment));
    }
    paths = next;
  }
  return paths;
}

// ---------------------------------------------------------------------------------------------
// Dockerfile model
// ---------------------------------------------------------------------------------------------

interface Instruction {
  keyword: string;
  args: string;
  line: number;
  flags: Record<string, string | true>;
  /** Args after the flags. */
  rest: string;
}
interface Stage {
  index: number;
  name: string | null;
  from: string;
  /** Index of the stage this one is based on, or null for an external image. */
  parent: number | null;
  instructions: Instruction[];
}
interface DockerfileModel {
  directives: Record<string, string>;
  globalArgs: Record<string, string>;
  stages: Stage[];
}

function splitFlags(args: string): { flags: Record<string, string | true>; rest: string } {
  const flags: Record<string, string | true> = {};
  let rest = args.trim();
  for (;;) {
    const m = /^--([a-z-]+)(?:=("(?:[^"\\]|\\.)*"|\S+))?\s*/.exec(rest);
    if (!m) break;
    flags[m[1]] = m[2] === undefined ? true : m[2];
    rest = rest.slice(m[0].length);
  }
  return { flags, rest };
}

function parseDockerfile(text: string): DockerfileModel {
  const lines = text.split(/\r?\n/);
  const directives: Record<string, string> = {};
  let i = 0;
  // Parser directives: `# key=value` lines at the very top.
  for (; i < lines.length; i++) {
    const m = /^#\s*([a-z]+)\s*=\s*(\S+)\s*$/i.exec(lines[i]);
    if (!m) break;
    directives[m[1].toLowerCase()] = m[2];
  }
  assert.equal(directives.escape ?? '\\', '\\', 'the parser only supports the default escape character');

  const instructions: Instruction[] = [];
  while (i < lines.length) {
    const raw = lines[i];
    const startLine = i + 1;
    i++;
    if (/^\s*(#.*)?$/.test(raw)) continue;
    let logical = raw;
    // Line continuation; comment and empty lines inside a continuation are dropped (as Docker does).
    while (/\\\s*$/.test(logical)) {
      logical = logical.replace(/\\\s*$/, ' ');
      while (i < lines.length && /^\s*(#.*)?$/.test(lines[i])) i++;
      if (i >= lines.length) break;
      logical += lines[i];
      i++;
    }
    const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(logical);
    assert.ok(m, `Dockerfile line ${startLine}: not an instruction: ${raw}`);
    const keyword = m[1].toUpperCase();
    const args = m[2].trim();
    assert.ok(!/<<-?\s*["']?[A-Z]+/.test(args), `Dockerfile line ${startLine}: heredocs are not supported by this validator`);
    instructions.push({ keyword, args, line: startLine, ...splitFlags(args) });
  }

  const known = new Set([
    'FROM', 'RUN', 'CMD', 'LABEL', 'EXPOSE', 'ENV', 'ADD', 'COPY', 'ENTRYPOINT', 'VOLUME', 'USER',
    'WORKDIR', 'ARG', 'ONBUILD', 'STOPSIGNAL', 'HEALTHCHECK', 'SHELL',
  ]);
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const ins of instructions) {
    assert.ok(known.has(ins.keyword), `Dockerfile line ${ins.line}: unknown instruction ${ins.keyword}`);
    if (ins.keyword === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.rest);
      assert.ok(m, `Dockerfile line ${ins.line}: malformed FROM`);
      const from = m[1].replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => {
        assert.ok(name in globalArgs, `Dockerfile line ${ins.line}: FROM uses undeclared ARG ${name}`);
        return globalArgs[name];
      });
      const name = m[2]?.toLowerCase() ?? null;
      if (name) {
        assert.ok(/^[a-z][a-z0-9_.-]*$/.test(name), `Dockerfile line ${ins.line}: bad stage name ${name}`);
        assert.ok(!stages.some((s) => s.name === name), `Dockerfile line ${ins.line}: duplicate stage name ${name}`);
      }
      const parentIndex = stages.findIndex((s) => s.name === from.toLowerCase());
      stages.push({ index: stages.length, name, from, parent: parentIndex === -1 ? null : parentIndex, instructions: [] });
    } else if (stages.length === 0) {
      assert.equal(ins.keyword, 'ARG', `Dockerfile line ${ins.line}: only ARG may precede the first FROM`);
      for (const [k, v] of parseKeyValues(ins.rest)) globalArgs[k] = v ?? '';
    } else {
      stages[stages.length - 1].instructions.push(ins);
    }
  }
  return { directives, globalArgs, stages };
}

/** Shell-like tokenizer (quotes and backslash escapes). */
function tokenize(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let has = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < s.length) cur += s[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < s.length) {
      cur += s[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (has || cur) out.push(cur);
  return out;
}

/** `ENV a=1 b="2"` / `ARG a=1` / legacy `ENV a 1`. */
function parseKeyValues(rest: string): Array<[string, string | undefined]> {
  const tokens = tokenize(rest);
  if (tokens.length >= 1 && !tokens[0].includes('=') && tokens.length > 1) {
    return [[tokens[0], tokens.slice(1).join(' ')]];
  }
  return tokens.map((t) => {
    const eq = t.indexOf('=');
    return eq === -1 ? [t, undefined] : [t.slice(0, eq), t.slice(eq + 1)];
  });
}

function execForm(rest: string, where: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rest);
  } catch {
    assert.fail(`${where}: expected exec (JSON array) form, got: ${rest}`);
  }
  assert.ok(Array.isArray(parsed) && parsed.every((p) => typeof p === 'string'), `${where}: expected a JSON array of strings`);
  return parsed as string[];
}

/** Instructions of a stage and of every stage it is built on, outermost first. */
function chain(model: DockerfileModel, stage: Stage): Instruction[] {
  const stages: Stage[] = [];
  for (let s: Stage | null = stage; s; s = s.parent === null ? null : model.stages[s.parent]) stages.unshift(s);
  return stages.flatMap((s) => s.instructions);
}

function envAt(instructions: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const ins of instructions) {
    if (ins.keyword === 'ENV') for (const [k, v] of parseKeyValues(ins.rest)) env[k] = v ?? '';
  }
  return env;
}

const dockerfile = memo(() => parseDockerfile(read(join(DOCKER_DIR, 'Dockerfile'))));
const stageNamed = (name: string): Stage => {
  const stage = dockerfile().stages.find((s) => s.name === name);
  assert.ok(stage, `Dockerfile has no stage named ${name}`);
  return stage;
};
const rootPackage = memo(() => JSON.parse(read(join(ROOT, 'package.json'))) as Record<string, any>);

/** The RUN that installs dependencies, and its stage. */
function npmInstall(): { stage: Stage; ins: Instruction } {
  for (const stage of dockerfile().stages) {
    const ins = stage.instructions.find((x) => x.keyword === 'RUN' && /\bnpm\s+(ci|install)\b/.test(x.rest));
    if (ins) return { stage, ins };
  }
  assert.fail('no RUN npm ci in the Dockerfile');
}

// ---------------------------------------------------------------------------------------------
// Dockerfile tests
// ---------------------------------------------------------------------------------------------

test('Dockerfile: every FROM is an earlier stage or a pinned Node 24 bookworm-slim image', () => {
  const { stages } = dockerfile();
  assert.ok(stages.length >= 2, 'expected a multi-stage build');
  const engines = String(rootPackage().engines?.node ?? '');
  const major = /(\d+)/.exec(engines)?.[1];
  assert.equal(major, '24', `package.json engines.node (${engines}) should target Node 24`);
  let external = 0;
  for (const stage of stages) {
    if (stage.parent !== null) {
      assert.ok(stage.parent < stage.index, `stage ${stage.name} is based on a later stage`);
      continue;
    }
    external++;
    assert.match(
      stage.from,
      new RegExp(`^(docker\\.io/(library/)?)?node:${major}(\\.\\d+){0,2}-bookworm-slim(@sha256:[0-9a-f]{64})?$`),
      `stage ${stage.name ?? stage.index} is based on ${stage.from}, not a Node ${major} bookworm-slim image`,
    );
  }
  assert.ok(external >= 1);
});

test('Dockerfile: a target per app, each running its built main.js, its port, HEALTHCHECK and a non-root USER', () => {
  const model = dockerfile();
  for (const app of APPS) {
    const stage = stageNamed(app.name);
    const all = chain(model, stage);

    // CMD: exec form, plain node on the app's built entry (tools/build/build.ts writes src/main.ts to dist/main.js).
    const cmds = all.filter((x) => x.keyword === 'CMD');
    assert.ok(cmds.length > 0, `${app.name}: no CMD`);
    const cmd = cmds[cmds.length - 1];
    const argv = execForm(cmd.rest, `${app.name} CMD (line ${cmd.line})`);
    assert.deepEqual(argv, ['node', `apps/${app.name}/dist/main.js`]);
    assert.ok(existsSync(join(ROOT, 'apps', app.name, 'src/main.ts')), `apps/${app.name}/src/main.ts, which the build turns into dist/main.js`);
    assert.ok(existsSync(join(ROOT, 'apps', app.name, 'package.json')), `apps/${app.name} is not a workspace`);

    // USER: switched away from root before the CMD, and still non-root at the end.
    const userBeforeCmd = all.filter((x) => x.keyword === 'USER' && all.indexOf(x) < all.indexOf(cmd));
    assert.ok(userBeforeCmd.length > 0, `${app.name}: no USER before CMD`);
    const user = userBeforeCmd[userBeforeCmd.length - 1].rest.split(':')[0];
    assert.ok(!['root', '0', ''].includes(user), `${app.name}: runs as ${user}`);
    const lastUser = all.filter((x) => x.keyword === 'USER').pop()!;
    assert.equal(lastUser.rest.split(':')[0], user, `${app.name}: USER switches again after CMD`);

    // Port: ENV <portEnv>=<port> and EXPOSE <port>.
    const env = envAt(all);
    assert.equal(env[app.portEnv], String(app.port), `${app.name}: ENV ${app.portEnv}`);
    const exposed = all.filter((x) => x.keyword === 'EXPOSE').flatMap((x) => tokenize(x.rest)).map((p) => p.replace(/\/tcp$/, ''));
    assert.ok(exposed.includes(String(app.port)), `${app.name}: EXPOSE ${app.port} missing (has ${exposed})`);
    assert.equal(env.NODE_ENV, 'production', `${app.name}: NODE_ENV`);
    assert.equal(env.HOST, '0.0.0.0', `${app.name}: HOST must be 0.0.0.0 (the apps default to 127.0.0.1)`);

    // HEALTHCHECK: node's fetch against /healthz on this app's port; no curl/wget in slim images.
    const hc = all.filter((x) => x.keyword === 'HEALTHCHECK').pop();
    assert.ok(hc, `${app.name}: no HEALTHCHECK`);
    const m = /^CMD\s+(.*)$/s.exec(hc.rest);
    assert.ok(m, `${app.name}: HEALTHCHECK must be CMD, not ${hc.rest}`);
    const probe = execForm(m[1], `${app.name} HEALTHCHECK`);
    assert.equal(probe[0], 'node');
    const script = probe.join(' ');
    assert.match(script, /fetch\(/);
    assert.match(script, /\/healthz/);
    assert.ok(script.includes(`process.env.${app.portEnv}`) && script.includes(String(app.port)), `${app.name}: HEALTHCHECK probes the wrong port`);
    assert.doesNotMatch(script, /\b(curl|wget)\b/);
    for (const flag of ['interval', 'timeout']) assert.ok(hc.flags[flag], `${app.name}: HEALTHCHECK --${flag} not set`);

    // ENTRYPOINT, if any, must be exec form so signals reach the process.
    const ep = all.filter((x) => x.keyword === 'ENTRYPOINT').pop();
    if (ep) execForm(ep.rest, `${app.name} ENTRYPOINT`);
  }
});

test('Dockerfile: manifests are copied before npm ci, covering every workspace, for layer caching', () => {
  const model = dockerfile();
  const { stage, ins } = npmInstall();
  const before = chain(model, stage);
  const upTo = before.slice(0, before.indexOf(ins));
  const copies = upTo.filter((x) => x.keyword === 'COPY' && !x.flags.from);
  assert.ok(copies.length > 0, 'no COPY before npm ci');
  for (const c of copies) {
    const srcs = tokenize(c.rest).slice(0, -1);
    assert.ok(!srcs.includes('.') && !srcs.includes('./'), `line ${c.line}: the whole context is copied before npm ci, which defeats the layer cache`);
  }
  const sources = copies.flatMap((c) => tokenize(c.rest).slice(0, -1).map((src) => ({ src: src.replace(/^\.\//, ''), copy: c })));
  const covered = (path: string) => sources.find(({ src }) => globToRegExp(src).test(path));
  assert.ok(covered('package.json'), 'package.json is not copied before npm ci');
  assert.ok(covered('package-lock.json'), 'package-lock.json is not copied before npm ci');

  const workspaces: string[] = rootPackage().workspaces ?? [];
  assert.ok(workspaces.length > 0);
  let found = 0;
  for (const ws of workspaces) {
    for (const dir of expandDirGlob(ws)) {
      const manifest = `${dir}/package.json`;
      if (!existsSync(join(ROOT, manifest))) continue;
      found++;
      const hit = covered(manifest);
      assert.ok(hit, `workspace manifest ${manifest} is not copied before npm ci`);
      // A wildcard in a directory segment flattens the layout unless --parents is given.
      if (/[*?]/.test(posix.dirname(hit.src))) assert.ok(hit.copy.flags.parents, `line ${hit.copy.line}: globbed manifests need COPY --parents`);
    }
  }
  assert.ok(found >= APPS.length, 'expected at least the app workspaces');

  // COPY --parents is generally available from Dockerfile frontend 1.20 (earlier only in -labs).
  if (copies.some((c) => c.flags.parents)) {
    const syntax = model.directives.syntax ?? '';
    const v = /^(?:docker(?:\.io)?\/)?docker\/dockerfile(?:-upstream)?:(\d+)\.(\d+)(?:\.\d+)?(-labs)?$/.exec(syntax);
    assert.ok(v, `COPY --parents needs a "# syntax=docker/dockerfile:1.20" directive (has "${syntax}")`);
    const [maj, min] = [Number(v[1]), Number(v[2])];
    assert.ok(v[3] ? maj > 1 || min >= 7 : maj > 1 || min >= 20, `dockerfile frontend ${syntax} does not support COPY --parents`);
  }
});

test('Dockerfile: the build stage compiles every project and prunes to production dependencies; the runtime takes only that', () => {
  const model = dockerfile();
  const { stage: install, ins } = npmInstall();
  assert.match(ins.rest, /\bnpm\s+ci\b/, 'use npm ci (lockfile-exact)');
  assert.doesNotMatch(ins.rest, /--omit[= ]dev|--production|--only[= ]prod/, 'the build needs the devDependencies (SWC, Nx)');
  const build = stageNamed('build');
  assert.ok(chain(model, build).includes(ins), `the build stage builds on the ${install.name} stage's install`);
  const run = build.instructions.filter((x) => x.keyword === 'RUN').map((x) => x.rest).join(' && ');
  assert.match(run, /nx run-many -t build/, 'every project is built');
  assert.match(run, /npm prune --omit=dev/, 'devDependencies are pruned after the build');
  const pkg = rootPackage();
  for (const tool of ['nx', '@swc/core']) assert.ok(pkg.devDependencies?.[tool], `${tool} is a devDependency: the build has it, the runtime does not`);

  // The runtime stage and the app targets copy only from the build stage's production tree.
  const runtime = stageNamed('runtime');
  const copies = runtime.instructions.filter((x) => x.keyword === 'COPY');
  assert.ok(copies.length > 0 && copies.every((x) => String(x.flags.from).toLowerCase() === 'build'), 'the runtime copies only from the build stage');
  for (const app of APPS) {
    const own = stageNamed(app.name).instructions.filter((x) => x.keyword === 'COPY' || x.keyword === 'ADD');
    assert.deepEqual(own, [], `${app.name}: copies nothing of its own (sources, register)`);
    assert.ok(chain(model, stageNamed(app.name)).includes(copies[0]), `${app.name} is based on the runtime stage`);
  }
});

test('Dockerfile.dockerignore: excludes local state and secrets, keeps what the image needs', () => {
  const path = join(DOCKER_DIR, 'Dockerfile.dockerignore');
  assert.ok(existsSync(path), 'docker/Dockerfile.dockerignore is missing');
  const rules = read(path)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pattern = posix.normalize((negate ? l.slice(1) : l).replace(/^\/+/, '')).replace(/\/+$/, '');
      return { negate, re: globToRegExp(pattern) };
    });
  // Docker semantics: last matching rule wins; a rule matching a directory excludes its contents.
  const excluded = (file: string): boolean => {
    let result = false;
    const parts = file.split('/');
    for (const rule of rules) {
      for (let n = 1; n <= parts.length; n++) {
        if (rule.re.test(parts.slice(0, n).join('/'))) {
          result = !rule.negate;
          break;
        }
      }
    }
    return result;
  };
  for (const f of ['node_modules/pino/package.json', 'apps/api/node_modules/x/index.js', '.data/pg/PG_VERSION', '.git/HEAD', 'tools/kafka/.cache/kafka.tgz', '.env']) {
    assert.ok(excluded(f), `${f} should be excluded from the build context`);
  }
  for (const f of ['package.json', 'package-lock.json', 'tsconfig.base.json', 'tools/register.js', 'apps/api/package.json', 'apps/api/src/main.ts', 'libs/platform/config/src/index.ts']) {
    assert.ok(!excluded(f), `${f} is needed in the image but excluded`);
  }
});

// ---------------------------------------------------------------------------------------------
// compose.yaml
// ---------------------------------------------------------------------------------------------

function loadYaml(path: string, options: { merge?: boolean } = {}): unknown[] {
  const docs = parseAllDocuments(read(path), { merge: options.merge ?? false, prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const out: unknown[] = [];
  for (const doc of list) {
    assert.deepEqual(doc.errors.map(String), [], `${path}: YAML errors`);
    assert.deepEqual(doc.warnings.map(String), [], `${path}: YAML warnings`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

const compose = memo(() => {
  const doc = parseDocument(read(join(DOCKER_DIR, 'compose.yaml')), { merge: true });
  assert.deepEqual(doc.errors.map(String), [], 'compose.yaml: YAML errors');
  const value = doc.toJS() as Record<string, any>;
  assert.ok(isRecord(value) && isRecord(value.services), 'compose.yaml has no services');
  return value as { services: Record<string, Record<string, any>>; [k: string]: any };
});

function composeEnv(service: Record<string, any>): Record<string, string | null> {
  const env = service.environment;
  if (!env) return {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((e: string) => {
        const eq = String(e).indexOf('=');
        return eq === -1 ? [e, null] : [e.slice(0, eq), e.slice(eq + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? null : String(v)]));
}

function dependsOn(service: Record<string, any>): Record<string, { condition: string }> {
  const d = service.depends_on;
  if (!d) return {};
  if (Array.isArray(d)) return Object.fromEntries(d.map((n: string) => [n, { condition: 'service_started' }]));
  return d;
}

const INTERPOLATION = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

test('compose.yaml: postgres 17, single-node KRaft Kafka and the three apps', () => {
  const { services } = compose();
  for (const name of ['postgres', 'kafka', ...APPS.map((a) => a.name)]) assert.ok(services[name], `service ${name} missing`);
  assert.match(services.postgres.image, /^postgres:17([.-]|$)/);
  assert.match(services.kafka.image, /^apache\/kafka:\d+\.\d+\.\d+$/, 'pin an apache/kafka release');

  const kafka = composeEnv(services.kafka);
  const roles = (kafka.KAFKA_PROCESS_ROLES ?? '').split(',').map((r) => r.trim());
  assert.deepEqual([...roles].sort(), ['broker', 'controller'], 'combined broker+controller (KRaft)');
  assert.ok(!Object.keys(kafka).some((k) => /ZOOKEEPER/.test(k)), 'KRaft mode has no ZooKeeper');
  const nodeId = kafka.KAFKA_NODE_ID;
  assert.match(String(nodeId), /^\d+$/);
  const listeners = Object.fromEntries(
    String(kafka.KAFKA_LISTENERS).split(',').map((l) => {
      const m = /^([A-Z_]+):\/\/[^:]*:(\d+)$/.exec(l.trim());
      assert.ok(m, `bad listener ${l}`);
      return [m[1], Number(m[2])];
    }),
  );
  const controller = kafka.KAFKA_CONTROLLER_LISTENER_NAMES;
  assert.ok(controller && listeners[controller], 'controller listener is not bound');
  const voters = String(kafka.KAFKA_CONTROLLER_QUORUM_VOTERS).split(',');
  const kafkaHost = services.kafka.hostname ?? 'kafka';
  assert.ok(voters.includes(`${nodeId}@${kafkaHost}:${listeners[controller]}`), `quorum voters ${voters} do not name node ${nodeId}`);
  const protocolMap = String(kafka.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP).split(',').map((p) => p.split(':')[0]);
  for (const l of Object.keys(listeners)) assert.ok(protocolMap.includes(l), `listener ${l} has no security protocol`);
  for (const k of ['KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR', 'KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR']) {
    assert.equal(String(kafka[k]), '1', `${k} must be 1 on a single node`);
  }
  const advertised = String(kafka.KAFKA_ADVERTISED_LISTENERS).split(',').map((l) => l.trim().replace(/^[A-Z_]+:\/\//, ''));

  const pg = composeEnv(services.postgres);
  for (const app of APPS) {
    const svc = services[app.name];
    const env = composeEnv(svc);
    assert.equal(svc.build?.target, app.name, `${app.name}: build target`);
    assert.equal(resolve(DOCKER_DIR, svc.build.context), ROOT, `${app.name}: build context must be the repo root`);
    assert.equal(resolve(ROOT, svc.build.dockerfile), join(DOCKER_DIR, 'Dockerfile'));
    stageNamed(app.name);
    assert.equal(env[app.portEnv], String(app.port), `${app.name}: ${app.portEnv}`);
    assert.equal(env.HOST, '0.0.0.0', `${app.name}: HOST`);
    // KAFKA_BROKERS points at the broker's advertised listener.
    for (const broker of String(env.KAFKA_BROKERS).split(',')) {
      assert.ok(advertised.includes(broker.trim()), `${app.name}: KAFKA_BROKERS ${broker} is not an advertised listener (${advertised})`);
      assert.ok(services[broker.split(':')[0]], `${app.name}: broker host is not a service`);
    }
    // DATABASE_URL points at the postgres service, its user and database.
    const url = new URL(String(env.DATABASE_URL).replace(INTERPOLATION, 'x'));
    assert.match(url.protocol, /^postgres(ql)?:$/);
    assert.equal(url.hostname, 'postgres');
    assert.equal(url.username, pg.POSTGRES_USER);
    assert.equal(url.pathname, `/${pg.POSTGRES_DB}`);
    // Published ports and the health check use the app's port.
    for (const p of svc.ports ?? []) assert.equal(String(p).split(':').pop(), String(app.port), `${app.name}: published port`);
    assert.ok(JSON.stringify(svc.healthcheck?.test).includes(`:${app.port}/healthz`), `${app.name}: healthcheck must probe :${app.port}/healthz`);
    const deps = dependsOn(svc);
    for (const infra of ['postgres', 'kafka']) assert.equal(deps[infra]?.condition, 'service_healthy', `${app.name} must wait for a healthy ${infra}`);
  }
  assert.ok(composeEnv(services.api).BOOTSTRAP_API_KEY, 'api gets BOOTSTRAP_API_KEY');
});

test('compose.yaml: depends_on references existing services with health checks, without cycles', () => {
  const { services } = compose();
  const conditions = ['service_started', 'service_healthy', 'service_completed_successfully'];
  for (const [name, svc] of Object.entries(services)) {
    const check = svc.healthcheck?.test;
    assert.ok(check && !svc.healthcheck.disable && !(Array.isArray(check) && check[0] === 'NONE'), `${name}: no healthcheck`);
    if (Array.isArray(check)) assert.ok(['CMD', 'CMD-SHELL'].includes(check[0]), `${name}: healthcheck test must start with CMD or CMD-SHELL`);
    for (const [dep, spec] of Object.entries(dependsOn(svc))) {
      assert.ok(services[dep], `${name} depends on unknown service ${dep}`);
      assert.ok(conditions.includes(spec.condition), `${name} -> ${dep}: bad condition ${spec.condition}`);
      if (spec.condition === 'service_healthy') assert.ok(services[dep].healthcheck, `${name} waits for ${dep} to be healthy, but ${dep} has no healthcheck`);
    }
  }
  const state: Record<string, 'visiting' | 'done'> = {};
  const visit = (name: string, path: string[]) => {
    if (state[name] === 'done') return;
    assert.notEqual(state[name], 'visiting', `depends_on cycle: ${[...path, name].join(' -> ')}`);
    state[name] = 'visiting';
    for (const dep of Object.keys(dependsOn(services[name]))) visit(dep, [...path, name]);
    state[name] = 'done';
  };
  for (const name of Object.keys(services)) visit(name, []);
});

test('compose.yaml: apps that do not migrate the schema wait for the one that does', () => {
  const { services } = compose();
  // apps/<app>/src/main.ts passes `migrations: []` when the app leaves the schema to another.
  const mains = APPS.map((a) => ({ app: a.name, path: join(ROOT, 'apps', a.name, 'src', 'main.ts') })).filter((m) => existsSync(m.path));
  const migrators = mains.filter((m) => !/migrations:\s*\[\s*\]/.test(read(m.path))).map((m) => m.app);
  for (const m of mains) {
    if (migrators.includes(m.app)) continue;
    assert.ok(migrators.length > 0, 'no app migrates the schema');
    const deps = dependsOn(services[m.app]);
    assert.ok(
      migrators.some((x) => deps[x]?.condition === 'service_healthy'),
      `${m.app} does not migrate; it must wait for a healthy ${migrators.join(' or ')}`,
    );
  }
});

test('compose.yaml: secrets come from the host environment, never from a literal or a default', () => {
  const { services } = compose();
  let checked = 0;
  for (const [name, svc] of Object.entries(services)) {
    for (const [key, value] of Object.entries(composeEnv(svc))) {
      if (!SECRET_NAME.test(key) || value === null) continue;
      checked++;
      const where = `${name}.environment.${key}`;
      const refs = [...value.matchAll(INTERPOLATION)];
      assert.ok(refs.length > 0, `${where} is a literal`);
      for (const r of refs) {
        const op = r[2];
        assert.ok(op === undefined || op === '?' || op === ':?', `${where}: \${${r[1]}${op}...} supplies a default value`);
      }
      if (key === 'DATABASE_URL') {
        const placeholder = 'ENVPLACEHOLDER';
        const url = new URL(value.replace(INTERPOLATION, placeholder));
        assert.ok(url.password === placeholder, `${where}: the password must come from the environment`);
      } else {
        assert.equal(value.replace(INTERPOLATION, '').trim(), '', `${where} mixes a literal into the secret`);
      }
    }
    assert.ok(!JSON.stringify(svc.build?.args ?? {}).match(/PASSWORD|SECRET|KEY/i), `${name}: no secrets as build args`);
  }
  assert.ok(checked >= 4, 'expected POSTGRES_PASSWORD, DATABASE_URL and BOOTSTRAP_API_KEY to be checked');
});

// ---------------------------------------------------------------------------------------------
// Kubernetes manifests
// ---------------------------------------------------------------------------------------------

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  __file: string;
}

const NAME = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const labels = { type: 'object', additionalProperties: { type: 'string' } };
const metadata = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', pattern: NAME, maxLength: 63 }, namespace: { type: 'string', pattern: NAME }, labels },
};
const quantity = { anyOf: [{ type: 'string', pattern: '^[0-9.]+(m|k|Ki|M|Mi|G|Gi|T|Ti)?$' }, { type: 'number' }] };
const portRef = { anyOf: [{ type: 'integer', minimum: 1, maximum: 65535 }, { type: 'string', pattern: '^[a-z0-9-]{1,15}$' }] };
const probe = {
  type: 'object',
  required: ['httpGet'],
  properties: { httpGet: { type: 'object', required: ['path', 'port'], properties: { path: { type: 'string', pattern: '^/' }, port: portRef } } },
};
const selector = { type: 'object', required: ['matchLabels'], properties: { matchLabels: { ...labels, minProperties: 1 } } };
const container = {
  type: 'object',
  required: ['name', 'image', 'ports', 'readinessProbe', 'livenessProbe', 'resources', 'securityContext'],
  properties: {
    name: { type: 'string', pattern: NAME },
    image: { type: 'string', pattern: '^[a-z0-9./_-]+(:[A-Za-z0-9_.-]+)?(@sha256:[0-9a-f]{64})?$' },
    ports: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['containerPort'],
        properties: { containerPort: { type: 'integer', minimum: 1, maximum: 65535 }, name: { type: 'string', pattern: '^[a-z0-9-]{1,15}$' }, protocol: { enum: ['TCP', 'UDP', 'SCTP'] } },
      },
    },
    env: {
      type: 'array',
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { type: 'string' } } },
    },
    readinessProbe: probe,
    livenessProbe: probe,
    resources: {
      type: 'object',
      required: ['requests', 'limits'],
      properties: {
        requests: { type: 'object', required: ['cpu', 'memory'], properties: { cpu: quantity, memory: quantity } },
        limits: { type: 'object', required: ['cpu', 'memory'], properties: { cpu: quantity, memory: quantity } },
      },
    },
    securityContext: { type: 'object', required: ['runAsNonRoot'], properties: { runAsNonRoot: { const: true } } },
  },
};
const SCHEMAS: Record<string, object> = {
  'v1/Namespace': { type: 'object', required: ['metadata'], properties: { metadata } },
  'v1/ConfigMap': { type: 'object', required: ['metadata', 'data'], properties: { metadata, data: labels } },
  'v1/Secret': { type: 'object', required: ['metadata'], properties: { metadata, type: { type: 'string' }, data: labels, stringData: labels } },
  'v1/Service': {
    type: 'object',
    required: ['metadata', 'spec'],
    properties: {
      metadata,
      spec: {
        type: 'object',
        required: ['selector', 'ports'],
        properties: {
          type: { enum: ['ClusterIP', 'NodePort', 'LoadBalancer'] },
          selector: { ...labels, minProperties: 1 },
          ports: {
            type: 'array',
            minItems: 1,
            items: { type: 'object', required: ['port', 'targetPort'], properties: { port: { type: 'integer', minimum: 1, maximum: 65535 }, targetPort: portRef, name: { type: 'string' } } },
          },
        },
      },
    },
  },
  'apps/v1/Deployment': {
    type: 'object',
    required: ['metadata', 'spec'],
    properties: {
      metadata,
      spec: {
        type: 'object',
        required: ['selector', 'template'],
        properties: {
          replicas: { type: 'integer', minimum: 0 },
          selector,
          template: {
            type: 'object',
            required: ['metadata', 'spec'],
            properties: {
              metadata: { type: 'object', required: ['labels'], properties: { labels } },
              spec: { type: 'object', required: ['containers'], properties: { containers: { type: 'array', minItems: 1, items: container } } },
            },
          },
        },
      },
    },
  },
  'policy/v1/PodDisruptionBudget': {
    type: 'object',
    required: ['metadata', 'spec'],
    properties: {
      metadata,
      spec: {
        type: 'object',
        required: ['selector'],
        oneOf: [
          { required: ['minAvailable'], properties: { minAvailable: portRef } },
          { required: ['maxUnavailable'], properties: { maxUnavailable: portRef } },
        ],
        properties: { selector, minAvailable: portRef, maxUnavailable: portRef },
      },
    },
  },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    type: 'object',
    required: ['metadata', 'spec'],
    properties: {
      metadata,
      spec: {
        type: 'object',
        required: ['scaleTargetRef', 'maxReplicas'],
        properties: {
          scaleTargetRef: {
            type: 'object',
            required: ['apiVersion', 'kind', 'name'],
            properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string', pattern: NAME } },
          },
          minReplicas: { type: 'integer', minimum: 1 },
          maxReplicas: { type: 'integer', minimum: 1 },
          metrics: {
            type: 'array',
            minItems: 1,
            items: { type: 'object', required: ['type'], properties: { type: { enum: ['Resource', 'Pods', 'Object', 'External', 'ContainerResource'] } } },
          },
        },
      },
    },
  },
};

const validators = memo(() => {
  const ajv = new Ajv({ allErrors: true, strict: true });
  return Object.fromEntries(
    Object.entries(SCHEMAS).map(([key, schema]) => {
      const slash = key.lastIndexOf('/');
      // Every object also carries its own apiVersion and kind.
      const full = {
        ...schema,
        required: ['apiVersion', 'kind', ...((schema as any).required ?? [])],
        properties: { apiVersion: { const: key.slice(0, slash) }, kind: { const: key.slice(slash + 1) }, ...(schema as any).properties },
      };
      return [key, ajv.compile(full)];
    }),
  ) as Record<string, ValidateFunction>;
});

const kustomization = memo(() => {
  const [k] = loadYaml(join(K8S_DIR, 'kustomization.yaml')) as Array<Record<string, any>>;
  return k;
});

const manifests = memo((): K8sObject[] => {
  const out: K8sObject[] = [];
  for (const file of kustomization().resources as string[]) {
    for (const doc of loadYaml(join(K8S_DIR, file))) out.push({ ...(doc as K8sObject), __file: file });
  }
  return out;
});
const ofKind = <T = K8sObject>(kind: string) => manifests().filter((o) => o.kind === kind) as unknown as T[];
const secretExample = memo(() => {
  const docs = loadYaml(join(K8S_DIR, 'secret.example.yaml')) as K8sObject[];
  assert.equal(docs.length, 1);
  return docs[0];
});

const subset = (sel: Record<string, string>, labelsOf: Record<string, string> = {}) =>
  Object.entries(sel).every(([k, v]) => labelsOf[k] === v);

function cpu(q: string | number): number {
  const s = String(q);
  return s.endsWith('m') ? Number(s.slice(0, -1)) / 1000 : Number(s);
}
function bytes(q: string | number): number {
  const m = /^([0-9.]+)([A-Za-z]*)$/.exec(String(q));
  assert.ok(m, `bad quantity ${q}`);
  const units: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
  assert.ok(m[2] in units, `unknown unit in ${q}`);
  return Number(m[1]) * units[m[2]];
}

test('k8s: kustomization lists existing files, all of them, and not the example Secret', () => {
  const k = kustomization();
  assert.equal(k.apiVersion, 'kustomize.config.k8s.io/v1beta1');
  assert.equal(k.kind, 'Kustomization');
  assert.equal(k.namespace, 'taproot');
  const resources: string[] = k.resources;
  assert.ok(Array.isArray(resources) && resources.length > 0);
  assert.equal(new Set(resources).size, resources.length, 'duplicate resources');
  for (const r of resources) assert.ok(existsSync(join(K8S_DIR, r)), `kustomization lists missing file ${r}`);
  assert.ok(!resources.includes('secret.example.yaml'), 'the example Secret must not be applied');
  const onDisk = readdirSync(K8S_DIR).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml' && f !== 'secret.example.yaml');
  assert.deepEqual([...onDisk].sort(), [...resources].sort(), 'every manifest in docker/k8s is listed');
  const used = new Set(ofKind('Deployment').flatMap((d: any) => d.spec.template.spec.containers.map((c: any) => c.image.split(/[:@]/)[0])));
  for (const img of k.images ?? []) assert.ok(used.has(img.name), `kustomization image ${img.name} matches no container`);
});

test('k8s: every object has a known apiVersion/kind, a valid name and passes its schema', () => {
  const objects = manifests();
  const seen = new Set<string>();
  for (const o of objects) {
    const key = `${o.apiVersion}/${o.kind}`;
    const validate = validators()[key];
    assert.ok(validate, `${o.__file}: unknown apiVersion/kind ${key}`);
    const { __file, ...body } = o;
    assert.ok(validate(body), `${__file} ${o.kind}/${o.metadata?.name}: ${JSON.stringify(validate.errors, null, 1)}`);
    assert.ok(o.metadata.namespace === undefined || o.metadata.namespace === kustomization().namespace, `${__file}: namespace`);
    const id = `${o.kind}/${o.metadata.name}`;
    assert.ok(!seen.has(id), `duplicate ${id}`);
    seen.add(id);
  }
  const ns = ofKind('Namespace');
  assert.equal(ns.length, 1);
  assert.equal(ns[0].metadata.name, 'taproot');
  for (const kind of ['Namespace', 'ConfigMap', 'Deployment', 'Service', 'PodDisruptionBudget', 'HorizontalPodAutoscaler']) {
    assert.ok(ofKind(kind).length > 0, `no ${kind}`);
  }
  assert.equal(ofKind('Secret').length, 0, 'no Secret with values is applied from the repo');
});

test('k8s: Deployments select their pods, probe /readyz and /healthz on a declared port, and match the image', () => {
  const model = dockerfile();
  const deployments = ofKind<any>('Deployment');
  assert.deepEqual(deployments.map((d) => d.metadata.name).sort(), APPS.map((a) => a.name).sort());
  for (const d of deployments) {
    const app = APPS.find((a) => a.name === d.metadata.name)!;
    const pod = d.spec.template;
    assert.ok(subset(d.spec.selector.matchLabels, pod.metadata.labels), `${app.name}: selector does not match the template labels`);
    for (const c of pod.spec.containers) {
      const where = `${app.name}/${c.name}`;
      assert.doesNotMatch(c.image, /:latest$/, `${where}: pin an image tag`);
      assert.match(c.image, /:[^/]+$|@sha256:/, `${where}: pin an image tag`);
      // The image is built from the Dockerfile target of the same name; ports agree with it.
      const target = c.image.split(/[:@]/)[0].split('/').pop();
      assert.equal(target, app.name, `${where}: image ${c.image} is not the ${app.name} target`);
      const exposed = chain(model, stageNamed(target)).filter((x) => x.keyword === 'EXPOSE').flatMap((x) => tokenize(x.rest)).map((p) => Number(p.replace(/\/tcp$/, '')));
      const ports = c.ports.map((p: any) => p.containerPort);
      assert.deepEqual(ports, [app.port], `${where}: containerPort`);
      assert.ok(ports.every((p: number) => exposed.includes(p)), `${where}: containerPort not EXPOSEd by the image`);
      const env = Object.fromEntries((c.env ?? []).map((e: any) => [e.name, e]));
      assert.equal(env[app.portEnv]?.value, String(app.port), `${where}: ${app.portEnv} must equal the containerPort`);
      const portOk = (p: number | string) => c.ports.some((cp: any) => cp.containerPort === p || cp.name === p);
      assert.equal(c.readinessProbe.httpGet.path, '/readyz', `${where}: readiness probe`);
      assert.equal(c.livenessProbe.httpGet.path, '/healthz', `${where}: liveness probe`);
      for (const p of [c.readinessProbe, c.livenessProbe, c.startupProbe].filter(Boolean)) {
        assert.ok(portOk(p.httpGet.port), `${where}: probe port ${p.httpGet.port} is not a containerPort`);
      }
      assert.ok(cpu(c.resources.requests.cpu) <= cpu(c.resources.limits.cpu), `${where}: cpu request > limit`);
      assert.ok(bytes(c.resources.requests.memory) <= bytes(c.resources.limits.memory), `${where}: memory request > limit`);
      assert.ok(bytes(c.resources.limits.memory) >= 128 * 2 ** 20, `${where}: a Node process needs more than ${c.resources.limits.memory}`);
    }
  }
});

test('k8s: pods run as non-root with a read-only root filesystem and a writable /tmp (restricted profile)', () => {
  const imageUser = chain(dockerfile(), stageNamed('api')).filter((x) => x.keyword === 'USER').pop()!.rest.split(':')[0];
  for (const d of ofKind<any>('Deployment')) {
    const spec = d.spec.template.spec;
    const podSc = spec.securityContext ?? {};
    assert.ok(!spec.hostNetwork && !spec.hostPID && !spec.hostIPC, `${d.metadata.name}: host namespaces`);
    const volumes = Object.fromEntries((spec.volumes ?? []).map((v: any) => [v.name, v]));
    for (const v of spec.volumes ?? []) assert.ok(!v.hostPath, `${d.metadata.name}: hostPath volume ${v.name}`);
    for (const c of spec.containers) {
      const where = `${d.metadata.name}/${c.name}`;
      const sc = { ...podSc, ...c.securityContext };
      assert.equal(c.securityContext.runAsNonRoot, true, `${where}: runAsNonRoot`);
      // The image's USER is a name ("node"); the kubelet can only verify runAsNonRoot for a numeric id.
      if (!/^\d+$/.test(imageUser)) assert.ok(Number.isInteger(sc.runAsUser) && sc.runAsUser > 0, `${where}: set a numeric non-zero runAsUser`);
      assert.equal(sc.allowPrivilegeEscalation, false, `${where}: allowPrivilegeEscalation`);
      assert.ok(c.securityContext.capabilities?.drop?.includes('ALL'), `${where}: drop ALL capabilities`);
      assert.ok(['RuntimeDefault', 'Localhost'].includes(sc.seccompProfile?.type), `${where}: seccompProfile`);
      assert.ok(!c.securityContext.privileged, `${where}: privileged`);
      const mounts = c.volumeMounts ?? [];
      for (const m of mounts) assert.ok(volumes[m.name], `${where}: volumeMount ${m.name} has no volume`);
      if (c.securityContext.readOnlyRootFilesystem) {
        // A read-only root leaves os.tmpdir() as the only place a library may write a temporary file.
        const tmp = mounts.find((m: any) => m.mountPath === '/tmp');
        assert.ok(tmp && volumes[tmp.name]?.emptyDir, `${where}: read-only root filesystem needs an emptyDir at /tmp`);
      }
    }
  }
});

test('k8s: the api trusts the auth app it is deployed with (OAuth tokens, status page sign-in)', () => {
  const config = ofKind('ConfigMap').find((c) => c.metadata.name === 'taproot-config')!.data!;
  for (const key of ['PUBLIC_URL', 'AUTH_ISSUER', 'OAUTH_ISSUER', 'OAUTH_AUDIENCE', 'OAUTH_JWKS_URL']) assert.ok(URL.canParse(config[key]), `${key} is a URL`);
  assert.equal(config.OAUTH_ISSUER, config.AUTH_ISSUER, 'the api accepts tokens of the auth app it runs with');
  assert.equal(config.OAUTH_AUDIENCE, config.PUBLIC_URL, 'the auth app issues tokens for the api (audience PUBLIC_URL)');
  const auth = ofKind('Service').find((s) => s.metadata.name === 'auth')!;
  const jwks = new URL(config.OAUTH_JWKS_URL);
  assert.equal(jwks.hostname.split('.')[0], 'auth', 'signing keys are read from the auth Service');
  assert.equal(Number(jwks.port), auth.spec.ports[0].port, "the auth Service's port");
  assert.equal(jwks.pathname, '/oauth/discovery/keys');
});

test('k8s: env comes from taproot-config and taproot-secrets; service links cannot shadow app settings', () => {
  const configMaps = ofKind('ConfigMap');
  const config = configMaps.find((c) => c.metadata.name === 'taproot-config');
  assert.ok(config?.data, 'ConfigMap taproot-config');
  assert.ok(config.data.KAFKA_BROKERS, 'KAFKA_BROKERS');
  for (const b of config.data.KAFKA_BROKERS.split(',')) assert.match(b.trim(), /^[^\s:]+:\d+$/, 'KAFKA_BROKERS entries are host:port');
  assert.ok(LOG_LEVELS.includes(config.data.LOG_LEVEL), 'LOG_LEVEL');
  for (const key of Object.keys(config.data)) assert.doesNotMatch(key, SECRET_NAME, `ConfigMap holds secret-looking ${key}`);

  const secret = secretExample();
  assert.equal(secret.kind, 'Secret');
  assert.equal(secret.metadata.name, 'taproot-secrets');
  const secretKeys = { ...(secret.stringData ?? {}), ...(secret.data ?? {}) };
  for (const key of ['DATABASE_URL', 'BOOTSTRAP_API_KEY']) assert.ok(key in secretKeys, `secret.example.yaml lacks ${key}`);
  for (const [k, v] of Object.entries(secretKeys)) assert.match(String(v), /CHANGE_ME/, `secret.example.yaml ${k} must be a placeholder`);

  // Service links: a Service "auth" injects AUTH_PORT=tcp://...:3001 into every pod that has them.
  const linkVars = ofKind('Service').flatMap((s) => {
    const base = s.metadata.name.toUpperCase().replace(/-/g, '_');
    return [`${base}_PORT`, `${base}_SERVICE_HOST`, `${base}_SERVICE_PORT`];
  });
  const collisions = linkVars.filter((v) => APP_ENV_VARS.includes(v));

  const configMapNames = new Set(configMaps.map((c) => c.metadata.name));
  let bootstrapRefs = 0;
  for (const d of ofKind<any>('Deployment')) {
    const spec = d.spec.template.spec;
    assert.equal(spec.enableServiceLinks, false, `${d.metadata.name}: enableServiceLinks must be false (service links would set ${collisions.join(', ') || 'e.g. <SERVICE>_PORT'})`);
    for (const c of spec.containers) {
      const where = `${d.metadata.name}/${c.name}`;
      for (const src of c.envFrom ?? []) {
        if (src.configMapRef) assert.ok(configMapNames.has(src.configMapRef.name), `${where}: unknown ConfigMap ${src.configMapRef.name}`);
        assert.ok(!src.secretRef || src.secretRef.name === 'taproot-secrets', `${where}: unknown Secret`);
      }
      const names = new Set<string>();
      for (const e of c.env ?? []) {
        assert.ok(!names.has(e.name), `${where}: duplicate env ${e.name}`);
        names.add(e.name);
        if (SECRET_NAME.test(e.name)) assert.ok(e.valueFrom?.secretKeyRef, `${where}: ${e.name} must come from a Secret`);
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) {
          assert.equal(ref.name, 'taproot-secrets', `${where}: ${e.name}`);
          assert.ok(ref.key in secretKeys, `${where}: key ${ref.key} is not in secret.example.yaml`);
          if (ref.key === 'BOOTSTRAP_API_KEY') bootstrapRefs++;
        }
      }
      assert.ok(c.env.some((e: any) => e.name === 'DATABASE_URL' && e.valueFrom?.secretKeyRef && !e.valueFrom.secretKeyRef.optional), `${where}: DATABASE_URL`);
      const hasConfig = (c.envFrom ?? []).some((s: any) => s.configMapRef?.name === 'taproot-config');
      assert.ok(hasConfig, `${where}: envFrom taproot-config`);
    }
  }
  assert.ok(bootstrapRefs > 0, 'BOOTSTRAP_API_KEY is referenced');
});

test('k8s: Services select one Deployment and target its container ports', () => {
  const deployments = ofKind<any>('Deployment');
  const services = ofKind<any>('Service');
  assert.deepEqual(services.map((s) => s.metadata.name).sort(), APPS.map((a) => a.name).sort());
  for (const s of services) {
    const matching = deployments.filter((d) => subset(s.spec.selector, d.spec.template.metadata.labels));
    assert.equal(matching.length, 1, `Service ${s.metadata.name} selects ${matching.length} Deployments`);
    const d = matching[0];
    const app = APPS.find((a) => a.name === d.metadata.name)!;
    const containerPorts = d.spec.template.spec.containers.flatMap((c: any) => c.ports);
    assert.deepEqual(s.spec.ports.map((p: any) => p.port), [app.port], `Service ${s.metadata.name}: ports`);
    for (const p of s.spec.ports) {
      const target = containerPorts.find((cp: any) => cp.containerPort === p.targetPort || cp.name === p.targetPort);
      assert.ok(target, `Service ${s.metadata.name}: targetPort ${p.targetPort} is not a containerPort of ${d.metadata.name}`);
      assert.equal(target.containerPort, app.port);
    }
  }
  // The dispatcher's Service is for its health port only.
  const dispatcher = services.find((s) => s.metadata.name === 'webhook-dispatcher');
  const probePort = deployments.find((d) => d.metadata.name === 'webhook-dispatcher').spec.template.spec.containers[0].readinessProbe.httpGet.port;
  assert.deepEqual(dispatcher.spec.ports.map((p: any) => p.targetPort), [probePort]);
});

test('k8s: the api has an HPA (autoscaling/v2) and a PodDisruptionBudget that still allows evictions', () => {
  const deployments = ofKind<any>('Deployment');
  const hpas = ofKind<any>('HorizontalPodAutoscaler');
  const pdbs = ofKind<any>('PodDisruptionBudget');
  const api = deployments.find((d) => d.metadata.name === 'api');

  const hpa = hpas.find((h) => h.spec.scaleTargetRef.name === 'api');
  assert.ok(hpa, 'HPA for api');
  assert.equal(hpa.apiVersion, 'autoscaling/v2');
  for (const h of hpas) {
    const target = deployments.find((d) => d.metadata.name === h.spec.scaleTargetRef.name);
    assert.ok(target && h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.apiVersion === 'apps/v1', `HPA ${h.metadata.name} targets nothing`);
    const min = h.spec.minReplicas ?? 1;
    assert.ok(min <= h.spec.maxReplicas, `HPA ${h.metadata.name}: minReplicas > maxReplicas`);
    // A replicas field in the Deployment would reset the HPA's count on every apply.
    assert.equal(target.spec.replicas, undefined, `${target.metadata.name}: drop spec.replicas, the HPA owns it`);
    for (const m of h.spec.metrics) {
      if (m.type === 'Resource' && m.resource.target.type === 'Utilization') {
        for (const c of target.spec.template.spec.containers) {
          assert.ok(c.resources.requests[m.resource.name], `${c.name}: Utilization of ${m.resource.name} needs a request`);
        }
      }
    }
  }

  const pdb = pdbs.find((p) => subset(p.spec.selector.matchLabels, api.spec.template.metadata.labels));
  assert.ok(pdb, 'PodDisruptionBudget for api');
  for (const p of pdbs) {
    const targets = deployments.filter((d) => subset(p.spec.selector.matchLabels, d.spec.template.metadata.labels));
    assert.equal(targets.length, 1, `PDB ${p.metadata.name} must select exactly one Deployment`);
    const d = targets[0];
    const h = hpas.find((x) => x.spec.scaleTargetRef.name === d.metadata.name);
    const replicas = h ? (h.spec.minReplicas ?? 1) : (d.spec.replicas ?? 1);
    if (typeof p.spec.minAvailable === 'number') {
      assert.ok(p.spec.minAvailable < replicas, `PDB ${p.metadata.name}: minAvailable ${p.spec.minAvailable} with ${replicas} replicas blocks every eviction`);
    }
    if (typeof p.spec.maxUnavailable === 'number') assert.ok(p.spec.maxUnavailable >= 1, `PDB ${p.metadata.name}: maxUnavailable 0 blocks every eviction`);
  }
});

test('README: documents the files, the build and apply commands, and that CI validates them as text', () => {
  const readme = read(join(DOCKER_DIR, 'README.md'));
  assert.ok(readme.includes('docker build -f docker/Dockerfile --target api .'));
  assert.ok(readme.includes('kubectl apply -k docker/k8s'));
  assert.ok(readme.includes('docker/docker.spec.ts'));
  for (const f of ['Dockerfile', 'Dockerfile.dockerignore', 'compose.yaml', 'kustomization.yaml', 'secret.example.yaml']) {
    assert.ok(readme.includes(f), `README does not mention ${f}`);
  }
});
