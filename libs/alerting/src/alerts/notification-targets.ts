import { existingCatalogIds } from '@taproot/catalog';
import { existingTeamIds, existingUserIds } from '@taproot/identity';
import { JsonApiError } from '@taproot/json-api';
import { existingEscalationPolicyIds } from '@taproot/on-call';
import type { Row, WriteContext } from '@taproot/resources';
import { NOTIFICATION_TARGET_TYPES } from './alert.schema';
import { AlertingErrorCode } from '../errors';

type NotificationTargetType = (typeof NOTIFICATION_TARGET_TYPES)[number];
export type RecordKind = 'users' | 'groups' | 'services' | 'environments' | 'functionalities' | 'escalation_policies';
type Kind = RecordKind;

/** Where each kind of record an alert names lives, through its owning context's lookup. */
const KINDS: Record<Kind, { noun: string; existing(ctx: WriteContext, ids: string[]): Promise<Set<string>> }> = {
  users: { noun: 'a user', existing: (ctx, ids) => existingUserIds(ctx.manager, ctx.organizationId, ids) },
  groups: { noun: 'a group', existing: (ctx, ids) => existingTeamIds(ctx.manager, ctx.organizationId, ids) },
  services: { noun: 'a service', existing: (ctx, ids) => existingCatalogIds(ctx.manager, ctx.organizationId, 'services', ids) },
  environments: { noun: 'an environment', existing: (ctx, ids) => existingCatalogIds(ctx.manager, ctx.organizationId, 'environments', ids) },
  functionalities: { noun: 'a functionality', existing: (ctx, ids) => existingCatalogIds(ctx.manager, ctx.organizationId, 'functionalities', ids) },
  escalation_policies: { noun: 'an escalation policy', existing: (ctx, ids) => existingEscalationPolicyIds(ctx.manager, ctx.organizationId, ids) },
};

const TARGET_KINDS: Record<NotificationTargetType, Kind> = {
  User: 'users',
  Group: 'groups',
  EscalationPolicy: 'escalation_policies',
  Service: 'services',
  Functionality: 'functionalities',
};

/** The alert's id lists and the records they hold. */
const ID_LISTS: Record<string, Kind> = { service_ids: 'services', group_ids: 'groups', environment_ids: 'environments', functionality_ids: 'functionalities' };

/** A refused reference: `attribute` is the pointer under /data/attributes (`notification_targets/1/id`). */
export interface ReferenceIssue {
  attribute: string;
  detail: string;
  code: string;
}

/** A problem found, and how to leave the reference out instead (ingestion drops what it cannot page). */
interface Problem {
  issue: ReferenceIssue;
  drop(): void;
}

/** `notification_targets/1/id` as a detail names it: `notification_targets[1].id`. */
const nameOf = (attribute: string) => attribute.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.');
const issue = (attribute: string, detail: string, code: string): ReferenceIssue => ({ attribute, detail: `${nameOf(attribute)}: ${detail}`, code });

/** One reference to look up: the record of `kind` with `id`, named at `attribute`. */
interface Reference {
  kind: Kind;
  id: string;
  attribute: string;
  code: AlertingErrorCode.UnknownNotificationTarget | AlertingErrorCode.UnknownReference;
  drop(): void;
}

/** The references naming no record of the organization (one lookup per kind) as problems. */
async function unknownReferences(ctx: WriteContext, references: Reference[]): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const kind of new Set(references.map((r) => r.kind))) {
    const ofKind = references.filter((r) => r.kind === kind);
    const found = await KINDS[kind].existing(ctx, ofKind.map((r) => r.id));
    for (const r of ofKind) {
      if (!found.has(r.id.toLowerCase())) problems.push({ issue: issue(r.attribute, `${r.id} is not ${KINDS[kind].noun} of this organization`, r.code), drop: r.drop });
    }
  }
  return problems;
}

/**
 * A target given as a type and an id (`notification_target_type`/`_id`, an entry of
 * `notification_targets`, an email source's pair): both or neither; the reference to look up.
 */
function targetPair(type: unknown, id: unknown, typeAt: string, idAt: string, drop: () => void): { problems: Problem[]; references: Reference[] } {
  if (type == null && id == null) return { problems: [], references: [] };
  if (type == null) return { problems: [{ issue: issue(typeAt, `required with ${nameOf(idAt)}`, AlertingErrorCode.IncompleteNotificationTarget), drop }], references: [] };
  if (id == null) return { problems: [{ issue: issue(idAt, `required with ${nameOf(typeAt)}`, AlertingErrorCode.IncompleteNotificationTarget), drop }], references: [] };
  return { problems: [], references: [{ kind: TARGET_KINDS[type as NotificationTargetType], id: String(id), attribute: idAt, code: AlertingErrorCode.UnknownNotificationTarget, drop }] };
}

