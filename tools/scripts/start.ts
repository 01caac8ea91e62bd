/**
 * `npm start`: the whole system in one process on the embedded defaults (a real PostgreSQL
 * under DATA_DIR, the in-process bus), or on DATABASE_URL / KAFKA_BROKERS when set.
 */
import 'reflect-metadata';
import { ALL_MIGRATIONS, startApi } from '@taproot/api';
import { startAuth } from '@taproot/auth';
import { ConfigError, createLogger, loadConfig } from '@taproot/config';
import { bootstrapIfEmpty } from '@taproot/identity';
import { openRuntime, type RunningApp } from '@taproot/runtime';
import { startDispatcher } from '@taproot/webhook-dispatcher';

async function main(): Promise<void> {
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
  const runtime = await openRuntime(config, logger, { migrations: ALL_MIGRATIONS });
  const apps: RunningApp[] = [];
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    for (const app of apps.reverse()) await app.close().catch((err) => logger.error({ err: String(err) }, 'app close failed'));
    await runtime.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  try {
    const bootstrapped = await bootstrapIfEmpty(runtime.dataSource, config.bootstrapApiKey);
    if (bootstrapped) {
      logger.info({ organization_id: bootstrapped.organizationId }, 'bootstrapped the first organization');
      if (bootstrapped.generated) {
        // Printed once, to the terminal only: the log stream never carries a token.
        process.stdout.write(
          `\n  First start: an API key was generated for the new organization. It is shown only once:\n\n    ${bootstrapped.token}\n\n`,
        );
      }
    }
    apps.push(await startDispatcher(runtime));
    apps.push(await startAuth(runtime));
    apps.push(await startApi(runtime));
  } catch (error) {
    logger.error({ err: error }, 'start failed');
    await stop('startup-failure');
    process.exit(1);
  }
}

void main();
