import { CreateWebhookEndpointsAndSecrets1732300008000 } from './1732300008000-create-webhook-endpoints-and-secrets';
import { CreateWebhookDeliveries1732300008100 } from './1732300008100-create-webhook-deliveries';

export const WEBHOOKS_MIGRATIONS = [CreateWebhookEndpointsAndSecrets1732300008000, CreateWebhookDeliveries1732300008100];
