import type { ContextDescriptor } from '@taproot/runtime';
import { WEBHOOKS_MIGRATIONS } from './migrations';
import { WebhooksModule } from './webhooks.module';

export const WEBHOOKS_CONTEXT: ContextDescriptor = { name: 'webhooks', module: WebhooksModule, migrations: WEBHOOKS_MIGRATIONS, resources: [] };