/**
 * An alert's notification target (`notification_target_type` + `notification_target_id`, checked
 * on the alert as it will be, `current` merged with `changes`), each entry of
 * `notification_targets`, and its `service_ids`, `group_ids`, `environment_ids` and
 * `functionality_ids` must name records of the organization. Answers the attributes to store (ids
 * lower-cased and once each, without what `issues` names) and the issues: `POST`/`PATCH
 * /v1/alerts` refuse them (422), ingestion stores the rest (docs/alerts.md).
 */
export async function checkAlertReferences(ctx: WriteContext, changes: Row, current: Row = {}): Promise<{ attributes: Row; issues: ReferenceIssue[] }> {
  const attributes: Row = { ...changes };
  const problems: Problem[] = [];
  const references: Reference[] = [];
  const add = (found: { problems: Problem[]; references: Reference[] }) => {
    problems.push(...found.problems);
    references.push(...found.references);
  };
  if ('notification_target_type' in changes || 'notification_target_id' in changes) {
    const merged = { ...current, ...changes };
    add(
      targetPair(merged.notification_target_type, merged.notification_target_id, 'notification_target_type', 'notification_target_id', () => {
        attributes.notification_target_type = null;
        attributes.notification_target_id = null;
      }),
    );
  }
  const dropped = new Map<string, Set<number>>();
  const dropper = (attribute: string, i: number) => () => dropped.set(attribute, (dropped.get(attribute) ?? new Set()).add(i));
  const targets = Array.isArray(changes.notification_targets) ? (changes.notification_targets as Row[]) : [];
  targets.forEach((t, i) => add(targetPair(t?.type, t?.id, `notification_targets/${i}/type`, `notification_targets/${i}/id`, dropper('notification_targets', i))));
  for (const [attribute, kind] of Object.entries(ID_LISTS)) {
    const ids = changes[attribute];
    if (!Array.isArray(ids)) continue;
    ids.forEach((id, i) => references.push({ kind, id: String(id), attribute: `${attribute}/${i}`, code: AlertingErrorCode.UnknownReference, drop: dropper(attribute, i) }));
  }
  problems.push(...(await unknownReferences(ctx, references)));
  for (const p of problems) p.drop();
  if (targets.length) attributes.notification_targets = targets.filter((_, i) => !dropped.get('notification_targets')?.has(i));
  for (const attribute of Object.keys(ID_LISTS)) {
    const ids = changes[attribute];
    if (Array.isArray(ids)) attributes[attribute] = [...new Set(ids.filter((_, i) => !dropped.get(attribute)?.has(i)).map((id) => String(id).toLowerCase()))];
  }
  return { attributes, issues: problems.map((p) => p.issue) };
}

/**
 * A record holding a notification target pair of its own (an email alert source's
 * `sourceable_attributes`, at `at`): both or neither, naming a record of the organization; 422
 * with the pointer of the offending one otherwise.
 */
export async function checkNotificationTarget(ctx: WriteContext, holder: Row | null | undefined, at: string): Promise<void> {
  if (holder == null) return;
  const found = targetPair(holder.notification_target_type, holder.notification_target_id, `${at}/notification_target_type`, `${at}/notification_target_id`, () => undefined);
  const problems = [...found.problems, ...(await unknownReferences(ctx, found.references))];
  if (problems.length) throw JsonApiError.invalidAttributes(problems.map((p) => p.issue));
}

/**
 * Records other writes of alerting name (a live call router's paging targets), each at its
 * attribute pointer (`paging_targets/0/id`): 422 naming every one that is no record of that kind
 * in the organization.
 */
export async function requireRecords(ctx: WriteContext, records: readonly { kind: RecordKind; id: string; attribute: string }[]): Promise<void> {
  const references = records.map((r) => ({ ...r, code: AlertingErrorCode.UnknownReference as const, drop: () => undefined }));
  const problems = await unknownReferences(ctx, references);
  if (problems.length) throw JsonApiError.invalidAttributes(problems.map((p) => p.issue));
}

/** `checkAlertReferences` for a client's write: any issue refuses it (422), nothing is stored. */
export async function requireAlertReferences(ctx: WriteContext, changes: Row, current: Row = {}): Promise<Row> {
  const { attributes, issues } = await checkAlertReferences(ctx, changes, current);
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  return attributes;
}
