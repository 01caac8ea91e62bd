import pino, { type Logger } from 'pino';

/**
 * The one structured logger (pino). Secrets never reach it: authorization headers and
 * anything named like a token, key or password are redacted at the source.
 */
export function createLogger(level: string, name = 'taproot'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        '*.token',
        '*.api_key',
        '*.password',
        '*.secret',
        'token',
        'apiKey',
        'password',
      ],
      censor: '[redacted]',
    },
  });
}

export type { Logger };
