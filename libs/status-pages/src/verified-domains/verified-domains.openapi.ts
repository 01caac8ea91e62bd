import { documentContent, errorsResponse } from '@taproot/json-api';

/** The verified domains' action in `/v1/openapi.json` (Taproot's own: the hosted API checks in the background). */
export const VERIFIED_DOMAINS_OPENAPI = {
  paths: {
    '/v1/verified_domains/{id}/verify': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
      post: {
        operationId: 'verifyVerifiedDomain',
        summary: "Checks a verified domain's DNS TXT challenge",
        description:
          'Looks up the TXT records of txt_host: one holding txt_value makes the domain verified; otherwise a domain never verified stays pending and a verified one becomes failing. Answers the domain either way.',
        tags: ['VerifiedDomains'],
        responses: {
          '200': { description: 'verified_domain checked', ...documentContent('verified_domain_response') },
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not update status pages'),
          '404': errorsResponse('resource not found'),
        },
      },
    },
  },
};
