import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { itemTypeOf, referenceItemType } from './audit-log.projection';

describe('audit item types', () => {
  test('are the PascalCase singular of the event, never a guessed singular of a plural', () => {
    assert.equal(itemTypeOf('service.created'), 'Service');
    assert.equal(itemTypeOf('severity.updated'), 'Severity');
    assert.equal(itemTypeOf('api_key.deleted'), 'ApiKey');
    assert.equal(itemTypeOf('group.created'), 'Group');
    assert.equal(itemTypeOf('incident.mitigated'), 'Incident');
    assert.equal(itemTypeOf('sub_status.created'), 'SubStatus');
    assert.equal(itemTypeOf('incident_sub_status.updated'), 'IncidentSubStatus');
  });

  test('are served as the reference enum names them, null for a kind it has no name for', () => {
    assert.equal(referenceItemType('Service'), 'Service');
    assert.equal(referenceItemType('AlertsSource'), 'Alerts::Source');
    assert.equal(referenceItemType('AlertUrgency'), null);
  });
});
