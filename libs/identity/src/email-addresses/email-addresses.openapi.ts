import { documentContent, errorsResponse } from '@taproot/json-api';

const id = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };

/** An e-mail address' verification routes (reference: verifyUserEmailAddress, resendUserEmailAddressVerification). */
const verification = (operationId: string, summary: string, description: string, ok: string, refused: string, parameters: unknown[] = []) => ({
  parameters: [id],
  post: {
    operationId,
    summary,
    description,
    tags: ['UserEmailAddresses'],
    parameters,
    responses: {
      '200': { description: ok, ...documentContent('user_email_address_response') },
      '401': errorsResponse('unauthorized'),
      '403': errorsResponse("another user's address, without update on members"),
      '404': errorsResponse('email address not found'),
      '422': errorsResponse(refused),
    },
  },
});

export const EMAIL_VERIFICATION_PATHS = {
  '/v1/email_addresses/{id}/verify': verification(
    'verifyUserEmailAddress',
    'Verifies an email address with token',
    'Verifies an email address using the token its verification mail carried (single use, valid for 24 hours)',
    'email address verified successfully',
    'invalid, used or expired token',
    [{ in: 'query', name: 'token', required: true, schema: { type: 'string' } }],
  ),
  '/v1/email_addresses/{id}/resend_verification': verification(
    'resendUserEmailAddressVerification',
    'Resends verification email',
    "Asks for a new verification mail for an email address; the address' earlier tokens stop working",
    'verification email requested',
    'email address already verified',
  ),
};
