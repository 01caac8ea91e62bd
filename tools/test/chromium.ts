/**
 * Headless Chromium for the browser tests, the files named *browser.e2e-spec.ts (the auth pages',
 * apps/auth/test/browser.e2e-spec.ts, and the public status page's,
 * apps/api/test/status-page-browser.e2e-spec.ts): Debian's `chromium` package, installed when
 * missing (tools/test/debian-binary.ts). tools/test/run.ts ensures it once and hands the path to
 * the tests as CHROMIUM_BIN.
 */
import type { TestBinary } from './debian-binary';

export const CHROMIUM: TestBinary = {
  test: 'browser.e2e-spec.ts',
  label: 'chromium',
  package: 'chromium',
  names: ['chromium', 'chromium-browser'],
  paths: ['/usr/bin/chromium'],
  envVar: 'CHROMIUM_BIN',
  versionArgs: ['--version'],
};
