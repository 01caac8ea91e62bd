import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { IngestionError } from './alert-draft';
import { DEFAULT_EMAIL_SUMMARY, decodeEncodedWords, mapEmail, parseJsonEmail, parseRawEmail, type EmailMapping } from './email';

/** This test's folder (Jest runs it as an ES module, without `__dirname`). */
const here = dirname(expect.getState().testPath!);

const eml = (name: string): Buffer => readFileSync(join(here, 'fixtures', name));
const accepted = (mapping: EmailMapping) => {
  assert.ok(mapping.accepted, 'expected the email to be accepted');
  return mapping;
};
const FIRST_ID = '20250314103107.4Z7Qm93kLdz2xP@monitor01.example.com';

describe('email mapper', () => {
  test('a plain Nagios email: folded subject, body as description, its Message-ID as keys', () => {
    const { draft, threaded } = accepted(mapEmail({}, eml('email-plain.eml')));
    assert.equal(threaded, false);
    assert.equal(draft.summary, '** PROBLEM Service Alert: db-primary-1/PostgreSQL replication lag is CRITICAL **');
    assert.match(draft.description ?? '', /^\*\*\*\*\* Nagios \*\*\*\*\*\n\nNotification Type: PROBLEM\n/);
    assert.match(draft.description ?? '', /CRITICAL - replication lag 312s \(threshold 120s\)$/);
    assert.equal(draft.external_id, FIRST_ID);
    assert.equal(draft.deduplication_key, FIRST_ID);
    assert.deepEqual(draft.labels, [{ key: 'from', value: 'Nagios <nagios@monitor01.example.com>' }]);
    assert.equal(draft.started_at, '2025-03-14T10:31:07.000Z');
    assert.equal(draft.resolve, false);
  });

  test('quoted-printable UTF-8 body and RFC 2047 subject and sender', () => {
    const email = parseRawEmail(eml('email-quoted-printable.eml'));
    assert.equal(email.subject, 'Problem: Disk space low on fileserver-münchen');
    assert.equal(email.from, 'Zabbix Server München <zabbix@muc.example.de>');
    assert.match(email.text, /^Problem started at 11:02:44 on 2025\.03\.14\nProblem name: Disk space low on fileserver-münchen\n/);
    assert.match(email.text, /94\.6 % used \(free: 27\.1 GB\)\n/, 'trailing =20 kept then line trimmed');
    assert.match(email.text, /28815 — see https:\/\/zabbix\.muc\.example\.de\/tr_events\.php\?triggerid=41277&eventid=28815$/);
    const { draft } = accepted(mapEmail({}, eml('email-quoted-printable.eml')));
    assert.equal(draft.summary, email.subject);
    assert.equal(draft.started_at, '2025-03-14T10:02:44.000Z');
  });

  test('multipart/mixed with a nested alternative picks the base64 text/plain, not html or the attachment', () => {
    const { draft } = accepted(mapEmail({}, eml('email-multipart.eml')));
    assert.equal(draft.summary, '[DOWN] checkout.example.com is unreachable');
    assert.equal(
      draft.description,
      'checkout.example.com is DOWN since 12:14:51 UTC.\n\nCheck: HTTPS GET https://checkout.example.com/health\nError: connection timed out after 30s (from frankfurt, virginia)',
    );
    const htmlOnly = eml('email-multipart.eml').toString('latin1').replace('Content-Type: text/plain; charset=UTF-8', 'Content-Type: text/calendar');
    assert.match(parseRawEmail(htmlOnly).text, /^checkout\.example\.com is DOWN\nHTML version$/);
  });

  test('a threaded reply takes the thread root as dedup key so it updates the first alert', () => {
    const first = accepted(mapEmail({ sourceable_attributes: { accept_threaded_emails: true } }, eml('email-plain.eml')));
    const reply = accepted(mapEmail({ sourceable_attributes: { accept_threaded_emails: true } }, eml('email-threaded-reply.eml')));
    assert.equal(reply.threaded, true);
    assert.equal(reply.draft.deduplication_key, first.draft.deduplication_key);
    assert.equal(reply.draft.external_id, '20250314104619.4Z7Qx01bKfz2yR@monitor01.example.com');
    assert.equal(reply.draft.summary, first.draft.summary, 'Re: is stripped');
    assert.match(reply.draft.description ?? '', /Notification Type: RECOVERY/);
    // References wins over In-Reply-To: a reply to the reply still lands on the root.
    const deeper = eml('email-threaded-reply.eml')
      .toString('latin1')
      .replace(/^In-Reply-To: .*$/m, 'In-Reply-To: <20250314104619.4Z7Qx01bKfz2yR@monitor01.example.com>')
      .replace(/^References: (.*)$/m, 'References: $1\r\n <20250314104619.4Z7Qx01bKfz2yR@monitor01.example.com>');
    assert.equal(accepted(mapEmail({}, Buffer.from(deeper, 'latin1'))).draft.deduplication_key, FIRST_ID);
  });

  test('with accept_threaded_emails false a reply is rejected and a first message accepted', () => {
    const config = { sourceable_attributes: { accept_threaded_emails: false } };
    assert.deepEqual(mapEmail(config, eml('email-threaded-reply.eml')), { accepted: false, reason: 'threaded_email_rejected' });
    assert.equal(mapEmail(config, eml('email-plain.eml')).accepted, true);
  });

  test('CRLF line endings parse the same as LF', () => {
    const lf = eml('email-plain.eml').toString('latin1');
    const crlf = lf.replace(/\n/g, '\r\n');
    assert.deepEqual(parseRawEmail(crlf), parseRawEmail(lf));
  });

  test('the parsed JSON form maps the same way, including threading', () => {
    const { draft } = accepted(
      mapEmail({}, {
        from: 'Nagios <nagios@monitor01.example.com>',
        subject: 'RE: ** PROBLEM Service Alert: db-primary-1/PostgreSQL replication lag is CRITICAL **',
        text: 'OK - replication lag 3s\r\n',
        message_id: '<reply-2@monitor01.example.com>',
        in_reply_to: `<${FIRST_ID}>`,
      }),
    );
    assert.equal(draft.deduplication_key, FIRST_ID);
    assert.equal(draft.summary, '** PROBLEM Service Alert: db-primary-1/PostgreSQL replication lag is CRITICAL **');
    assert.equal(draft.description, 'OK - replication lag 3s');
    const html = parseJsonEmail({ html: '<p>Disk &amp; CPU</p><p>high</p>', references: ['<a@x>', '<b@x>'] });
    assert.equal(html.text, 'Disk & CPU\nhigh');
    assert.deepEqual(html.references, ['a@x', 'b@x']);
    const { draft: bare } = accepted(mapEmail({}, { text: '\n\nfirst line\nsecond' }));
    assert.equal(bare.summary, 'first line');
    assert.equal(bare.deduplication_key, null);
    assert.equal(accepted(mapEmail({}, { subject: '  ', text: '' })).draft.summary, DEFAULT_EMAIL_SUMMARY);
  });

  test('inputs that are not emails throw IngestionError', () => {
    assert.throws(() => mapEmail({}, 'just some text\n\nwith a body'), (e: unknown) => e instanceof IngestionError && e.field === 'body');
    assert.throws(() => mapEmail({}, {}), { field: 'body' });
    assert.throws(() => mapEmail({}, { subject: 3 }), { field: 'subject' });
    assert.throws(() => mapEmail({}, { subject: 'x', references: [1] }), { field: 'references' });
  });

  test('encoded words: adjacent words join, Q underscores are spaces, unknown charsets fall back', () => {
    assert.equal(decodeEncodedWords('=?ISO-8859-1?Q?Caf=E9_au_lait?= ok'), 'Café au lait ok');
    assert.equal(decodeEncodedWords('=?utf-8?B?SGVs?=  =?utf-8?B?bG8=?='), 'Hello');
    assert.equal(decodeEncodedWords('=?x-unknown?Q?plain?='), 'plain');
  });
});
