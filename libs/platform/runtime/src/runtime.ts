import { join } from 'node:path';
import { systemClock, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { Mailer } from '@taproot/mail';
import {
  inboxPruner,
  InProcessEventBus,
  KafkaEventBus,
  OutboxRelay,
  RetentionPruner,
  ProjectionRunner,
  UnitOfWork,
  type EventBus,
} from '@taproot/messaging';
import { createDataSource, runMigrations, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@taproot/persistence';
import type { DataSource } from 'typeorm';

/**
 * What every app of a process shares: one database pool, one bus, one relay, one inbox pruner,
 * one projection runner, one SMTP pool. `npm start` opens one runtime for all three apps (the in-process bus needs that);
 * a Kubernetes pod opens one for its single app.
 */
export interface Runtime {
  config: TaprootConfig;
  logger: Logger;
  clock: Clock;
  dataSource: DataSource;
  bus: EventBus;
  relay: OutboxRelay;
  /** Deletes inbox rows past INBOX_RETENTION_HOURS; the api starts it, as it starts the relay. */
  inboxPruner: RetentionPruner;
  projections: ProjectionRunner;
  unitOfWork: UnitOfWork;
  /**
   * The process's one SMTP pool (`SMTP_URL`; null when unset), shared by every context that mails
   * (paging, address verification), so a process holds one set of connections to the relay.
   */
  mailer: Mailer | null;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
  clock?: Clock;
  /** Overrides for tests: an existing bus (e.g. shared with a second runtime). */
  bus?: EventBus;
  poolSize?: number;
}

export async function openRuntime(config: TaprootConfig, logger: Logger, opts: RuntimeOptions): Promise<Runtime> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const fn of closers.reverse()) {
      await fn().catch((error) => logger.error({ err: String(error) }, 'shutdown step failed'));
    }
  };
  try {
    let url = config.databaseUrl;
    if (!url) {
      const pgLog = logger.child({ component: 'embedded-postgres' });
      const embedded: EmbeddedPostgresHandle = await startEmbeddedPostgres({
        dir: join(config.dataDir, 'postgres'),
        port: config.embeddedPostgresPort,
        log: (line) => pgLog.debug(line),
      });
      closers.push(() => embedded.stop());
      url = embedded.url;
      logger.info({ port: embedded.port, dir: join(config.dataDir, 'postgres') }, 'embedded PostgreSQL started');
    }
    const dataSource = createDataSource({ url, entities: [], migrations: opts.migrations, poolSize: opts.poolSize });
    await dataSource.initialize();
    closers.push(() => dataSource.destroy());
    const applied = await runMigrations(dataSource);
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');

    const bus: EventBus =
      opts.bus ??
      (config.kafkaBrokers
        ? new KafkaEventBus({ brokers: config.kafkaBrokers, clientId: config.kafkaClientId, logger: logger.child({ component: 'kafka' }) })
        : new InProcessEventBus());
    if (!opts.bus) closers.push(() => bus.close());
    logger.info({ bus: bus.kind, brokers: config.kafkaBrokers ?? undefined }, 'event bus ready');

    const relay = new OutboxRelay(dataSource, bus, { pollMs: config.relayPollMs, logger: logger.child({ component: 'outbox-relay' }) });
    closers.push(() => relay.stop());
    const pruner = inboxPruner(dataSource, { retentionMs: config.inboxRetentionHours * 3_600_000, logger: logger.child({ component: 'inbox-pruner' }) });
    closers.push(() => pruner.stop());
    const projections = new ProjectionRunner(dataSource, bus);
    const unitOfWork = new UnitOfWork(dataSource, relay, projections);
    // Closed after the apps (run-process closes them first), so no sender finds it closed.
    const mailer = config.smtpUrl ? new Mailer({ url: config.smtpUrl, from: config.smtpFrom }) : null;
    if (mailer) closers.push(() => mailer.close());
    return { config, logger, clock: opts.clock ?? systemClock, dataSource, bus, relay, inboxPruner: pruner, projections, unitOfWork, mailer, close };
  } catch (error) {
    await close();
    throw error;
  }
}
