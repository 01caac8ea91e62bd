export { escapeHtml, isMailbox, MailFailure, Mailer, type MailerOptions, type OutgoingMail, type SentMail } from './mailer';
