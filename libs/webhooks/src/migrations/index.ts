import { CreateWebhookEndpointsAndSecrets1732300008000 } from './1732300008000-create-webhook-endpoints-and-secrets';
import { WebhookEventTypesArray1732300008050 } from './1732300008050-webhook-event-types-array';
import { CreateWebhookDeliveries1732300008100 } from './1732300008100-create-webhook-deliveries';

export const WEBHOOKS_MIGRATIONS = [CreateWebhookEndpointsAndSecrets1732300008000, WebhookEventTypesArray1732300008050, CreateWebhookDeliveries1732300008100];
