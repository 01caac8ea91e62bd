import { CreateIdempotencyKeys1732300004000 } from './migrations/1732300004000-create-idempotency-keys';

export * from './idempotency-key';
export * from './idempotency-store';
export * from './idempotency';

export const IDEMPOTENCY_MIGRATIONS = [CreateIdempotencyKeys1732300004000];
