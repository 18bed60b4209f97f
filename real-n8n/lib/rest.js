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

	/** Replaces a credential's name and data, as the editor saves it (n8n 2.8.4 wants the whole data). */
	async updateCredential({ id, name, type, data }) {
		return this.request('PATCH', `/rest/credentials/${encodeURIComponent(id)}`, { id, name, type, data });
	}

	/** Saves a new workflow as the editor's Save does, with n8n's checks on saving. */
	async createWorkflow({ name, nodes, connections, settings }) {
		return this.request('POST', '/rest/workflows', { name, nodes, connections, settings, active: false });
	}

	/**
	 * A public-API key of the signed-in user that never expires, with `scopes`, by default every scope the
	 * instance offers that user. n8n 2.40.7 grants the scopes asked; n8n 2.8.4 without a licence for scoped
	 * keys grants every scope of the user's role instead. `label` must be new among the user's keys. Never
	 * log the key.
	 */
	async createApiKey(label = 'e2e', { scopes } = {}) {
		const granted = scopes ?? (await this.request('GET', '/rest/api-keys/scopes'));
		const created = await this.request('POST', '/rest/api-keys', { label, scopes: granted, expiresAt: null });
		return created.rawApiKey;
	}

	/** Deletes the signed-in user's API keys labelled exactly `label` (n8n lets a user have one per label). */
	async deleteApiKeysLabelled(label) {
		// n8n 2.8.4 answers a list; 2.40.7 a page `{items, ...}`, here narrowed to the user's keys whose label
		// holds `label`.
		const answer = await this.request('GET', `/rest/api-keys?${new URLSearchParams({ ownership: 'mine', label })}`);
		const keys = Array.isArray(answer) ? answer : answer.items;
		for (const key of keys.filter((candidate) => candidate.label === label)) {
			await this.request('DELETE', `/rest/api-keys/${encodeURIComponent(key.id)}`);
		}
	}

	/**
	 * Retries a failed execution as the editor's "Retry with original workflow" does (`loadWorkflow`: "with
	 * currently saved workflow"): a new execution from the node that failed. n8n answers once it has ended.
	 */
	async retryExecution(id, { loadWorkflow = false } = {}) {
		return this.request('POST', `/rest/executions/${encodeURIComponent(id)}/retry`, { loadWorkflow });
	}

	/** The bytes of a stored binary data id, as the editor downloads them (whatever the storage mode). */
	async binaryData(id) {
		const response = await fetch(`${this.baseUrl}/rest/binary-data?id=${encodeURIComponent(id)}&action=download`, {
			headers: { cookie: this.cookie, 'browser-id': 'e2e-browser' },
		});
		if (!response.ok) throw new N8nRestError('GET', '/rest/binary-data', response.status, await response.text());
		return Buffer.from(await response.arrayBuffer());
	}

	async nodeTypes() {
		return this.request('GET', '/types/nodes.json');
	}

	async credentialTypes() {
		return this.request('GET', '/types/credentials.json');
	}
}

/**
 * n8n's public API (/api/v1) with an API key: the executions of a workflow, with their run data.
 * `executionIds(workflowId)`, when given, says which executions exist (newest first) instead of the
 * API's list: in queue mode that list leaves out every execution the main still counts as running,
 * and n8n 2.40.7's main sometimes never hears that a worker finished a job (measured: the first job
 * of a loaded cluster, finished on the worker and saved as a success, stayed "active" on the main
 * until it stopped).
 */
class N8nPublicApi {
	constructor(baseUrl, apiKey, { executionIds } = {}) {
		this.baseUrl = baseUrl;
		this.apiKey = apiKey;
		this.executionIds = executionIds;
	}

	async get(path) {
		const response = await fetch(`${this.baseUrl}/api/v1${path}`, { headers: { 'X-N8N-API-KEY': this.apiKey } });
		const text = await response.text();
		if (!response.ok) throw new N8nRestError('GET', `/api/v1${path}`, response.status, text);
		return JSON.parse(text);
	}

	/** Whether n8n's public API accepts the key (false for a deleted or expired one; throws when the API is off). */
	async acceptsKey() {
		const response = await fetch(`${this.baseUrl}/api/v1/credentials?limit=1`, { headers: { 'X-N8N-API-KEY': this.apiKey } });
		await response.arrayBuffer();
		if (response.ok) return true;
		if (response.status === 401 || response.status === 403) return false;
		throw new N8nRestError('GET', '/api/v1/credentials', response.status, 'n8n\'s public API is off or failing');
	}

	/** One execution, with run data when `includeData`. */
	async execution(id, { includeData = true } = {}) {
		return this.get(`/executions/${encodeURIComponent(id)}?includeData=${includeData}`);
	}

	/** Every execution of `workflowId` (newest first), with run data when `includeData`. */
	async executions(workflowId, { includeData = true } = {}) {
		if (this.executionIds) {
			const ids = await this.executionIds(workflowId);
			return Promise.all(ids.map((id) => this.execution(id, { includeData })));
		}
		const all = [];
		let cursor;
		do {
			const query = new URLSearchParams({ workflowId, includeData: String(includeData), limit: '100' });
			if (cursor) query.set('cursor', cursor);
			const page = await this.get(`/executions?${query}`);
			all.push(...page.data);
			cursor = page.nextCursor;
		} while (cursor);
		return all;
	}

	/**
	 * Every execution of `workflowId` (newest first, with run data) once there are at least `count`
	 * and all have finished; throws after `timeoutMs`.
	 */
	async finishedExecutions(workflowId, count, timeoutMs = 120_000) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const found = await this.executions(workflowId);
			if (found.length >= count && found.every((execution) => execution.stoppedAt)) return found;
			if (Date.now() > deadline) {
				throw new Error(`expected ${count} finished execution(s) of ${workflowId} within ${timeoutMs} ms, found ${found.length}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 1_000));
		}
	}
}

module.exports = { N8nRest, N8nRestError, N8nPublicApi, OWNER };
