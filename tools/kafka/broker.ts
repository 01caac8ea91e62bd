/**
 * A real single-node Apache Kafka broker (KRaft, broker + controller in one JVM) for tests and
 * local runs. The jars come from Maven (tools/kafka/pom.xml) into tools/kafka/.cache/lib.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';

export interface KafkaBroker {
  brokers: string[];
  port: number;
  stop(): Promise<void>;
  /** SIGKILLs the JVM, as a crash would; the data dir stays for a restart (fault tests). */
  kill(): Promise<void>;
}

type Log = (line: string) => void;

/**
 * This folder, found from the working directory up to the workspace's nx.json: the module is
 * loaded both as CommonJS (the register) and as an ES module (Jest), which name it differently.
 */
const HERE = join(workspaceRoot(process.cwd()), 'tools', 'kafka');

function workspaceRoot(from: string): string {
  if (existsSync(join(from, 'nx.json'))) return from;
  const up = dirname(from);
  if (up === from) throw new Error('tools/kafka: run from inside the Taproot workspace');
  return workspaceRoot(up);
}
const POM = join(HERE, 'pom.xml');
const CACHE = join(HERE, '.cache');
const LIB = join(CACHE, 'lib');
const MARKER = join(LIB, '.fetched');
const READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 20_000;

const defaultLog: Log = (line) => process.stderr.write(`[kafka] ${line}\n`);

/** The Kafka version pinned in pom.xml (for messages and the README). */
export function kafkaVersion(): string {
  const match = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(readFileSync(POM, 'utf8'));
  if (!match) throw new Error(`no <kafka.version> in ${POM}`);
  return match[1];
}

/** Downloads the broker's jars unless the cache already holds them for this pom.xml. */
export async function fetchKafka(opts: { log?: Log } = {}): Promise<string> {
  const log = opts.log ?? defaultLog;
  // The marker holds the pom's hash, so a version bump (or a new dependency) refetches.
  const pomHash = createHash('sha256').update(await readFile(POM)).digest('hex');
  if (existsSync(MARKER) && (await readFile(MARKER, 'utf8')).trim() === pomHash) return LIB;

  const version = kafkaVersion();
  log(`fetching Kafka ${version} jars with Maven (first run only)...`);
  const started = Date.now();
  await mkdir(CACHE, { recursive: true });
  // Fetch into a private directory then rename, so a concurrent run never sees half a classpath.
  const staging = await mkdtemp(join(CACHE, 'lib-staging-'));
  try {
    const args = ['-B', '-f', POM, 'dependency:copy-dependencies', `-DoutputDirectory=${staging}`, '-DincludeScope=runtime'];
    const output = await run('mvn', args, (line) => {
      // Download lines are the progress a slow first fetch needs; the rest is Maven chatter.
      if (/Downloaded from|ERROR|BUILD/.test(line)) log(`mvn: ${line.replace(/^\[INFO\] /, '')}`);
    });
    if (output.code !== 0) {
      throw new Error(`mvn dependency:copy-dependencies failed (exit ${output.code}):\n${output.tail.join('\n')}`);
    }
    await writeFile(join(staging, '.fetched'), `${pomHash}\n`);
    if (existsSync(MARKER) && (await readFile(MARKER, 'utf8')).trim() === pomHash) return LIB; // another run won
    await rm(LIB, { recursive: true, force: true });
    await rename(staging, LIB);
    log(`fetched Kafka ${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return LIB;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export async function startKafkaBroker(
  opts: { port?: number; controllerPort?: number; dataDir?: string; log?: Log } = {},
): Promise<KafkaBroker> {
  const log = opts.log ?? defaultLog;
  const lib = await fetchKafka({ log });
  const ownsDataDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'taproot-kafka-')));
  await mkdir(dataDir, { recursive: true });
  const [port, controllerPort] = await freePorts(opts.port, opts.controllerPort);
  const logDir = join(dataDir, 'data');
  const brokerLog = join(dataDir, 'broker.log');
  const propsFile = join(dataDir, 'server.properties');
  const log4jFile = join(dataDir, 'log4j2.properties');
  const bootstrap = `127.0.0.1:${port}`;

  // Static voters (not --standalone): the quorum's endpoint then lives in the config, not in the
  // metadata log, so a restart on the same data dir may use another controller port.
  const props: Record<string, string | number | boolean> = {
    'process.roles': 'broker,controller',
    'node.id': 1,
    'controller.quorum.voters': `1@127.0.0.1:${controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://${bootstrap}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': logDir,
    'num.partitions': 3,
    'default.replication.factor': 1,
    'min.insync.replicas': 1,
    'offsets.topic.replication.factor': 1,
    // One node: fewer offsets partitions make the first consumer group join faster.
    'offsets.topic.num.partitions': 5,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'share.coordinator.state.topic.replication.factor': 1,
    'share.coordinator.state.topic.min.isr': 1,
    'auto.create.topics.enable': true,
    'group.initial.rebalance.delay.ms': 0,
  };
  await writeFile(propsFile, Object.entries(props).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');
  // Console logging; the child's stdout/stderr go to broker.log, so JVM errors land there too.
  await writeFile(
    log4jFile,
    [
      'status = warn',
      'appender.out.type = Console',
      'appender.out.name = OUT',
      'appender.out.layout.type = PatternLayout',
      'appender.out.layout.pattern = [%d] %p %m (%c)%n',
      'rootLogger.level = INFO',
      'rootLogger.appenderRef.out.ref = OUT',
      'logger.request.name = kafka.request.logger',
      'logger.request.level = WARN',
    ].join('\n') + '\n',
  );
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const jvm = ['-Xms128m', '-Xmx512m', '-XX:+UseG1GC', '-Djava.awt.headless=true', `-Dlog4j2.configurationFile=${log4jFile}`, '-cp', join(lib, '*')];

  if (!existsSync(join(logDir, 'meta.properties'))) {
    const clusterId = randomClusterId();
    const format = await run(java, [...jvm, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', propsFile]).catch(
      (error: Error) => ({ code: -1, tail: [error.message] }),
    );
    if (format.code !== 0) {
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
      throw new Error(`formatting Kafka storage failed (exit ${format.code}):\n${format.tail.join('\n')}`);
    }
    log(`formatted ${logDir} (cluster ${clusterId})`);
  }

  const started = Date.now();
  const out = openSync(brokerLog, 'a');
  let child: ChildProcess;
  try {
    child = spawn(java, [...jvm, 'kafka.Kafka', propsFile], { stdio: ['ignore', out, out] });
  } finally {
    closeSync(out);
  }
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null)));
    child.once('error', () => resolve(-1)); // e.g. java vanished since formatting
  });
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);
  // 'exit' does not run when Node itself is killed by a signal: a shell reading our pipe kills the
  // JVM once that pipe closes, however Node ends.
  const watchdog = spawn('sh', ['-c', `read _ ; kill -9 ${child.pid} 2>/dev/null`], { stdio: ['pipe', 'ignore', 'ignore'] });
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  watchdog.on('error', () => undefined);

  let halting: Promise<void> | null = null;
  const halt = (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> =>
    (halting ??= (async () => {
      if (exitCode === undefined) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', killOnExit);
      watchdog.kill('SIGKILL');
    })());
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      await halt();
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    })());

  try {
    await waitUntilReady(bootstrap, () => exitCode);
  } catch (error) {
    await halt();
    const tail = await tailOf(brokerLog, 40);
    await stop();
    throw new Error(`${(error as Error).message}\nbroker log ${brokerLog}:\n${tail}`);
  }
  log(`broker up on ${bootstrap} in ${((Date.now() - started) / 1000).toFixed(1)} s (data ${dataDir})`);
  return { brokers: [bootstrap], port, stop, kill: () => halt('SIGKILL') };
}

