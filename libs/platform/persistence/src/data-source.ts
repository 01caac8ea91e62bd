import { DataSource, type EntitySchema, type MixedList } from 'typeorm';

export interface DataSourceOptions {
  url: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  applicationName?: string;
}

const CONNECT_TIMEOUT_MS = 5000;

/**
 * The one TypeORM data source of a process. Schema changes only through explicit migrations:
 * `synchronize` stays off everywhere.
 */
export function createDataSource(opts: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: opts.url,
    entities: opts.entities,
    migrations: opts.migrations,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    applicationName: opts.applicationName ?? 'taproot',
    // A server that does not answer (a partition, not a refusal) fails a connect within seconds,
    // so requests answer 503 and consumers back off instead of hanging on the pool.
    extra: { max: opts.poolSize ?? 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
  });
}

/**
 * Applies pending migrations; concurrent starters serialise on an advisory lock. The lock holds
 * one pooled connection while the migrations take another: the pool needs at least two.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    // 0x7461_7072 = "tapr": one fixed key so two processes never migrate at once.
    await runner.query('SELECT pg_advisory_lock(1952543858)');
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(1952543858)').catch(() => undefined);
    await runner.release();
  }
}
