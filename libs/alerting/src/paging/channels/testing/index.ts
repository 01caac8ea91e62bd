/** Test doubles that speak the real protocols (SMTP, Twilio's REST API) and test helpers; for tests only. */
// The SMTP server is @taproot/mail's (identity's tests use it too); re-exported for the paging tests.
export { SmtpSink, type ReceivedMail, type SmtpSinkOptions } from '@taproot/mail/testing';
export { FakeTwilio, type FakeTwilioOptions, type TwilioRequest } from './fake-twilio';
export { channelFailureOf, OpenResources, outgoingNotification } from './channel-test-kit';
