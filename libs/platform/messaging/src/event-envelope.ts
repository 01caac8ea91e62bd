import type { RequestMetadata } from './request-context';

/**
 * The public contract of a domain event (architecture rule 4). Never change a published
 * event's meaning: add a version instead.
 */
export interface EventActor {
  kind: 'api_key' | 'user' | 'system';
  id: string | null;
}

export interface DomainEvent<P = Record<string, unknown>> {
  id: string;
  /** Wire name in the past tense, e.g. `service.created`. */
  type: string;
  version: number;
  occurred_at: string;
  organization_id: string;
  aggregate_type: string;
  aggregate_id: string;
  actor: EventActor;
  payload: P;
  /** The request that caused the change, when there was one (version 1 addition, optional). */
  metadata?: RequestMetadata;
}

/** A message that is not a domain event of this contract: retrying cannot help, it is dead-lettered. */
export class MalformedEventError extends Error {
  override readonly name = 'MalformedEventError';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EVENT_TYPE = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
const ACTOR_KINDS = new Set(['api_key', 'user', 'system']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a message that entered from outside the process (Kafka) against the envelope, and its
 * payload against the type's registered contract (`registerEventContract`), before any consumer
 * sees it: a malformed message must reach the dead-letter topic, never a read model.
 */
export function parseDomainEvent(raw: unknown): DomainEvent {
  const problems: string[] = [];
  if (!isObject(raw)) throw new MalformedEventError('an event is a JSON object');
  const { id, type, version, occurred_at, organization_id, aggregate_type, aggregate_id, actor, payload, metadata } = raw;
  if (typeof id !== 'string' || !UUID.test(id)) problems.push('id must be a uuid');
  if (typeof type !== 'string' || !EVENT_TYPE.test(type)) problems.push('type must read <aggregate>.<past tense>');
  if (!Number.isInteger(version) || (version as number) < 1) problems.push('version must be a positive integer');
  if (typeof occurred_at !== 'string' || Number.isNaN(Date.parse(occurred_at))) problems.push('occurred_at must be a timestamp');
  if (typeof organization_id !== 'string' || organization_id === '') problems.push('organization_id must be a string');
  if (typeof aggregate_type !== 'string' || aggregate_type === '') problems.push('aggregate_type must be a string');
  if (typeof aggregate_id !== 'string' || aggregate_id === '') problems.push('aggregate_id must be a string');
  if (!isObject(actor) || !ACTOR_KINDS.has(actor.kind as string) || !(actor.id === null || typeof actor.id === 'string')) {
    problems.push('actor must be {kind: api_key|user|system, id: string|null}');
  }
  if (!isObject(payload)) problems.push('payload must be an object');
  if (metadata !== undefined && !isObject(metadata)) problems.push('metadata must be an object');
  if (problems.length === 0) {
    const contract = contracts.get(`${type as string}@${version as number}`);
    const issue = contract?.(payload as Record<string, unknown>);
    if (issue) problems.push(`payload of ${type as string} v${version as number}: ${issue}`);
  }
  if (problems.length > 0) throw new MalformedEventError(problems.join('; '));
  return raw as unknown as DomainEvent;
}

/** Answers null when the payload keeps the contract, else what is wrong with it. */
export type PayloadCheck = (payload: Record<string, unknown>) => string | null;

const contracts = new Map<string, PayloadCheck>();

/**
 * A context declares the payload contract of an event type it publishes; consumers fed from
 * Kafka then only ever see payloads that keep it. One check per type and version.
 */
export function registerEventContract(type: string, version: number, check: PayloadCheck): void {
  contracts.set(`${type}@${version}`, check);
}

/** Whether a type (at a version) has a registered payload contract. */
export function hasEventContract(type: string, version = 1): boolean {
  return contracts.has(`${type}@${version}`);
}