async function waitUntilReady(bootstrap: string, exitCode: () => number | null | undefined): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError = 'no attempt yet';
  while (Date.now() < deadline) {
    const code = exitCode();
    if (code !== undefined) throw new Error(`Kafka broker exited during startup (exit ${code})`);
    const admin = new Kafka({
      clientId: 'taproot-kafka-probe',
      brokers: [bootstrap],
      connectionTimeout: 1000,
      requestTimeout: 3000,
      retry: { retries: 0 },
      logLevel: logLevel.NOTHING,
    }).admin();
    try {
      await admin.connect();
      await admin.listTopics();
      return;
    } catch (error) {
      lastError = (error as Error).message;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Kafka broker not ready on ${bootstrap} after ${READY_TIMEOUT_MS / 1000} s (last error: ${lastError})`);
}

/** The given ports, or free ones picked by the OS (both held open together so they differ). */
async function freePorts(...wanted: (number | undefined)[]): Promise<number[]> {
  const servers = await Promise.all(
    wanted.map(
      (port) =>
        new Promise<ReturnType<typeof createServer> | null>((resolve, reject) => {
          if (port) return resolve(null);
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s, i) => wanted[i] ?? (s!.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => s && new Promise((r) => s.close(r))));
  return ports;
}

/** A Kafka Uuid: 16 random bytes, base64url; Kafka avoids a leading '-' (CLI flag confusion). */
function randomClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

async function run(cmd: string, args: string[], onLine?: Log): Promise<{ code: number | null; tail: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    let partial = '';
    const take = (chunk: Buffer): void => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 40) tail.shift();
        onLine?.(line);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new Error(`${cmd} not found: Kafka needs Java 17+ and Maven on the PATH`) : error),
    );
    child.once('close', (code) => {
      if (partial) tail.push(partial);
      resolve({ code, tail });
    });
  });
}

async function tailOf(file: string, lines: number): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).split('\n').slice(-lines).join('\n');
  } catch {
    return '(no broker log)';
  }
}
