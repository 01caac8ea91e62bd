import { registerEventContract } from '@taproot/messaging';
import { registerSnapshotEvents, snapshotContract } from '@taproot/resources';
import type { ContextDescriptor } from '@taproot/runtime';
import { WEBHOOKS_DELIVERIES_OPENAPI } from './deliveries/webhooks-deliveries.openapi';
import { WEBHOOKS_DELIVERY_REDELIVERED, webhooksDeliverySchema } from './deliveries/webhooks-delivery.schema';
import { WEBHOOKS_ENDPOINT_DISABLED } from './delivery/endpoint-disabler';
import { edgeConnectorActionSchema } from './edge-connectors/edge-connector-action.schema';
import { edgeConnectorSchema } from './edge-connectors/edge-connector.schema';
import { webhooksEndpointSchema } from './endpoints/webhooks-endpoint.schema';
import { WEBHOOKS_ERRORS } from './errors';
import { IP_RANGES_OPENAPI } from './ip-ranges/ip-ranges.openapi';
import { WEBHOOKS_MIGRATIONS } from './migrations';
import { secretSchema } from './secrets/secret.schema';
import { WEBHOOKS_RESOURCES, WebhooksModule } from './webhooks.module';

export const WEBHOOKS_CONTEXT: ContextDescriptor = {
  name: 'webhooks',
  module: WebhooksModule,
  migrations: WEBHOOKS_MIGRATIONS,
  resources: WEBHOOKS_RESOURCES.map((d) => d.schema),
  openapi: { schemas: IP_RANGES_OPENAPI.schemas, paths: { ...WEBHOOKS_DELIVERIES_OPENAPI.paths, ...IP_RANGES_OPENAPI.paths } },
  errors: WEBHOOKS_ERRORS,
  registerEventContracts() {
    // The dispatcher's announcement of a disabled endpoint: the snapshot and why (docs/webhook-delivery.md).
    registerSnapshotEvents(webhooksEndpointSchema, [WEBHOOKS_ENDPOINT_DISABLED]);
    registerSnapshotEvents(secretSchema);
    registerSnapshotEvents(edgeConnectorSchema);
    registerSnapshotEvents(edgeConnectorActionSchema);
    registerEventContract(WEBHOOKS_DELIVERY_REDELIVERED, 1, snapshotContract(webhooksDeliverySchema));
  },
};
