import 'reflect-metadata';
import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JsonApiError } from '@taproot/json-api';
import type { Principal } from '../principal/principal';
import { PermissionGuard } from './permission.guard';
import { FULL_ACCESS, permissionSet, type PermissionSet } from './permission-set';
import { RequirePermission } from './require-permission';

class Routes {
  @RequirePermission('services', 'create')
  create() {}
  open() {}
}

@RequirePermission('severities', 'read')
class ClassLevel {
  list() {}
  @RequirePermission('severities', 'delete')
  remove() {}
}

const principal: Principal = { organizationId: 'o', userId: null, apiKeyId: 'k', kind: 'global' };

function run(permissions: PermissionSet, cls: new () => object, method: string, who: Principal | null = principal) {
  const request: Record<string, unknown> = { caller: who ? { ...who, permissions } : undefined };
  const context = {
    getHandler: () => (cls.prototype as Record<string, unknown>)[method],
    getClass: () => cls,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { result: new PermissionGuard(new Reflector()).canActivate(context), request };
}

async function refusal(promise: Promise<boolean>): Promise<JsonApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof JsonApiError);
    return error;
  }
  assert.fail('expected a 403');
}

describe('PermissionGuard', () => {
  test('routes without @RequirePermission pass', async () => {
    assert.equal(await run(permissionSet({}), Routes, 'open').result, true);
  });

  test("a permission among the caller's (resolved once by the bearer guard) passes", async () => {
    assert.equal(await run(permissionSet({ services: ['create'] }), Routes, 'create').result, true);
    assert.equal(await run(FULL_ACCESS, Routes, 'create').result, true);
  });

  test('a missing permission answers 403 with an errors list naming action, family and grants', async () => {
    const error = await refusal(run(permissionSet({ services: ['read'] }), Routes, 'create').result);
    assert.equal(error.status, 403);
    assert.equal(error.errors.length, 1);
    assert.deepEqual(
      { title: error.errors[0].title, status: error.errors[0].status, code: error.errors[0].code },
      { title: 'Forbidden', status: '403', code: 'PERMISSION_DENIED' },
    );
    assert.match(error.errors[0].detail ?? '', /may not create services: its role grants read on services/);
  });

  test('the method overrides the class; the class applies to the other methods', async () => {
    const readOnly = permissionSet({ severities: ['read'] });
    assert.equal(await run(readOnly, ClassLevel, 'list').result, true);
    const error = await refusal(run(readOnly, ClassLevel, 'remove').result);
    assert.match(error.errors[0].detail ?? '', /may not delete severities/);
  });

  test('a route asking for a permission without a caller is refused', async () => {
    const error = await refusal(run(FULL_ACCESS, Routes, 'create', null).result);
    assert.equal(error.status, 403);
  });
});
