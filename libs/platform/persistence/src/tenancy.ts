/**
 * Every tenant query is scoped by the caller's organization (architecture rule 6). Handlers
 * receive it as a value of this type, so a repository call without one does not compile.
 */
export interface TenantScope {
  readonly organizationId: string;
}

/** Postgres error codes the platform maps to client errors. */
export const PG_ERRORS = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  invalidTextRepresentation: '22P02',
  invalidRegularExpression: '2201B',
  deadlockDetected: '40P01',
} as const;

export function pgErrorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Quotes an SQL identifier; identifiers come from declarations, values only as parameters. */
export function quoteIdent(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
