import type { DataSource } from 'typeorm';
import { deletedBy, RetentionPruner, type RetentionPrunerOptions } from '../retention-pruner';

const DELETE_EXPIRED = `DELETE FROM inbox WHERE ctid = ANY(ARRAY(
  SELECT ctid FROM inbox WHERE processed_at < now() - make_interval(secs => $1) LIMIT $2))`;

/**
 * Deletes inbox rows older than `retentionMs` (INBOX_RETENTION_HOURS), so the inbox does not grow
 * by a row per event and consumer for ever. A consumer de-duplicates only within the retention:
 * an event delivered again after it is applied again.
 */
export function inboxPruner(dataSource: DataSource, opts: { retentionMs: number } & Omit<RetentionPrunerOptions, 'name' | 'deleteChunk'>): RetentionPruner {
  const { retentionMs, ...loop } = opts;
  return new RetentionPruner({ ...loop, name: 'inbox pruner', deleteChunk: (limit) => deletedBy(dataSource, DELETE_EXPIRED, [retentionMs / 1000, limit]) });
}
