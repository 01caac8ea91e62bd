import type { DataSource } from 'typeorm';
import { PassLoop, type PassLoopLogger } from './pass-loop';

export interface RetentionPrunerOptions {
  /** Names the loop in its logs. */
  name: string;
  /** Deletes up to `limit` rows past their retention, in one statement; answers how many. */
  deleteChunk: (limit: number) => Promise<number>;
  /** How often it looks for rows to delete when the last pass found no more. */
  pollMs?: number;
  /** Rows deleted per statement. */
  chunk?: number;
  logger: PassLoopLogger & { debug(obj: object, msg?: string): void };
}

/**
 * Keeps a table that grows by a row per event (the inbox, webhook deliveries) within its
 * retention: rows past it are deleted a chunk a statement, so a long backlog (the first run after
 * an upgrade) never holds a long transaction and the process's other loops run between chunks.
 * Replicas may prune side by side; a row deleted by one is skipped by the other.
 */
export class RetentionPruner {
  private readonly loop: PassLoop;
  private readonly chunk: number;

  constructor(private readonly opts: RetentionPrunerOptions) {
    this.chunk = opts.chunk ?? 10_000;
    this.loop = new PassLoop({
      name: opts.name,
      pollMs: opts.pollMs ?? 60_000,
      logger: opts.logger,
      pass: async () => (await this.pruneChunk()) === this.chunk,
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Deletes up to a chunk of rows past their retention; answers how many. */
  async pruneChunk(): Promise<number> {
    const deleted = await this.opts.deleteChunk(this.chunk);
    if (deleted > 0) this.opts.logger.debug({ loop: this.opts.name, deleted }, 'rows past their retention deleted');
    return deleted;
  }
}

/** Runs a `DELETE` and answers its row count (TypeORM answers a DELETE as [rows, count]). */
export async function deletedBy(dataSource: DataSource, sql: string, params: unknown[]): Promise<number> {
  const [, deleted]: [unknown, number] = await dataSource.query(sql, params);
  return deleted;
}
