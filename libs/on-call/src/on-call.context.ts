import type { ContextDescriptor } from '@taproot/runtime';
import { OnCallModule } from './on-call.module';

/** Schedules, escalation and paging arrive in later issues; the context already has its topic. */
export const ON_CALL_CONTEXT: ContextDescriptor = { name: 'on-call', module: OnCallModule, migrations: [], resources: [] };
