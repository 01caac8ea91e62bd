import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '../errors/json-api-error';
import { attributesSchema } from './json-schema';
import { parseOperationPayload, parseResourcePayload } from './payload';
import { defineResource, type AttributeDef } from './resource-schema';

const channels: AttributeDef = {
  type: 'array',
  nullable: true,
  items: {
    type: 'object',
    properties: {
      id: { type: 'string', required: true },
      name: { type: 'string', required: true },
    },
  },
};

const widgets = () =>
  defineResource({
    type: 'widgets',
    singular: 'widget',
    path: '/v1/widgets',
    readTable: 'widgets_read',
    defaultSort: 'position',
    operations: ['list', 'create', 'get', 'update', 'delete'],
    attributes: {
      name: { type: 'string', required: true, minLength: 1, maxLength: 20 },
      slug: { type: 'string', writable: false, derivedFrom: 'name' },
      severity: { type: 'string', enum: ['critical', 'high', 'medium', 'low'], default: 'medium' },
      position: { type: 'integer', nullable: true, minimum: 0 },
      owner_id: { type: 'string', format: 'uuid', nullable: true },
      homepage: { type: 'string', format: 'uri', nullable: true },
      due_at: { type: 'date-time', nullable: true },
      enabled: { type: 'boolean' },
      notify_emails: { type: 'array', nullable: true, items: { type: 'string', format: 'email' } },
      slack_channels: channels,
      channel: { type: 'object', nullable: true, properties: { id: { type: 'string', required: true }, name: { type: 'string' } } },
      settings: { type: 'object', nullable: true },
      tags: { type: 'array', default: [], items: { type: 'string' } },
      managed_by: { type: 'string', writable: false, default: 'api' },
      uptime_days: { type: 'integer', nullable: true, enum: [30, 60, 90], default: 60, writable: 'create' },
    },
  });

const doc = (attributes: unknown, type: unknown = 'widgets') => ({ data: { type, attributes } });

