import { spawn } from 'node:child_process';
import { join } from 'node:path';

// Jest runs from the workspace root (jest.config.mjs); ES modules have no `__dirname`.
export const root = process.cwd();
export const script = (name: string) => [process.execPath, ['-r', join(root, 'tools/register.js'), join(root, 'tools/scripts', name)]] as const;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run --silent taproot -- <args>` as an operator runs it. */
export function taproot(args: string[], env: Record<string, string>): Promise<Ran> {
  const [cmd, base] = script('taproot.ts');
  const child = spawn(cmd, [...base, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })));
}
