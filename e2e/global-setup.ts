import { mkdirSync } from 'node:fs';
import { chromium, type FullConfig } from '@playwright/test';
import { ACCOUNTS, ADMIN_STATE, signIn } from './fixtures';

/** Signs the administrator in once; most journeys start from that session. */
export default async function globalSetup(config: FullConfig) {
  const project = config.projects[0]!;
  const browser = await chromium.launch(project.use.launchOptions);
  const page = await browser.newPage({ baseURL: project.use.baseURL, locale: 'es-CL' });
  await signIn(page, ACCOUNTS.admin);
  mkdirSync('.tmp', { recursive: true });
  await page.context().storageState({ path: ADMIN_STATE });
  await browser.close();
}
