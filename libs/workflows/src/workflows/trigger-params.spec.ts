import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '@taproot/json-api';
import { checkedTriggerParams } from './trigger-params';

/** What the hosted API's Terraform provider sends for an alert trigger with most members unset. */
const providerAlertTrigger = () => ({
  trigger_type: 'alert',
  triggers: ['alert_created'],
  alert_condition: 'ALL',
  alert_condition_label: '',
  alert_condition_source: '',
  alert_payload_conditions: [],
  alert_field_conditions: [],
  alert_query_payload: '',
  alert_labels: [],
  custom: '',
});

describe('checkedTriggerParams', () => {
  test('drops exactly the unset single enumerated members ("") and the unset object members ([]), leaving its input as sent', () => {
    const sent = providerAlertTrigger();
    const checked = checkedTriggerParams(sent);
    // Lists ([] of alert_field_conditions, alert_labels) and free texts ("" of alert_query_payload, an undeclared member) are values.
    assert.deepEqual(checked, {
      trigger_type: 'alert',
      triggers: ['alert_created'],
      alert_condition: 'ALL',
      alert_field_conditions: [],
      alert_query_payload: '',
      alert_labels: [],
      custom: '',
    });
    assert.deepEqual(sent, providerAlertTrigger());
    assert.notEqual(checked, sent);
  });

  test('answers params with nothing unset as they are, and still refuses what no variant holds', () => {
    const sent = { trigger_type: 'incident', triggers: ['incident_created'], incident_condition: 'ANY', incident_statuses: [] };
    assert.deepEqual(checkedTriggerParams(sent), { trigger_type: 'incident', triggers: ['incident_created'], incident_condition: 'ANY', incident_statuses: [] });
    assert.throws(() => checkedTriggerParams({ trigger_type: 'alert', alert_condition: 'SOME' }), JsonApiError);
    assert.throws(() => checkedTriggerParams({ trigger_type: 'alert', alert_payload_conditions: ['x'] }), JsonApiError);
    assert.throws(() => checkedTriggerParams({ trigger_type: '' }), JsonApiError);
  });
});
