import { describe, expect, test } from '@jest/globals';
import { ScimError } from './scim-errors';
import { filterSql, type ScimAttributes } from './scim-filter';

const ATTRIBUTES: ScimAttributes = {
  username: { sql: 'u.email', type: 'string' },
  externalid: { sql: 'u.external_id', type: 'string', caseExact: true },
  'emails.value': { sql: 'u.email', type: 'string' },
  'emails.type': { sql: "'work'", type: 'string' },
  active: { sql: 'true', type: 'boolean' },
  'meta.lastmodified': { sql: 'u.updated_at', type: 'dateTime' },
};

function sql(text: string): [string, unknown[]] {
  const params: unknown[] = [];
  return [filterSql(text, ATTRIBUTES, params), params];
}

function refusal(text: string): ScimError {
  try {
    sql(text);
  } catch (error) {
    return error as ScimError;
  }
  throw new Error(`${text} was accepted`);
}

describe('SCIM filters as SQL (RFC 7644 §3.4.2.2)', () => {
  test('the comparisons the identity providers send', () => {
    expect(sql('userName eq "bjensen"')).toEqual(['lower(u.email) = lower($1)', ['bjensen']]);
    // externalId is caseExact: no lower().
    expect(sql('externalId eq "701984"')).toEqual(['u.external_id = $1', ['701984']]);
    expect(sql('urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"')).toEqual(['starts_with(lower(u.email), lower($1))', ['J']]);
    expect(sql('userName co "jen"')[0]).toBe('strpos(lower(u.email), lower($1)) > 0');
    expect(sql('userName ew "example.com"')[0]).toBe('right(lower(u.email), length(lower($1))) = lower($1)');
    expect(sql('userName ne "x"')[0]).toBe('lower(u.email) IS DISTINCT FROM lower($1)');
    expect(sql('externalId pr')[0]).toBe("COALESCE(u.external_id, '') <> ''");
    expect(sql('active eq true')).toEqual(['true = $1', [true]]);
    expect(sql('meta.lastModified gt "2011-05-13T04:42:34Z"')).toEqual(['u.updated_at > $1::timestamptz', ['2011-05-13T04:42:34Z']]);
  });

  test('value paths, and, or, not', () => {
    expect(sql('emails[type eq "work" and value co "@example.com"]')[0]).toBe("(lower('work') = lower($1) AND strpos(lower(u.email), lower($2)) > 0)");
    // Okta and Azure AD: `emails[type eq "work"].value eq "..."` (parsed as the value path and the sub-attribute).
    const [text, params] = sql('emails[type eq "work"].value eq "a@b.test"');
    expect(text).toBe("(lower('work') = lower($1) AND lower(u.email) = lower($2))");
    expect(params).toEqual(['work', 'a@b.test']);
    expect(sql('userName eq "a" or (externalId eq "b" and not (userName eq "c"))')[0]).toBe(
      '(lower(u.email) = lower($1) OR (u.external_id = $2 AND NOT COALESCE(lower(u.email) = lower($3), false)))',
    );
  });

  test('refusals are 400 invalidFilter naming what is wrong', () => {
    for (const [text, detail] of [
      ['userName eq', /is not a SCIM filter/],
      ['userName zz "x"', /is not a SCIM filter/],
      ['nickName eq "x"', /unknown or unfilterable attribute "nickName"/],
      ['active eq "yes"', /active is a boolean/],
      ['userName eq 5', /userName takes a string value, got 5/],
      ['meta.lastModified gt "yesterday"', /takes a date-time, got "yesterday"/],
      ['meta.lastModified co "2011"', /co does not apply to the date-time/],
    ] as const) {
      const error = refusal(text);
      expect([error.status, error.scimType]).toEqual([400, 'invalidFilter']);
      expect(error.detail).toMatch(detail);
    }
  });
});
