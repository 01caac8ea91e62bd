import { pagingTargetsOf } from '@taproot/catalog';
import { contactPlansOf, type ContactPlan } from '@taproot/identity';
import { escalationPlanOf, escalationPolicyIdsOfTeams, levelRecipients, shiftsOfSchedules, type EscalationPlan, type LevelRecipient, type PlanLevel } from '@taproot/on-call';
import type { WriteContext } from '@taproot/resources';

/**
 * What a pass of the engine reads from other contexts, once per pass: an alert storm pages one
 * policy's level for many alerts, so its plan, its recipients at the pass's instant and their
 * contact plans are read once, not once per step. A pass is one transaction at one instant
 * (`ctx.now`), so every step of it sees the same answers it would have read itself.
 */
export class PagingLookups {
  readonly #memo = new Map<string, Promise<unknown>>();
  readonly #contacts = new Map<string, ContactPlan | null>();

  #once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let found = this.#memo.get(key) as Promise<T> | undefined;
    if (!found) this.#memo.set(key, (found = read()));
    return found;
  }

  plan(ctx: WriteContext, policyId: string): Promise<EscalationPlan | null> {
    return this.#once(`plan:${ctx.organizationId}:${policyId}`, () => escalationPlanOf(ctx.manager, ctx.organizationId, policyId));
  }

  /** The policy a team target pages (the first whose `group_ids` hold it), or null. */
  async teamPolicy(ctx: WriteContext, teamId: string): Promise<string | null> {
    return this.#once(`team:${ctx.organizationId}:${teamId}`, async () => (await escalationPolicyIdsOfTeams(ctx.manager, ctx.organizationId, [teamId])).get(teamId) ?? null);
  }

  catalogTarget(ctx: WriteContext, kind: 'services' | 'functionalities', id: string) {
    return this.#once(`${kind}:${ctx.organizationId}:${id}`, async () => (await pagingTargetsOf(ctx.manager, ctx.organizationId, kind, [id])).get(id));
  }

  /** Whom a level reaches at the pass's instant (its shifts computed from the schedules' rows). */
  recipients(ctx: WriteContext, level: PlanLevel): Promise<LevelRecipient[]> {
    return this.#once(`level:${ctx.organizationId}:${level.id}`, () =>
      levelRecipients(ctx.manager, ctx.organizationId, level, ctx.now, { shifts: (org, ids, window) => shiftsOfSchedules(ctx.manager, org, ids, window) }),
    );
  }

  /** The users' contact plans: those not read yet in this pass, in one read. */
  async contactPlans(ctx: WriteContext, userIds: readonly number[]): Promise<Map<number, ContactPlan>> {
    const key = (id: number) => `${ctx.organizationId}:${id}`;
    const missing = [...new Set(userIds)].filter((id) => !this.#contacts.has(key(id)));
    if (missing.length) {
      const read = await contactPlansOf(ctx.manager, ctx.organizationId, missing);
      for (const id of missing) this.#contacts.set(key(id), read.get(id) ?? null);
    }
    return new Map(userIds.flatMap((id) => (this.#contacts.get(key(id)) ? [[id, this.#contacts.get(key(id))!] as const] : [])));
  }
}
