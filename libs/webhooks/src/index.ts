export { WebhooksModule } from './webhooks.module';
export { WEBHOOKS_CONTEXT } from './webhooks.context';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-event-types';
export type { WebhookAttemptOutcome, WebhookRequest, WebhookSender } from './delivery/webhook-sender';
