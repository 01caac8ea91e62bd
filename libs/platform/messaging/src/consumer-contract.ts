import type { DomainEvent } from './event-envelope';

/** A field a consumer reads: a dot path into the event (`payload.status`) and the JSON type it needs. */
export type ReliedField = `${string}:${'string' | 'number' | 'boolean' | 'object' | 'array'}`;

/**
 * What a consumer of the bus relies on in the events it takes (consumer-driven contracts): for
 * the event types a rule matches, the fields it reads. The producers' events are checked against
 * every consumer's contract (tools/test/consumer-contracts.e2e-spec.ts), so a producer that drops
 * or retypes a field a consumer reads fails a test naming both, before a consumer fails at run time.
 */
export interface ConsumerContract {
  consumer: string;
  rules: readonly { types: RegExp; fields: readonly ReliedField[] }[];
}

/** One field a consumer relies on that a producer's event does not carry as it should. */
export interface ContractBreach {
  consumer: string;
  /** The topic the event was published on (`taproot.<context>`). */
  producer: string;
  type: string;
  field: string;
  problem: string;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function at(event: DomainEvent, path: string): unknown {
  let value: unknown = event;
  for (const key of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** The breaches of `event` (published on `producer`) against each contract's rules matching its type. */
export function contractBreaches(contracts: readonly ConsumerContract[], producer: string, event: DomainEvent): ContractBreach[] {
  const breaches: ContractBreach[] = [];
  for (const { consumer, rules } of contracts) {
    for (const rule of rules) {
      if (!rule.types.test(event.type)) continue;
      for (const field of rule.fields) {
        const [path, type] = field.split(':');
        const actual = typeOf(at(event, path));
        if (actual !== type) breaches.push({ consumer, producer, type: event.type, field: path, problem: `${type} expected, ${actual === 'undefined' ? 'missing' : actual}` });
      }
    }
  }
  return breaches;
}

/** A breach as a test failure says it: who relies on what, and who broke it. */
export const describeBreach = (b: ContractBreach) => `${b.producer} publishes ${b.type} without ${b.field} as ${b.consumer} relies on it (${b.problem})`;
