import { JsonApiError } from '../errors/json-api-error';

/** What the value of a `{key, value}` pair may be. */
export type PairValueType = 'string' | 'number' | 'boolean';

const article = (type: PairValueType) => (type === 'string' ? 'a string' : type === 'number' ? 'a number' : 'a boolean');
const either = (types: readonly PairValueType[]) => types.map(article).join(', ').replace(/, ([^,]*)$/, ' or $1');

/**
 * Lists of `{key, value}` pairs (alerts' labels, pulses' labels and refs): each item a string `key`
 * and a `value` of one of `values`' types, and no other member. Declarations take the items as
 * free-form objects (the payload check already refused a null or non-object item), so their members
 * are checked here: one 422 error per problem, at the member (`labels/2/key`). An absent or null
 * list passes.
 */
export function checkKeyValuePairs(attributes: Record<string, unknown>, names: readonly string[], values: readonly PairValueType[] = ['string']): void {
  const issues = names.flatMap((name) => {
    const list = attributes[name];
    return (Array.isArray(list) ? list : []).flatMap((item, i) => {
      const { key, value, ...extra } = item as Record<string, unknown>;
      const problems: { attribute: string; detail: string }[] = [];
      if (typeof key !== 'string') problems.push({ attribute: `${name}/${i}/key`, detail: `${name}[${i}].key must be a string` });
      if (!(values as readonly string[]).includes(typeof value)) problems.push({ attribute: `${name}/${i}/value`, detail: `${name}[${i}].value must be ${either(values)}` });
      for (const member of Object.keys(extra)) problems.push({ attribute: `${name}/${i}/${member}`, detail: `${name}[${i}] takes key and value only, not ${member}` });
      return problems;
    });
  });
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
}
