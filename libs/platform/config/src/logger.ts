import pino, { type Logger } from 'pino';

/**
 * A URL path segment shaped like a secret Taproot puts in URLs (`tcal_` and 43 base64url
 * characters: a calendar feed's token), with what follows it in the segment (`.ics`).
 */
const SECRET_SEGMENT = /\/([a-z]{2,8}_)[A-Za-z0-9_-]{32,}(?=[./?#]|$)/g;

/**
 * A query parameter that carries a secret: `token` (an e-mail verification's, a one-click
 * acknowledge link's), `secret` (an alert source's, from senders that cannot sign: it is also the
 * source's PagerDuty routing key).
 */
const SECRET_QUERY = /([?&](?:token|secret)=)[^&#]*/gi;

/** The URL as logged: secrets in its path and query replaced, so a feed's address or a link's token never reaches the logs. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_SEGMENT, '/$1[redacted]').replace(SECRET_QUERY, '$1[redacted]');
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * The one structured logger (pino). Secrets never reach it: authorization headers and
 * anything named like a token, key or password are redacted at the source.
 */
export function createLogger(level: string, name = 'taproot', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    // Fastify's request serializer, with the URL redacted.
    serializers: {
      req: (req: LoggedRequest) => ({ method: req.method, url: req.url === undefined ? undefined : redactUrl(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort }),
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.token',
        '*.api_key',
        '*.password',
        '*.secret',
        // A PagerDuty event's routing key is an alert source's secret.
        '*.routing_key',
        'routing_key',
        'token',
        'apiKey',
        'password',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
