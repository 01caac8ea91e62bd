import { resolveTxt } from 'node:dns/promises';

/**
 * Where a domain's TXT records are read (a port: the default asks the system's DNS resolver,
 * tests provide the answers). Each record comes as its character strings, as `resolveTxt` gives them.
 */
export interface TxtResolver {
  resolveTxt(hostname: string): Promise<string[][]>;
}

export const TXT_RESOLVER = Symbol('TXT_RESOLVER');

export const systemTxtResolver: TxtResolver = { resolveTxt };

/**
 * Whether `hostname` publishes a TXT record of exactly `value` (a record's strings joined, as DNS
 * splits long ones). A lookup that fails (no such name, no TXT record, a resolver away) finds nothing.
 */
export async function publishesTxt(resolver: TxtResolver, hostname: string, value: string): Promise<boolean> {
  try {
    return (await resolver.resolveTxt(hostname)).some((chunks) => chunks.join('') === value);
  } catch {
    return false;
  }
}
