/** A real SMTP server for tests (`@taproot/mail/testing`); never imported by production code. */
export { SmtpSink, type ReceivedMail, type SmtpSinkOptions } from './smtp-sink.fixture';
