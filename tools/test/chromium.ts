/**
 * Headless Chromium for the browser test (apps/auth/test/browser.e2e-spec.ts): Debian's
 * `chromium` package, installed when missing (tools/test/debian-binary.ts). tools/test/run.ts
 * calls `ensureChromium` once and hands the path to the test as CHROMIUM_BIN.
 */
import { ensureDebianBinary, type Log } from './debian-binary';

/** The test file that needs the browser (run.ts installs only when it is selected). */
export const CHROMIUM_TEST = 'browser.e2e-spec.ts';

const defaultLog: Log = (line) => process.stderr.write(`[chromium] ${line}\n`);

export function ensureChromium(log: Log = defaultLog): string | null {
  return ensureDebianBinary(
    { package: 'chromium', names: ['chromium', 'chromium-browser'], paths: ['/usr/bin/chromium'], envVar: 'CHROMIUM_BIN', versionArgs: ['--version'] },
    log,
  );
}
