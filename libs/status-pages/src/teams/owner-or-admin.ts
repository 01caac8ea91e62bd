import { roleKindOf, type Caller } from '@taproot/auth';
import { DomainError } from '@taproot/json-api';
import type { DataSource } from 'typeorm';
import { StatusPagesErrorCode } from '../status-pages/status-page-errors';

/** The spec's rule for status page team grants: only an owner or admin role changes them (403 otherwise). */
export async function assertOwnerOrAdmin(db: DataSource, caller: Caller): Promise<void> {
  const kind = await roleKindOf(db, caller);
  if (kind === 'owner' || kind === 'admin') return;
  throw new DomainError(StatusPagesErrorCode.OwnerOrAdminRequired, `Only an owner or admin role may change the teams of a status page; the caller's role is ${kind ?? 'none'}`);
}
