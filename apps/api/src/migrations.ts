import { CONTEXTS } from '@taproot/contexts';
import { MESSAGING_MIGRATIONS } from '@taproot/messaging';
import { IDEMPOTENCY_MIGRATIONS } from '@taproot/resources';

/** Every migration of the database, in order; the api app owns the schema. */
export const ALL_MIGRATIONS = [...MESSAGING_MIGRATIONS, ...IDEMPOTENCY_MIGRATIONS, ...CONTEXTS.flatMap((context) => context.migrations)];
