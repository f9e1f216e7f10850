/**
 * The browser of the page tests: Debian's Chromium driven by playwright-core (no browser of its
 * own is downloaded), in a fresh profile, with nothing reachable but the files it is given.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** The Chromium to drive: $CHROMIUM, else Debian's. */
export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `the page tests need Chromium at ${CHROMIUM}, which is missing: install it with 'apt-get update && apt-get install -y chromium' (.ci/run does), or point $CHROMIUM at one`,
    );
  // playwright-core takes the profile directory as launchPersistentContext's argument (it adds
  // --user-data-dir itself), and --headless with headless: true.
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'limited-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1000, height: 900 },
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
      '--disable-sync',
    ],
  });
}
