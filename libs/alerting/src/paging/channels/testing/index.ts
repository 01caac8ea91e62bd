/** Test doubles that speak the real protocols (SMTP, Twilio's REST API) and test helpers; for tests only. */
export { SmtpSink, type ReceivedMail, type SmtpSinkOptions } from './smtp-sink.fixture';
export { FakeTwilio, type FakeTwilioOptions, type TwilioRequest } from './fake-twilio';
export { channelFailureOf, OpenResources, outgoingNotification } from './channel-test-kit';
