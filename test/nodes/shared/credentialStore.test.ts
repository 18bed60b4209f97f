import { ExecuteContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { PartnerPayrollN8nApi } from '../../../credentials/PartnerPayrollN8nApi.credentials';
import { bindToken, readCompanyRows } from '../../../credentials/partnerCompanies';
import { withCompany, withoutCompany } from '../../../nodes/shared/credentialStore';
import { runPartnerPayroll } from '../../support/fixtures';
import { testCredential } from '../../support/credential-tester';
import { startStubService, type StubRequest } from '../../support/stub-service';
import { FakeN8nApi, N8N_API_KEY } from '../PartnerPayrollConnectTrigger/connectHarness';

// What the package sends to n8n's public API when it writes the Partner API credential's list (Remove
// Company here; the connect link writes through the same function): to the address entered only, and
// nothing of the credential but the list and what n8n's schema check needs.

/** The id the test harness gives the node's Partner API credential. */
const PARTNER_ID = 'partnerPayrollPartnerApi-id';

const n8n = new FakeN8nApi();
/** A server that redirects every request to the fake n8n, as a moved or canonicalising address does. */
let redirecting: { url: string; close(): Promise<void> };
const redirected: StubRequest[] = [];
beforeAll(async () => {
	await n8n.start();
	redirecting = await startStubService((request) => {
		redirected.push(request);
		return { status: 307, headers: { Location: `${n8n.url}${request.path}` } };
	});
});
afterAll(async () => {
	await redirecting.close();
	await n8n.stop();
});

const row = (companyId: string) => ({
	companyId,
	label: `Client ${companyId}`,
	accessToken: bindToken(companyId, `token-of-${companyId}`),
});

/** The Partner API credential as stored in n8n: its Client ID and Secret kept as expressions. */
function storeCredential(): void {
	n8n.storePartnerCredential(PARTNER_ID, {
		baseUrl: 'https://api.payroll.example/v1',
		authServerUrl: 'https://auth.payroll.example/oauth',
		clientId: '={{ $env.PARTNER_CLIENT_ID }}',
		clientSecret: '={{ $secrets.vault.partnerSecret }}',
		companies: { company: [row('FR1001'), row('FR1002'), row('ES2001')] },
	});
	redirected.length = 0;
}

/** What n8n's getCredentials gives a node: the stored credential with its expressions resolved. */
function resolved(data: IDataObject): ICredentialDataDecryptedObject {
	return JSON.parse(
		JSON.stringify(data, (_key, value: unknown) =>
			typeof value === 'string' && value.startsWith('={{') ? `resolved ${value}` : value,
		),
	) as ICredentialDataDecryptedObject;
}

/** The node's credentials as n8n gives them: the Partner API credential read from the fake n8n at every call. */
function nodeCredentials(n8nUrl: string): Record<string, ICredentialDataDecryptedObject> {
	const credentials = { partnerPayrollN8nApi: { url: n8nUrl, apiKey: N8N_API_KEY } };
	Object.defineProperty(credentials, 'partnerPayrollPartnerApi', {
		enumerable: true,
		get: () => resolved(n8n.credentials.get(PARTNER_ID)!.data),
	});
	return credentials as unknown as Record<string, ICredentialDataDecryptedObject>;
}

async function removeCompany(companyId: string, n8nUrl: string): Promise<string | undefined> {
	return await runPartnerPayroll(
		{ resource: 'partnerCredential', operation: 'removeCompany', companyId },
		nodeCredentials(n8nUrl),
	).then(
		() => undefined,
		(error: Error) => error.message,
	);
}

beforeEach(storeCredential);

describe("requests to n8n's public API", () => {
	test('a redirect is not followed: the key and the list stay home, and the error names the address to enter (F3)', async () => {
		const before = JSON.stringify(n8n.credentials.get(PARTNER_ID));
		const error = await removeCompany('FR1002', redirecting.url);
		expect(error).toContain(`answered 307, a redirect to ${n8n.url}.`);
		expect(error).toContain(
			`enter ${n8n.url} as the n8n URL of the Partner Payroll n8n API credential`,
		);
		// The first request is the company list lock's (its table looked up): the list is never sent.
		expect(redirected.map((request) => request.method)).toEqual(['GET']);
		expect(n8n.requests).toEqual([]);
		expect(JSON.stringify(n8n.credentials.get(PARTNER_ID))).toBe(before);
	});

	test("the n8n API credential's Test follows no redirect either (F3)", async () => {
		const result = await testCredential(new PartnerPayrollN8nApi(), {
			url: redirecting.url,
			apiKey: N8N_API_KEY,
		});
		expect(result.status).toBe('Error');
		expect(redirected).toHaveLength(1);
		expect(n8n.requests).toEqual([]);
	});

	test('plain http:// to another host is warned about once per address; loopback is not (F3)', async () => {
		const warnings: string[] = [];
		// The node's logger (n8n-core's ExecuteContext.logger), as n8n's log would receive it.
		const logger = { warn: (message: string) => warnings.push(message), debug() {}, info() {} };
		jest.spyOn(ExecuteContext.prototype, 'logger', 'get').mockReturnValue(logger as never);
		try {
			// Not reachable: the warning comes before the request, which then fails.
			const remote = 'http://n8n.partner.invalid:5678';
			await removeCompany('FR1002', remote);
			await removeCompany('FR1002', `${remote}/`);
			await removeCompany('FR1002', n8n.url);
			expect(warnings).toEqual([
				expect.stringContaining(`(${remote}) is plain http:// to another host`),
			]);
			expect(warnings.join(' ')).not.toContain(N8N_API_KEY);
		} finally {
			jest.restoreAllMocks();
		}
	});
});

describe("the list written to n8n's public API", () => {
	test('a Client ID and Secret kept as expressions stay expressions; the list changes (F10)', async () => {
		expect(await removeCompany('FR1002', n8n.url)).toBeUndefined();
		const stored = n8n.credentials.get(PARTNER_ID)!.data;
		expect(stored.clientId).toBe('={{ $env.PARTNER_CLIENT_ID }}');
		expect(stored.clientSecret).toBe('={{ $secrets.vault.partnerSecret }}');
		expect((stored.companies as { company: IDataObject[] }).company).toEqual([
			row('FR1001'),
			row('ES2001'),
		]);
	});
});

/** What n8n's editor stores after deleting row `index` and saving: each masked token given back by position. */
function deletedInEditor<T extends { accessToken: string }>(rows: T[], index: number): T[] {
	return rows
		.filter((_, position) => position !== index)
		.map((kept, position) => ({ ...kept, accessToken: rows[position].accessToken }));
}

const companyIds = (count: number) =>
	Array.from({ length: count }, (_, index) => `FR${String(index + 1).padStart(4, '0')}`);

const storedCompanies = () =>
	(n8n.credentials.get(PARTNER_ID)!.data.companies as { company: IDataObject[] }).company;

describe('Partner Credential → Repair Company List', () => {
	test('300 rows, one deleted in the middle in the editor: every token back in its own row; the company whose token n8n dropped is named', async () => {
		const rows = companyIds(300).map(row);
		n8n.credentials.get(PARTNER_ID)!.data.companies = { company: deletedInEditor(rows, 149) };

		const [item] = await runPartnerPayroll(
			{ resource: 'partnerCredential', operation: 'repairCompanyList' },
			nodeCredentials(n8n.url),
		);

		expect(item.json).toEqual({
			companies: 299,
			connected: 298,
			movedBack: companyIds(299).slice(150),
			notConnected: [
				{
					companyId: 'FR0300',
					label: 'Client FR0300',
					problem: expect.stringContaining('entry 299 (FR0300, Client FR0300) has no Access Token'),
				},
			],
		});
		expect(storedCompanies()).toEqual([
			...rows.filter((_, index) => index !== 149 && index !== 299),
			{ ...row('FR0300'), accessToken: '' },
		]);
		expect(n8n.credentials.get(PARTNER_ID)!.data.clientSecret).toBe(
			'={{ $secrets.vault.partnerSecret }}',
		);
		expect(JSON.stringify(item.json)).not.toContain('token-of-');
	});
});

describe('the connect write and Remove Company after an edit in the editor', () => {
	const edited = deletedInEditor(companyIds(4).map(row), 1);

	test('connecting the dropped company again: its new token in its row, every other token back in its own row', () => {
		const reconnected = { companyId: 'FR0004', label: '', token: `new-${row('FR0004').label}` };
		const { rows, replaced } = withCompany(edited, reconnected);
		expect(replaced).toBe(true);
		expect(rows).toEqual([
			row('FR0001'),
			row('FR0003'),
			{ ...row('FR0004'), accessToken: bindToken('FR0004', reconnected.token) },
		]);
		expect(readCompanyRows({ companies: { company: rows } }).map((read) => read.problem)).toEqual([
			undefined,
			undefined,
			undefined,
		]);
	});

	test('removing a company takes its token out of whichever row held it', () => {
		const { rows } = withoutCompany(edited, 'FR0003');
		// FR0003's token sat in FR0004's row; FR0004's own token was dropped by n8n.
		expect(rows).toEqual([row('FR0001'), { ...row('FR0004'), accessToken: '' }]);
	});
});

describe('a write lost to another n8n process (F13)', () => {
	afterEach(() => {
		n8n.afterPatch = undefined;
	});

	test('another process writing the list once at the same moment: the change is made again on its list, and both are kept', async () => {
		// The other process connected ES2002 from the list as it read it before this change.
		const before = JSON.parse(JSON.stringify(n8n.credentials.get(PARTNER_ID)!.data)) as IDataObject;
		n8n.afterPatch = (id) => {
			n8n.afterPatch = undefined;
			const companies = (before.companies as { company: IDataObject[] }).company;
			n8n.credentials.get(id)!.data = {
				...before,
				companies: { company: [...companies, row('ES2002')] },
			} as ICredentialDataDecryptedObject;
		};
		expect(await removeCompany('FR1002', n8n.url)).toBeUndefined();
		expect(storedCompanies()).toEqual([row('FR1001'), row('ES2001'), row('ES2002')]);
		expect(n8n.requests.filter((request) => request.method === 'PATCH')).toHaveLength(2);
	});

	test('a writer without the lock (an edit in the editor) overwriting every write: reported after three, and the list is as that writer left it', async () => {
		const before = JSON.stringify(n8n.credentials.get(PARTNER_ID)!.data);
		n8n.afterPatch = (id) => {
			n8n.credentials.get(id)!.data = JSON.parse(before) as ICredentialDataDecryptedObject;
		};
		expect(await removeCompany('FR1002', n8n.url)).toContain(
			'saved 3 times, but read back without this change each time: something that takes no lock of this package',
		);
		expect(JSON.stringify(n8n.credentials.get(PARTNER_ID)!.data)).toBe(before);
	});
});
