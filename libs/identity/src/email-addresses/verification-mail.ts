import { escapeHtml, type OutgoingMail } from '@taproot/mail';
import { VERIFICATION_TOKEN_TTL_MS } from './email-verification';

/** The header naming the address a verification mail is for, so a bounce leads back to its record. */
export const EMAIL_ADDRESS_ID_HEADER = 'X-Taproot-Email-Address-Id';

export interface VerificationMailInput {
  /** The address to verify, where the mail goes. */
  email: string;
  emailAddressId: string;
  /** The token minted for this mail (issueEmailVerificationToken). */
  token: string;
  /** The API's public base URL (`PUBLIC_URL`), without a trailing slash. */
  publicUrl: string;
}

/** `POST` this with a bearer token of the user (or of an administrator) to verify the address. */
export function verifyUrlOf({ publicUrl, emailAddressId, token }: Pick<VerificationMailInput, 'publicUrl' | 'emailAddressId' | 'token'>): string {
  return `${publicUrl}/v1/email_addresses/${encodeURIComponent(emailAddressId)}/verify?token=${encodeURIComponent(token)}`;
}

/**
 * The verification mail of an address. Verifying is the API's `POST
 * /v1/email_addresses/{id}/verify?token=` (the reference's verifyUserEmailAddress), which needs the
 * caller's bearer token: a link opened in a browser is a GET and verifies nothing, so the mail gives
 * the request to send (with curl) rather than a button. The token works once, for 24 hours.
 */
export function verificationMail(input: VerificationMailInput): OutgoingMail {
  const verifyUrl = verifyUrlOf(input);
  const resendUrl = `${input.publicUrl}/v1/email_addresses/${encodeURIComponent(input.emailAddressId)}/resend_verification`;
  const hours = Math.round(VERIFICATION_TOKEN_TTL_MS / 3_600_000);
  const curl = `curl -X POST -H 'Authorization: Bearer <your API key>' '${verifyUrl}'`;
  const text = [
    `${input.email} was added to a Taproot user as an address to be notified at.`,
    '',
    `To verify it, send this request to the Taproot API within ${hours} hours, with a bearer token`,
    "of that user (a personal API key or an OAuth access token) or of an administrator:",
    '',
    `  POST ${verifyUrl}`,
    '',
    `  ${curl}`,
    '',
    'Opening the link in a browser does not verify the address: verifying is a POST. The token works once;',
    `when it has expired, POST ${resendUrl} asks for a new mail.`,
    '',
    'If you did not expect this mail, ignore it: the address stays unverified.',
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body>',
    `<p><strong>${escapeHtml(input.email)}</strong> was added to a Taproot user as an address to be notified at.</p>`,
    `<p>To verify it, send this request to the Taproot API within ${hours} hours, with a bearer token of that user (a personal API key or an OAuth access token) or of an administrator:</p>`,
    `<pre>POST ${escapeHtml(verifyUrl)}</pre>`,
    `<pre>${escapeHtml(curl)}</pre>`,
    `<p>Opening the link in a browser does not verify the address: verifying is a POST. The token works once; when it has expired, <code>POST ${escapeHtml(resendUrl)}</code> asks for a new mail.</p>`,
    '<p>If you did not expect this mail, ignore it: the address stays unverified.</p>',
    '</body></html>',
  ].join('\n');
  return { to: input.email, subject: `[Taproot] Verify your e-mail address ${input.email}`, text, html, headers: { [EMAIL_ADDRESS_ID_HEADER]: input.emailAddressId } };
}
