import { ALERTING_MIGRATIONS } from '@taproot/alerting';
import { CATALOG_MIGRATIONS } from '@taproot/catalog';
import { IDENTITY_MIGRATIONS } from '@taproot/identity';
import { INCIDENTS_MIGRATIONS } from '@taproot/incidents';
import { MESSAGING_MIGRATIONS } from '@taproot/messaging';

/** Every migration of the database, in order; the api app owns the schema. */
export const ALL_MIGRATIONS = [...MESSAGING_MIGRATIONS, ...IDENTITY_MIGRATIONS, ...CATALOG_MIGRATIONS, ...INCIDENTS_MIGRATIONS, ...ALERTING_MIGRATIONS];
