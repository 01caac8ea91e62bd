import { randomInt } from 'node:crypto';
import { unique as named } from '../test/support/json-api';
import { CATALOG_KNOWN_STRICTER, describeReferenceConformance, INT4, made, STRICTER } from './support/reference-conformance';

/** The reference conformance of live call routers (docs/live-call-routers.md). */

describeReferenceConformance({
  type: 'live_call_routers',
  path: '/v1/live_call_routers',
  singular: 'live_call_router',
  // The urgencies and targets a router names are records of the organization.
  references: async (api, org) => {
    const urgency = await made(api, org, '/v1/alert_urgencies', 'alert_urgencies', { name: named('Urgency'), description: 'conformance' });
    const service = await made(api, org, '/v1/services', 'services', { name: named('Service') });
    // `direct_target` is no attribute: the pick below reads it.
    return { alert_urgency_id: urgency, paging_targets: [{ id: service, type: 'service', alert_urgency_id: urgency }], direct_target: service };
  },
  pick: (name, _schema, variant, references) => {
    // Each router has a number of its own, in E.164.
    if (name === 'phone_number') return `+1415${String(randomInt(10_000_000)).padStart(7, '0')}`;
    // The reference's create spells the type `service`, its update `Service`; Taproot takes both and answers what was written.
    if (name === 'escalation_policy_trigger_params') return { id: references.direct_target, type: variant === 'create' ? 'service' : 'Service' };
    return undefined;
  },
  createOnly: ['phone_number'],
  // Created as `service` (the reference's create), answered `Service` (its answer).
  answeredAs: { escalation_policy_trigger_params: (sent) => ({ ...(sent as object), type: 'Service' }) },
  knownStricter: {
    ...CATALOG_KNOWN_STRICTER,
    ...STRICTER('phone_number', 'an E.164 number'),
    ...STRICTER('alert_urgency_id', 'an alert urgency of the organization'),
    ...INT4('sent_to_voicemail_delay'),
    ...INT4('escalation_level_delay_in_seconds'),
    'sent_to_voicemail_delay=-1': 'seconds: at least 0',
    'escalation_level_delay_in_seconds=-1': 'seconds: at least 0',
    'escalation_policy_trigger_params={...,extra_member}': 'names a record of the organization; the generated sample names none',
    'paging_targets=[{...,extra_member}]': 'each names a record of the organization; the generated sample names none',
  },
});
