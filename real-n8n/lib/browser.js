'use strict';
// Headless Debian chromium driven by playwright-core (no browser download: the system one is used).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
	'--disable-dev-shm-usage',
];

/** A persistent context in a temporary profile; `close()` also removes the profile. */
async function launchBrowser() {
	const { chromium } = require('playwright-core');
	if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-e2e-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_FLAGS,
		viewport: { width: 1440, height: 900 },
	});
	return {
		context,
		async close() {
			await context.close();
			fs.rmSync(profile, { recursive: true, force: true });
		},
	};
}

/** Log in through the editor's sign-in page, as a person does. */
async function signIn(page, baseUrl, { email, password }) {
	await page.goto(`${baseUrl}/signin`);
	await page.locator('input[name="emailOrLdapLoginId"], input[name="email"]').first().fill(email);
	await page.locator('input[name="password"]').fill(password);
	await page.locator('input[name="password"]').press('Enter');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 });
}

module.exports = { launchBrowser, signIn, CHROMIUM };
