import { ALERTING_CONTEXT } from '@taproot/alerting';
import { ANALYTICS_CONTEXT } from '@taproot/analytics';
import { CATALOG_CONTEXT } from '@taproot/catalog';
import { IDENTITY_CONTEXT } from '@taproot/identity';
import { INCIDENTS_CONTEXT } from '@taproot/incidents';
import { mergeErrorTables, type ErrorTable } from '@taproot/json-api';
import { topicOf } from '@taproot/messaging';
import { ON_CALL_CONTEXT } from '@taproot/on-call';
import type { ContextDescriptor } from '@taproot/runtime';
import { STATUS_PAGES_CONTEXT } from '@taproot/status-pages';
import { WEBHOOKS_CONTEXT } from '@taproot/webhooks';
import { WORKFLOWS_CONTEXT } from '@taproot/workflows';

/**
 * The bounded contexts, in dependency order (their migrations run in this order): the one list the
 * apps iterate for modules, migrations, the OpenAPI document, inbound media types and topics.
 */
export const CONTEXTS: readonly ContextDescriptor[] = [IDENTITY_CONTEXT, CATALOG_CONTEXT, INCIDENTS_CONTEXT, ALERTING_CONTEXT, ON_CALL_CONTEXT, STATUS_PAGES_CONTEXT, WEBHOOKS_CONTEXT, ANALYTICS_CONTEXT, WORKFLOWS_CONTEXT];

/** Every context's topic: what consumers of everything (audit log, webhook dispatcher) subscribe to. */
export const CONTEXT_TOPICS: readonly string[] = CONTEXTS.map((c) => topicOf(c.name));

let registered = false;
/** Registers every context's event payload contracts, once per process, before consumers start. */
export function registerEventContracts(): void {
  if (registered) return;
  registered = true;
  for (const context of CONTEXTS) context.registerEventContracts?.();
}

/** Every context's error codes and their answers, for the one exception filter. */
export const CONTEXT_ERRORS: ErrorTable<string> = mergeErrorTables(CONTEXTS.flatMap((c) => (c.errors ? [c.errors] : [])));
