import assert from 'node:assert/strict';
import { ChannelFailure, type OutgoingNotification } from '../notification-channel';

/** A notification as the engine hands it to a channel: a level-2 page for a triggered alert. */
export function outgoingNotification(overrides: Partial<OutgoingNotification> = {}): OutgoingNotification {
  return {
    id: '8c1f0d2e-4b7a-4e43-9d0f-2f5c3a1b6e70',
    channel: 'email',
    address: 'oncall@example.com',
    organizationId: '1d5e3c9a-0b8f-4a2e-8c71-6f4d2b9e0a13',
    alert: {
      id: 'f3a9c2d1-7e6b-4d58-a0c4-9b1e8f27d365',
      shortId: 'x7Kp2a',
      summary: 'Checkout p99 latency above 2 s',
      description: 'Since 10:02 UTC.\nRunbook: restart the <pool> & watch.',
      status: 'triggered',
      url: 'https://grafana.example.com/d/checkout',
    },
    escalationLevel: 2,
    acknowledgeUrl: 'https://taproot.example.com/v1/acknowledge?token=abc.def',
    ...overrides,
  };
}

/** The ChannelFailure a send rejects with (an assertion error when it resolves or rejects otherwise). */
export async function channelFailureOf(send: Promise<unknown>): Promise<ChannelFailure> {
  const error = await send.then(
    () => assert.fail('the send should have failed'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ChannelFailure, `a ChannelFailure, got ${String(error)}`);
  return error;
}

/** Servers and channels a test opened, closed in reverse order by `closeAll` (in an afterEach), whatever the test left open. */
export class OpenResources {
  #open: { close(): Promise<void> }[] = [];

  track<T extends { close(): Promise<void> }>(resource: T): T {
    this.#open.push(resource);
    return resource;
  }

  async closeAll(): Promise<void> {
    for (const resource of this.#open.splice(0).reverse()) await resource.close();
  }
}
