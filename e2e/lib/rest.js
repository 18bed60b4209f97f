'use strict';
// The editor's internal REST API (/rest), as the browser uses it: cookie session after login.
// It is not a stable API; keep every call to it in this file.

const OWNER = Object.freeze({
	email: 'owner@partner-payroll.example',
	firstName: 'Local',
	lastName: 'Owner',
	password: 'PartnerPayroll-Demo1',
});

class N8nRestError extends Error {
	constructor(method, path, status, body) {
		super(`${method} ${path} answered ${status}: ${String(body).slice(0, 500)}`);
		this.status = status;
		this.body = body;
	}
}

class N8nRest {
	constructor(baseUrl) {
		this.baseUrl = baseUrl;
		this.cookie = null;
	}

	async request(method, path, body) {
		const headers = { 'browser-id': 'e2e-browser' };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (this.cookie) headers.cookie = this.cookie;
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			redirect: 'manual',
		});
		this.keepAuthCookie(response);
		const text = await response.text();
		if (!response.ok) throw new N8nRestError(method, path, response.status, text);
		const json = text ? JSON.parse(text) : {};
		return json.data ?? json;
	}

	keepAuthCookie(response) {
		for (const cookie of response.headers.getSetCookie()) {
			const pair = cookie.split(';')[0];
			if (pair.startsWith('n8n-auth=')) this.cookie = pair;
		}
	}

	/** Whether the instance still waits for its owner account. */
	async needsOwnerSetup() {
		const settings = await this.request('GET', '/rest/settings');
		return settings.userManagement?.showSetupOnFirstLoad === true;
	}

	/** Create the owner account when missing, then log in as the owner. */
	async ensureOwner(owner = OWNER) {
		if (await this.needsOwnerSetup()) await this.request('POST', '/rest/owner/setup', owner);
		await this.login(owner);
		return owner;
	}

	async login({ email, password } = OWNER) {
		return this.request('POST', '/rest/login', { emailOrLdapLoginId: email, password });
	}

	async createCredential({ name, type, data }) {
		return this.request('POST', '/rest/credentials', { name, type, data });
	}

	async nodeTypes() {
		return this.request('GET', '/types/nodes.json');
	}

	async credentialTypes() {
		return this.request('GET', '/types/credentials.json');
	}
}

module.exports = { N8nRest, N8nRestError, OWNER };
