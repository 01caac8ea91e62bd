import { CreateWebhookEndpointsAndSecrets1732300008000 } from './1732300008000-create-webhook-endpoints-and-secrets';
import { WebhookEventTypesArray1732300008050 } from './1732300008050-webhook-event-types-array';
import { CreateWebhookDeliveries1732300008100 } from './1732300008100-create-webhook-deliveries';
import { WebhookDeliveriesReadView1732300008150 } from './1732300008150-webhook-deliveries-read-view';
import { AddWebhookDeliveryFirstAttempt1732300008200 } from './1732300008200-add-webhook-delivery-first-attempt';
import { CreateEdgeConnectors1732300010600 } from './1732300010600-create-edge-connectors';

export const WEBHOOKS_MIGRATIONS = [CreateWebhookEndpointsAndSecrets1732300008000, WebhookEventTypesArray1732300008050, CreateWebhookDeliveries1732300008100, WebhookDeliveriesReadView1732300008150, AddWebhookDeliveryFirstAttempt1732300008200, CreateEdgeConnectors1732300010600];
