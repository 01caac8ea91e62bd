/**
 * `npm start`: the whole system in one process on the embedded defaults (a real PostgreSQL
 * under DATA_DIR, the in-process bus), or on DATABASE_URL / KAFKA_BROKERS when set.
 */
import 'reflect-metadata';
import { ALL_MIGRATIONS, startApi } from '@taproot/api';
import { startAuth } from '@taproot/auth-server';
import { trustLocalAuthApp } from '@taproot/config';
import { bootstrapIfEmpty } from '@taproot/identity';
import { runProcess } from '@taproot/runtime';
import { startDispatcher } from '@taproot/webhook-dispatcher';

// With no OAUTH_* settings the API trusts the auth app started beside it.
trustLocalAuthApp(process.env);

void runProcess({
  migrations: ALL_MIGRATIONS,
  prepare: async (runtime) => {
    const created = await bootstrapIfEmpty(runtime.dataSource, runtime.config.bootstrapApiKey, runtime.config.bootstrapAdmin, runtime.clock);
    if (!created) return;
    runtime.logger.info({ organization_id: created.organizationId }, 'bootstrapped the first organization');
    if (created.generated) {
      // Printed once, to the terminal only: the log stream never carries a token.
      process.stdout.write(
        `\n  First start: an API key was generated for the new organization. It is shown only once:\n\n    ${created.token}\n\n`,
      );
    }
  },
  apps: [startDispatcher, startAuth, startApi],
});
