/**
 * Issue 14: Taproot's SCIM 2.0 server driven by an independent SCIM client library, python-scim's
 * scim2-client (tools/scim). scim_client_check.py discovers the server, builds its resource
 * models from the served schemas, then creates, queries, replaces, patches, pages and deletes
 * Users and Groups, and reads the server's errors as SCIM errors; every step must succeed.
 * tools/scim/README.md.
 */
import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { issueScimToken } from '@taproot/identity';
import { startTestApi, type TestApi } from '../../apps/api/src/testing';
import { installScimClient, runScimClientCheck, type ScimReport, type ScimStep } from './scim-client';

function describeStep(step: ScimStep): string {
  const lines = [`${step.step}: ${step.error}`];
  if (step.scim_error) lines.push(`    SCIM error: ${JSON.stringify(step.scim_error)}`);
  for (const note of step.notes ?? []) lines.push(`    ${note.replace(/\n/g, '\n    ')}`);
  if (step.trace) lines.push(`    at ${step.trace}`);
  return lines.join('\n');
}

describe("python-scim's scim2-client against /scim/v2", () => {
  let api: TestApi | undefined;
  let report: ScimReport;

  before(async () => {
    const python = await installScimClient();
    api = await startTestApi();
    const { organizationId } = await api.newOrganization();
    // What `taproot scim token --org <id>` calls (tools/scripts/taproot.ts).
    const token = await issueScimToken(api.runtime.dataSource, organizationId);
    report = await runScimClientCheck({ python, baseUrl: api.url, token });
  }, 900_000);

  after(async () => {
    await api?.close();
  });

  test('every step of the scenario succeeds, its answers parsed by the client', () => {
    assert.ok(report.steps.length > 0, 'the check ran no step');
    const failing = report.steps.filter((s) => !s.ok);
    assert.equal(failing.length, 0, `${failing.length} of ${report.steps.length} steps failed:\n\n${failing.map(describeStep).join('\n\n')}`);
  });
});
