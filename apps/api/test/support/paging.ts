import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import assert from 'node:assert/strict';
import { PagingEngine } from '@taproot/alerting';
import { SmtpSink } from '@taproot/alerting/testing';
import { startApiWorld, type ApiWorld } from './api-world';
import { created, doc, unique } from './json-api';

export const MINUTE = 60_000;

/** A user of the organization with a sign-in e-mail of its own (paged by e-mail when it has no rules). */
export interface PagedUser {
  id: number;
  email: string;
}

/**
 * The API with the paging engine driven by the test (PAGING_POLL_MS=0, an injected clock, `tick()`)
 * and a real SMTP server receiving what it mails; two organizations, `org` the one acting.
 */
export interface PagingWorld extends ApiWorld {
  engine: PagingEngine;
  smtp: SmtpSink;
  /** The injected clock's instant. */
  now(): Date;
  /** Moves the clock by `ms` and runs one pass of the engine. */
  advance(ms: number): Promise<unknown>;
  mailsTo(address: string): SmtpSink['messages'];
  userWithEmail(organization?: ApiWorld['org']): Promise<PagedUser>;
  /** A policy whose default path has one level per user list, each `delay` minutes (5) before the next. */
  policyOf(levels: { users: number[]; delay?: number }[], token?: string): Promise<string>;
  /** The path of the one-click acknowledge link in a notification's text. */
  ackLinkOf(text: string): string;
  close(): Promise<void>;
}

export async function startPagingWorld(smtpOptions: ConstructorParameters<typeof SmtpSink>[0] = {}): Promise<PagingWorld> {
  const smtp = new SmtpSink(smtpOptions);
  let now = Date.parse('2026-11-25T12:00:00.000Z');
  const base = await startApiWorld({ clock: { now: () => new Date(now) }, env: { PAGING_POLL_MS: '0', SMTP_URL: await smtp.start() } });
  const { api, org, send } = base;
  const engine = api.app.get(PagingEngine);
  const world: PagingWorld = {
    ...base,
    engine,
    smtp,
    now: () => new Date(now),
    advance: async (ms) => {
      now += ms;
      return engine.tick();
    },
    mailsTo: (address) => smtp.messages.filter((m) => m.to.includes(address)),
    userWithEmail: async (organization = org) => {
      const email = `${unique('pager').replace(' ', '-')}@example.test`;
      return { id: await api.addUser(organization.organizationId, { roleKind: 'user', email }), email };
    },
    policyOf: async (levels, token = org.token) => {
      const policy = created(await send('POST', '/v1/escalation_policies', doc('escalation_policies', { name: unique('Policy') }), token)).id as string;
      const path = created(await send('POST', `/v1/escalation_policies/${policy}/escalation_paths`, doc('escalation_paths', { name: 'Default', default: true }), token)).id as string;
      for (const level of levels) {
        const targets = level.users.map((id) => ({ type: 'user', id: String(id) }));
        created(await send('POST', `/v1/escalation_policies/${policy}/escalation_levels`, doc('escalation_levels', { delay: level.delay ?? 5, notification_target_params: targets, escalation_policy_path_id: path }), token));
      }
      return policy;
    },
    ackLinkOf: (text) => {
      const match = /\/v1\/alert_acknowledgements\?token=[A-Za-z0-9_.-]+/.exec(text);
      assert.ok(match, text);
      return match[0];
    },
    close: async () => {
      await api.close();
      await smtp.close();
    },
  };
  return world;
}

/**
 * The paging world of a describe block: started before its tests, closed after them, and moved a
 * day on before each test (past the alert creation limit's minute and every earlier test's timers).
 */
export function usePagingWorld(smtpOptions: ConstructorParameters<typeof SmtpSink>[0] = {}): PagingWorld {
  const world = {} as PagingWorld;
  beforeAll(async () => {
    Object.assign(world, await startPagingWorld(smtpOptions));
  });
  afterAll(async () => {
    await world.close?.();
  });
  beforeEach(async () => {
    await world.advance(24 * 60 * MINUTE);
  });
  return world;
}