/** Runs `fn`, expecting a JsonApiError; returns it for inspection. */
function failure(fn: () => unknown): JsonApiError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof JsonApiError, `expected a JsonApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a JsonApiError');
}

describe('parseResourcePayload', () => {
  describe('the document', () => {
    for (const [label, body] of [
      ['null', null],
      ['an array', [{ data: {} }]],
      ['a string', 'data'],
    ] as const) {
      test(`rejects a body that is ${label} with 400 Invalid request body`, () => {
        const error = failure(() => parseResourcePayload(widgets(), body, 'create'));
        assert.equal(error.status, 400);
        assert.equal(error.errors[0].title, 'Invalid request body');
        assert.match(error.errors[0].detail ?? '', /data/);
      });
    }

    test('rejects a body without data with 400 naming the missing member', () => {
      const error = failure(() => parseResourcePayload(widgets(), { attributes: { name: 'x' } }, 'create'));
      assert.equal(error.status, 400);
      assert.equal(error.errors[0].title, 'Invalid request body');
      assert.match(error.errors[0].detail ?? '', /top-level data member/);
    });

    test('rejects a data member that is not a single resource object with 400', () => {
      const error = failure(() => parseResourcePayload(widgets(), { data: [doc({ name: 'x' }).data] }, 'create'));
      assert.equal(error.status, 400);
      assert.match(error.errors[0].detail ?? '', /data must be a single resource object/);
    });

    test("reads a body without data as the attributes when the reference's body is the bare attributes", () => {
      const bare = defineResource({ ...widgets(), bareRequest: true });
      assert.deepEqual(parseResourcePayload(bare, { name: 'bare' }, 'create').attributes.name, 'bare');
      assert.deepEqual(parseResourcePayload(bare, doc({ name: 'document' }), 'create').attributes.name, 'document');
      const error = failure(() => parseResourcePayload(bare, { severity: 'urgent' }, 'create'));
      assert.deepEqual([error.status, error.errors.map((e) => e.source?.pointer).sort()], [422, ['/data/attributes/name', '/data/attributes/severity']]);
    });

    test('rejects a missing data.type with 422 naming the expected type', () => {
      const error = failure(() => parseResourcePayload(widgets(), { data: { attributes: { name: 'x' } } }, 'create'));
      assert.equal(error.status, 422);
      assert.equal(error.errors[0].status, '422');
      assert.equal(error.errors[0].detail, "data.type is required and must be 'widgets'");
    });

    test('rejects a wrong data.type with 422 naming the expected and received types', () => {
      const error = failure(() => parseResourcePayload(widgets(), doc({ name: 'x' }, 'gadgets'), 'update'));
      assert.equal(error.status, 422);
      assert.equal(error.errors[0].detail, "data.type must be 'widgets' (got 'gadgets')");
      assert.deepEqual(error.errors[0].source, { pointer: '/data/type' });
    });

    test('rejects a missing data.attributes with 422 naming data.attributes', () => {
      const error = failure(() => parseResourcePayload(widgets(), { data: { type: 'widgets' } }, 'update'));
      assert.equal(error.status, 422);
      assert.match(error.errors[0].detail ?? '', /data\.attributes is required/);
    });

    test('rejects data.attributes that is not an object with 422', () => {
      for (const attributes of [null, ['name'], 'name']) {
        const error = failure(() => parseResourcePayload(widgets(), doc(attributes), 'create'));
        assert.equal(error.status, 422);
        assert.match(error.errors[0].detail ?? '', /data\.attributes/);
      }
    });

    test('accepts and ignores data.id', () => {
      const { attributes } = parseResourcePayload(widgets(), { data: { id: 'abc', type: 'widgets', attributes: { name: 'x' } } }, 'update');
      assert.deepEqual(attributes, { name: 'x' });
    });
  });

  describe('attributes a client may not write', () => {
    test('drops output-only and server-owned attributes silently', () => {
      const result = parseResourcePayload(
        widgets(),
        doc({ name: 'x', managed_by: 'web', id: 'abc', created_at: '2020-01-01T00:00:00Z', updated_at: 'not even a date' }),
        'update',
      );
      assert.deepEqual(result, { attributes: { name: 'x' }, warnings: [] });
    });

    test('drops create-only attributes on update silently', () => {
      const result = parseResourcePayload(widgets(), doc({ uptime_days: 90 }), 'update');
      assert.deepEqual(result, { attributes: {}, warnings: [] });
    });

    test('does not validate create-only attributes on update', () => {
      const result = parseResourcePayload(widgets(), doc({ uptime_days: 'not a number' }), 'update');
      assert.deepEqual(result.attributes, {});
    });

    test('accepts create-only attributes on create', () => {
      const { attributes } = parseResourcePayload(widgets(), doc({ name: 'x', uptime_days: 90 }), 'create');
      assert.equal(attributes.uptime_days, 90);
    });

    test('drops a derived attribute with a warning', () => {
      for (const mode of ['create', 'update'] as const) {
        const result = parseResourcePayload(widgets(), doc({ name: 'x', slug: 'my-slug' }), mode);
        assert.equal('slug' in result.attributes, false);
        assert.deepEqual(result.warnings, ['slug is read-only and derived from name; the submitted value was ignored']);
      }
    });
  });

  describe('unknown attributes', () => {
    test('answers 422 with one UNKNOWN_ATTRIBUTE error per unknown attribute', () => {
      const error = failure(() => parseResourcePayload(widgets(), doc({ name: 'x', colour: 'red', weight: 3 }), 'create'));
      assert.equal(error.status, 422);
      assert.deepEqual(
        error.errors.map((e) => ({ code: e.code, pointer: e.source?.pointer, detail: e.detail })),
        [
          { code: 'UNKNOWN_ATTRIBUTE', pointer: '/data/attributes/colour', detail: 'colour is not an attribute of widgets' },
          { code: 'UNKNOWN_ATTRIBUTE', pointer: '/data/attributes/weight', detail: 'weight is not an attribute of widgets' },
        ],
      );
    });

    test('treats inherited object keys as unknown, not declared', () => {
      const error = failure(() => parseResourcePayload(widgets(), doc({ name: 'x', toString: 'y' }), 'create'));
      assert.equal(error.errors[0].code, 'UNKNOWN_ATTRIBUTE');
    });

    test('reports unknown and invalid attributes in one response', () => {
      const error = failure(() => parseResourcePayload(widgets(), doc({ colour: 'red', position: 'x' }), 'create'));
      assert.deepEqual(
        error.errors.map((e) => e.code),
        ['UNKNOWN_ATTRIBUTE', 'REQUIRED_ATTRIBUTE', 'INVALID_ATTRIBUTE'],
      );
    });
  });

  describe('validation', () => {
    const details = (attributes: Record<string, unknown>, mode: 'create' | 'update' = 'create') =>
      failure(() => parseResourcePayload(widgets(), doc(attributes), mode)).errors.map((e) => ({
        detail: e.detail,
        pointer: e.source?.pointer,
        code: e.code,
      }));

    test('names an enum violation with the allowed values and the received one', () => {
      assert.deepEqual(details({ name: 'x', severity: 'urgent' }), [
        {
          detail: 'severity must be one of critical, high, medium, low (got "urgent")',
          pointer: '/data/attributes/severity',
          code: 'INVALID_ATTRIBUTE',
        },
      ]);
    });

    test('names a type violation once, without the enum noise', () => {
      assert.deepEqual(details({ name: 'x', position: 'first' }), [
        { detail: 'position must be integer', pointer: '/data/attributes/position', code: 'INVALID_ATTRIBUTE' },
      ]);
      assert.deepEqual(details({ name: 'x', severity: 3 }).map((d) => d.detail), ['severity must be string']);
    });

    test('does not coerce types', () => {
      assert.deepEqual(details({ name: 'x', position: '1', enabled: 'true' }).map((d) => d.detail), [
        'position must be integer',
        'enabled must be boolean',
      ]);
    });

    test('requires required attributes on create with REQUIRED_ATTRIBUTE', () => {
      assert.deepEqual(details({}), [{ detail: 'name is required', pointer: '/data/attributes/name', code: 'REQUIRED_ATTRIBUTE' }]);
    });

    test('does not require required attributes on update, but keeps them non-null', () => {
      assert.deepEqual(parseResourcePayload(widgets(), doc({ position: 2 }), 'update').attributes, { position: 2 });
      assert.deepEqual(details({ name: null }, 'update'), [
        { detail: 'name must not be null', pointer: '/data/attributes/name', code: 'INVALID_ATTRIBUTE' },
      ]);
    });

    test('names nested paths of arrays of objects, whose extra members are kept as the reference allows', () => {
      assert.deepEqual(details({ name: 'x', slack_channels: [{ id: 'C1', name: 'ops' }, { name: 'dev', topic: 't' }] }), [
        { detail: 'slack_channels[1].id is required', pointer: '/data/attributes/slack_channels/1/id', code: 'REQUIRED_ATTRIBUTE' },
      ]);
      const { attributes } = parseResourcePayload(widgets(), doc({ name: 'x', slack_channels: [{ id: 'C1', name: 'ops', topic: 't' }] }), 'create');
      assert.deepEqual(attributes.slack_channels, [{ id: 'C1', name: 'ops', topic: 't' }]);
    });

    test('integers beyond a PostgreSQL integer answer 422 naming the attribute', () => {
      assert.deepEqual(details({ name: 'x', position: 2147483648 }).map((d) => d.pointer), ['/data/attributes/position']);
    });

    test('validates objects with properties and leaves free-form objects open', () => {
      assert.deepEqual(details({ name: 'x', channel: { name: 'ops' } }).map((d) => d.detail), ['channel.id is required']);
      const { attributes } = parseResourcePayload(widgets(), doc({ name: 'x', settings: { anything: [1, { deep: true }] } }), 'create');
      assert.deepEqual(attributes.settings, { anything: [1, { deep: true }] });
    });

    test('checks formats: uuid, uri, email, date-time', () => {
      assert.deepEqual(
        details({ name: 'x', owner_id: 'nope', homepage: 'not a uri', notify_emails: ['a@example.com', 'b'], due_at: '2024-13-01' }).map(
          (d) => [d.pointer, d.detail],
        ),
        [
          ['/data/attributes/owner_id', 'owner_id must match format "uuid"'],
          ['/data/attributes/homepage', 'homepage must match format "uri"'],
          ['/data/attributes/due_at', 'due_at must match format "date-time"'],
          ['/data/attributes/notify_emails/1', 'notify_emails[1] must match format "email"'],
        ],
      );
      const ok = {
        name: 'x',
        owner_id: '0b0c6a52-9a4e-4b8f-8d55-3c4bb0a3a2a1',
        homepage: 'https://example.com/a',
        notify_emails: ['a@example.com'],
        due_at: '2024-12-01T10:00:00Z',
      };
      // A date-time is kept as the UTC instant it names.
      assert.deepEqual(parseResourcePayload(widgets(), doc(ok), 'update').attributes, { ...ok, due_at: '2024-12-01T10:00:00.000Z' });
    });

    test('date-times: any RFC 3339 offset is normalised to UTC; years outside 0001-9999 are refused', () => {
      assert.equal(parseResourcePayload(widgets(), doc({ name: 'x', due_at: '2004-08-20T00:39:54+16:00' }), 'update').attributes.due_at, '2004-08-19T08:39:54.000Z');
      for (const due_at of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-15:00']) {
        assert.deepEqual(details({ name: 'x', due_at }).map((d) => d.pointer), ['/data/attributes/due_at'], due_at);
      }
    });

    test('checks length and range constraints', () => {
      assert.deepEqual(details({ name: '', position: -1 }).map((d) => d.detail), [
        'name must NOT have fewer than 1 characters',
        'position must be >= 0',
      ]);
      assert.deepEqual(details({ name: 'x'.repeat(21) }).map((d) => d.detail), ['name must NOT have more than 20 characters']);
    });

    test('accepts null for nullable attributes, including a nullable enum', () => {
      const { attributes } = parseResourcePayload(widgets(), doc({ name: 'x', position: null, uptime_days: null, channel: null }), 'create');
      assert.equal(attributes.position, null);
      assert.equal(attributes.uptime_days, null);
      assert.equal(attributes.channel, null);
    });

    test('does not mutate the submitted document', () => {
      const body = doc({ name: 'x', slug: 'y', managed_by: 'web' });
      const before = structuredClone(body);
      parseResourcePayload(widgets(), body, 'create');
      expect(body).toEqual(before);
    });
  });

  describe('ids a client may send as numbers (integerAsText)', () => {
    const paging = defineResource({
      type: 'pagings',
      singular: 'paging',
      path: '/v1/pagings',
      readTable: 'pagings_read',
      defaultSort: 'created_at',
      operations: ['create'],
      attributes: {
        user_id: { type: 'string', nullable: true, integerAsText: true },
        name: { type: 'string', nullable: true },
        targets: { type: 'array', nullable: true, items: { type: 'object', properties: { id: { type: 'string', required: true, integerAsText: true } } } },
      },
    });
    const parse = (attributes: Record<string, unknown>) => parseResourcePayload(paging, doc(attributes, 'pagings'), 'create').attributes;

    test('an integer is taken as its decimal text, at the top and in an array of objects; text and null as sent', () => {
      assert.deepEqual(parse({ user_id: 42, targets: [{ id: 7 }, { id: 'abc' }] }), { user_id: '42', targets: [{ id: '7' }, { id: 'abc' }] });
      assert.deepEqual(parse({ user_id: '42' }), { user_id: '42' });
      assert.deepEqual(parse({ user_id: null }), { user_id: null });
    });

    test('what is not an integer, and a number where the declaration does not say so, are still 422s naming the member', () => {
      for (const [attributes, pointer] of [
        [{ user_id: 4.5 }, '/data/attributes/user_id'],
        [{ user_id: true }, '/data/attributes/user_id'],
        [{ targets: [{ id: 2 ** 53 }] }, '/data/attributes/targets/0/id'],
        [{ name: 42 }, '/data/attributes/name'],
      ] as const) {
        const error = failure(() => parse(attributes));
        assert.deepEqual(error.errors.map((e) => e.source?.pointer), [pointer], JSON.stringify(attributes));
      }
    });
  });

  describe('integers for booleans (integerAsBoolean), "" and null for unset members (blankAsUnset, nullAsUnset)', () => {
    const grouping = defineResource({
      type: 'groupings',
      singular: 'grouping',
      path: '/v1/groupings',
      readTable: 'groupings_read',
      defaultSort: 'created_at',
      operations: ['create'],
      attributes: {
        by_title: { type: 'boolean', integerAsBoolean: true },
        enabled: { type: 'boolean' },
        conditions: { type: 'array', items: { type: 'object', properties: { kind: { type: 'string', enum: ['A'], nullable: true, blankAsUnset: true }, name: { type: 'string' } } } },
        handoff: { type: 'object', properties: { day: { type: 'string', nullAsUnset: true }, time: { type: 'string' } } },
      },
    });
    const parse = (attributes: Record<string, unknown>) => parseResourcePayload(grouping, doc(attributes, 'groupings'), 'create').attributes;

    test('1 and 0 are true and false where declared; "" leaves a declared member out', () => {
      assert.deepEqual(parse({ by_title: 1 }), { by_title: true });
      assert.deepEqual(parse({ by_title: 0 }), { by_title: false });
      assert.deepEqual(parse({ by_title: true }), { by_title: true });
      assert.deepEqual(parse({ conditions: [{ kind: '', name: '' }, { kind: 'A' }] }), { conditions: [{ name: '' }, { kind: 'A' }] });
    });

    test('null leaves a member declared nullAsUnset out', () => {
      assert.deepEqual(parse({ handoff: { day: null, time: '10:00' } }), { handoff: { time: '10:00' } });
    });

    test('elsewhere they are still 422s naming the member', () => {
      for (const [attributes, pointer] of [
        [{ by_title: 2 }, '/data/attributes/by_title'],
        [{ enabled: 1 }, '/data/attributes/enabled'],
        [{ conditions: [{ kind: 'B' }] }, '/data/attributes/conditions/0/kind'],
        [{ handoff: { day: 'M', time: null } }, '/data/attributes/handoff/time'],
      ] as const) {
        const error = failure(() => parse(attributes));
        assert.deepEqual(error.errors.map((e) => e.source?.pointer), [pointer], JSON.stringify(attributes));
      }
    });
  });

  describe('defaults', () => {
    test('fills declared defaults of omitted writable attributes on create', () => {
      const { attributes } = parseResourcePayload(widgets(), doc({ name: 'x' }), 'create');
      expect(attributes).toEqual({ name: 'x', severity: 'medium', tags: [], uptime_days: 60 });
    });

    test('keeps submitted values, null included, over defaults', () => {
      const { attributes } = parseResourcePayload(widgets(), doc({ name: 'x', severity: 'low', uptime_days: null }), 'create');
      assert.equal(attributes.severity, 'low');
      assert.equal(attributes.uptime_days, null);
    });

    test('fills no defaults on update', () => {
      assert.deepEqual(parseResourcePayload(widgets(), doc({ name: 'x' }), 'update').attributes, { name: 'x' });
    });

    test('hands out a copy of an object default, never the declaration itself', () => {
      const schema = widgets();
      const first = parseResourcePayload(schema, doc({ name: 'x' }), 'create').attributes.tags as string[];
      first.push('mutated');
      expect(parseResourcePayload(schema, doc({ name: 'y' }), 'create').attributes.tags).toEqual([]);
    });
  });

  describe('input-only attributes (inputOnlyAttributes)', () => {
    const tickets = () =>
      defineResource({
        type: 'tickets',
        singular: 'ticket',
        path: '/v1/tickets',
        readTable: 'tickets_read',
        defaultSort: 'created_at',
        operations: ['create', 'update'],
        attributes: { name: { type: 'string', required: true } },
        inputOnlyAttributes: { request_id: { type: 'string', minLength: 1, maxLength: 8 } },
      });

    test('accepted on create and update and returned with the attributes', () => {
      assert.deepEqual(parseResourcePayload(tickets(), doc({ name: 'x', request_id: 'r1' }, 'tickets'), 'create').attributes, { name: 'x', request_id: 'r1' });
      assert.deepEqual(parseResourcePayload(tickets(), doc({ request_id: 'r2' }, 'tickets'), 'update').attributes, { request_id: 'r2' });
    });

    test('validated as declared: a 422 names the member, with the other problems', () => {
      for (const request_id of ['', 'x'.repeat(9), 42, null]) {
        const error = failure(() => parseResourcePayload(tickets(), doc({ request_id }, 'tickets'), 'create'));
        assert.deepEqual(
          error.errors.map((e) => e.source?.pointer).sort(),
          ['/data/attributes/name', '/data/attributes/request_id'],
          JSON.stringify(request_id),
        );
      }
    });

    test('in the request schemas, never in the answer', () => {
      for (const mode of ['create', 'update'] as const) assert.ok('request_id' in (attributesSchema(tickets(), mode).properties as object), mode);
      assert.ok(!('request_id' in (attributesSchema(tickets(), 'output').properties as object)));
    });

    test('a declaration that would store, list or hide one, or that shadows an attribute, is refused', () => {
      const declare = (name: string, def: AttributeDef) => () => defineResource({ ...tickets(), inputOnlyAttributes: { [name]: def } });
      assert.throws(declare('name', { type: 'string' }), /input-only attribute name hides an attribute/);
      assert.throws(declare('created_at', { type: 'string' }), /hides an attribute/);
      for (const def of [{ default: 'x' }, { filter: true }, { sortable: true }, { column: 'c' }, { sensitive: 'write-only' as const }]) {
        assert.throws(declare('request_id', { type: 'string', ...def }), /is never stored/, JSON.stringify(def));
      }
    });
  });

  describe('parseOperationPayload (an operation\'s optional body)', () => {
    const resolve = defineResource({ ...widgets(), attributes: { message: { type: 'string', nullable: true, maxLength: 5 } } });
    const assign = defineResource({ ...widgets(), attributes: { user_id: { type: 'string', required: true } } });
    const status = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as JsonApiError).status;
      }
      return 'accepted';
    };

    test('no body, or a document without attributes where none is required, asks nothing', () => {
      assert.deepEqual(parseOperationPayload(resolve, undefined), {});
      assert.deepEqual(parseOperationPayload(resolve, null), {});
      assert.deepEqual(parseOperationPayload(resolve, { data: { type: 'widgets' } }), {});
      assert.deepEqual(parseOperationPayload(resolve, { data: { type: 'widgets', attributes: { message: 'ok' } } }), { message: 'ok' });
    });

    test('any other body is checked as a document of the schema', () => {
      assert.equal(status(() => parseOperationPayload(resolve, 42)), 400);
      assert.equal(status(() => parseOperationPayload(resolve, { data: null })), 400);
      assert.equal(status(() => parseOperationPayload(resolve, { data: { type: 'gadgets', attributes: {} } })), 422);
      assert.equal(status(() => parseOperationPayload(resolve, { data: { type: 'widgets', attributes: { message: 'too long' } } })), 422);
      assert.equal(status(() => parseOperationPayload(resolve, { data: { type: 'widgets', attributes: { other: 1 } } })), 422);
      assert.equal(status(() => parseOperationPayload(assign, { data: { type: 'widgets' } })), 422, 'a required attribute needs its attributes');
    });
  });
});
