import type { DataSource } from 'typeorm';
import { PassLoop, type PassLoopLogger } from '../pass-loop';

export interface InboxPrunerOptions {
  /** Inbox rows older than this are deleted (INBOX_RETENTION_HOURS). */
  retentionMs: number;
  /** How often it looks for rows to delete when the last pass found no more. */
  pollMs?: number;
  /** Rows deleted per statement. */
  chunk?: number;
  logger: PassLoopLogger & { debug(obj: object, msg?: string): void };
}

const DELETE_CHUNK = `DELETE FROM inbox WHERE ctid = ANY(ARRAY(
  SELECT ctid FROM inbox WHERE processed_at < now() - make_interval(secs => $1) LIMIT $2))`;

/**
 * Keeps the inbox from growing by a row per event and consumer for ever: rows older than the
 * retention are deleted, a chunk a statement, so a long backlog (the first run after an upgrade)
 * never holds a long transaction and the process's other loops run between chunks. A consumer
 * de-duplicates only within the retention: an event delivered again after it is applied again.
 * Replicas may prune side by side; a row deleted by one is skipped by the other.
 */
export class InboxPruner {
  private readonly loop: PassLoop;
  private readonly chunk: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly opts: InboxPrunerOptions,
  ) {
    this.chunk = opts.chunk ?? 10_000;
    this.loop = new PassLoop({
      name: 'inbox pruner',
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

  /** Deletes up to a chunk of rows older than the retention; answers how many. */
  async pruneChunk(): Promise<number> {
    // TypeORM answers a DELETE as [rows, count].
    const [, deleted]: [unknown, number] = await this.dataSource.query(DELETE_CHUNK, [this.opts.retentionMs / 1000, this.chunk]);
    if (deleted > 0) this.opts.logger.debug({ deleted }, 'inbox rows past their retention deleted');
    return deleted;
  }
}
