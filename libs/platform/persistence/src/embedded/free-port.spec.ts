import { expect, test } from '@jest/globals';
import { createServer } from 'node:net';
import { freePort } from './free-port';

test('free ports lie below the ephemeral range, are never handed out twice, and can be listened on', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 200; i++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(ports.length);
  for (const port of ports) expect(port >= 20_000 && port < 32_768).toBe(true);
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(ports[0], '127.0.0.1', resolve));
  await new Promise((resolve) => server.close(resolve));
});
