import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { PartnerPayrollPartnerApi } from '../../credentials/PartnerPayrollPartnerApi.credentials';
import { COMPANY_HINT_HEADER } from '../../credentials/companyRequests';
import { bindToken, readCompanyIndex, readCompanyRows } from '../../credentials/partnerCompanies';

const credential = new PartnerPayrollPartnerApi();
const API = 'https://api.payroll.example/v1';
const AUTH = 'https://auth.payroll.example/oauth';

type Row = { companyId: string; label: string; accessToken: string };

const row = (companyId: string, label = `Client ${companyId}`): Row => ({
	companyId,
	label,
	accessToken: bindToken(companyId, `token-of-${companyId}`),
});

function credentialsWith(rows: Row[]): ICredentialDataDecryptedObject {
	return {
		baseUrl: API,
		authServerUrl: AUTH,
		clientId: 'partner-app',
		clientSecret: 's3cret',
		companies: { company: rows },
	};
}

/**
 * What n8n's editor stores after a row is deleted and the credential saved: the companies and labels
 * as shown, and each masked token given back from the row that stood at the same position before.
 */
function deletedInEditor(rows: Row[], index: number): Row[] {
	return rows
		.filter((_, position) => position !== index)
		.map((kept, position) => ({ ...kept, accessToken: rows[position].accessToken }));
}

function request(
	companyId: string | undefined,
	url: string,
	extra: Partial<IHttpRequestOptions> = {},
): IHttpRequestOptions {
	return {
		url,
		method: 'GET',
		headers: {
			Accept: 'application/json',
			...(companyId === undefined ? {} : { [COMPANY_HINT_HEADER]: companyId }),
		},
		...extra,
	};
}

describe('Partner Payroll Partner API credential', () => {
	const three = [row('FR1001', 'Boulangerie'), row('FR1002', 'Café'), row('ES2001', 'Panadería')];

	it("is restricted to the nodes that list it (n8n from n8n-core 2.25 refuses it to n8n's HTTP Request node)", () => {
		expect(credential).toHaveProperty('restrictToSupportedNodes', true);
	});

	it("sends the token of the request's company and removes the company hint", async () => {
		const sent = await credential.authenticate(
			credentialsWith(three),
			request('FR1002', `${API}/companies/FR1002/payroll`),
		);
		expect(sent.headers).toEqual({
			Accept: 'application/json',
			Authorization: 'Bearer token-of-FR1002',
		});
	});

	it('reads a relative address against its base URL, and lets the token go to the authorization server', async () => {
		const relative = await credential.authenticate(
			credentialsWith(three),
			request('ES2001', '/companies/ES2001', { baseURL: API }),
		);
		expect(relative.headers?.Authorization).toBe('Bearer token-of-ES2001');
		const introspection = await credential.authenticate(
			credentialsWith(three),
			request('FR1001', `${AUTH}/introspect`, { method: 'POST' }),
		);
		expect(introspection.headers?.Authorization).toBe('Bearer token-of-FR1001');
	});

	it.each([
		['no company', undefined, `${API}/companies/FR1001`, 'names no company'],
		[
			'a company not in the list',
			'GB3001',
			`${API}/companies/GB3001`,
			"Company GB3001 is not in the credential's company list (3 companies)",
		],
		[
			'another origin',
			'FR1001',
			'https://files.example.org/companies/FR1001',
			'not to https://files.example.org; nothing was sent',
		],
		[
			'a path of another company',
			'FR1001',
			`${API}/companies/FR1002/payroll`,
			'A request for company FR1002 would carry the token of company FR1001',
		],
		[
			'a path of another company, in capitals',
			'FR1001',
			`${API}/Companies/FR1002/payroll`,
			'A request for company FR1002 would carry the token of company FR1001',
		],
		[
			"another company's French record, in capitals",
			'FR1001',
			`${API}/COMPANIES-FR/FR1002`,
			'A request for company FR1002 would carry the token of company FR1001',
		],
		[
			'a second company further down the path',
			'FR1001',
			`${API}/companies/FR1001/x/companies/FR1002`,
			'A request for company FR1002 would carry the token of company FR1001',
		],
		['a path parameter', 'FR1001', `${API}/companies;v=1/FR1002/payroll`, 'has a ";" parameter'],
		[
			'a company segment that does not decode',
			'FR1001',
			`${API}/companies/%E0%A4%A/payroll`,
			'A request for company %E0%A4%A would carry the token of company FR1001',
		],
	])('refuses %s, without a token in the message', async (_case, companyId, url, message) => {
		const attempt = credential.authenticate(credentialsWith(three), request(companyId, url));
		await expect(attempt).rejects.toThrow(message);
		await expect(attempt).rejects.not.toThrow(/token-of-/);
	});

	it('after a row was deleted in the editor, each company is served with its own token wherever n8n put it; only the company whose token n8n dropped is refused, named', async () => {
		const rows = [row('FR1001'), row('FR1002'), row('ES2001'), row('GB3001')];
		const saved = credentialsWith(deletedInEditor(rows, 1));
		// FR1001 kept its row; ES2001's token now sits in GB3001's row, and is found there.
		for (const companyId of ['FR1001', 'ES2001']) {
			await expect(
				credential.authenticate(saved, request(companyId, `${API}/companies/${companyId}`)),
			).resolves.toMatchObject({
				headers: { Authorization: `Bearer token-of-${companyId}` },
			});
		}
		// The last row's token was dropped by n8n: refused, naming the company and the repair.
		const attempt = credential.authenticate(saved, request('GB3001', `${API}/companies/GB3001`));
		await expect(attempt).rejects.toThrow('no row holds the token of company GB3001 any more');
		await expect(attempt).rejects.toThrow('Connect it again through the connect link');
		await expect(attempt).rejects.not.toThrow(/token-of-/);
		// The deleted company's token, left in ES2001's row, serves nobody.
		await expect(
			credential.authenticate(saved, request('FR1002', `${API}/companies/FR1002`)),
		).rejects.toThrow("Company FR1002 is not in the credential's company list");
	});

	it('after rows were reordered in the editor, every company is still served with its own token', async () => {
		const rows = [row('FR1001'), row('FR1002')];
		const reordered = [rows[1], rows[0]].map((moved, position) => ({
			...moved,
			accessToken: rows[position].accessToken,
		}));
		for (const companyId of ['FR1001', 'FR1002']) {
			await expect(
				credential.authenticate(
					credentialsWith(reordered),
					request(companyId, `${API}/companies/${companyId}`),
				),
			).resolves.toMatchObject({ headers: { Authorization: `Bearer token-of-${companyId}` } });
		}
	});

	it('300 rows, one deleted in the middle in the editor: only the company whose token n8n dropped fails, named, and the list is read once', () => {
		const rows = Array.from({ length: 300 }, (_, index) =>
			row(`FR${String(index + 1).padStart(4, '0')}`),
		);
		const saved = credentialsWith(deletedInEditor(rows, 149));
		const read = readCompanyRows(saved);
		expect(read).toHaveLength(299);
		const broken = read.filter((company) => company.problem !== undefined);
		expect(broken.map((company) => company.companyId)).toEqual(['FR0300']);
		expect(broken[0].problem).toContain('no row holds the token of company FR0300 any more');
		for (const company of read.filter((each) => each.problem === undefined)) {
			expect(company.accessToken).toBe(`token-of-${company.companyId}`);
		}
		expect(readCompanyRows(saved)).toBe(read);
	});

	it('two different tokens bound to one company, none in its own row: refused, naming the rows', async () => {
		const rows = [
			{ ...row('FR1001'), accessToken: bindToken('FR1002', 'one') },
			{ ...row('FR1002'), accessToken: bindToken('FR1001', 'x') },
			{ ...row('ES2001'), accessToken: bindToken('FR1002', 'two') },
		];
		const attempt = credential.authenticate(
			credentialsWith(rows),
			request('FR1002', `${API}/companies/FR1002`),
		);
		await expect(attempt).rejects.toThrow('entries 1, 3 hold different tokens of company FR1002');
		await expect(
			credential.authenticate(credentialsWith(rows), request('FR1001', `${API}/companies/FR1001`)),
		).resolves.toMatchObject({ headers: { Authorization: 'Bearer x' } });
	});
});

describe('the company list', () => {
	it('reads rows with their tokens, one stored row as well as many', () => {
		expect(readCompanyRows(credentialsWith([row('FR1001', 'Boulangerie')]))).toEqual([
			{ position: 1, companyId: 'FR1001', label: 'Boulangerie', accessToken: 'token-of-FR1001' },
		]);
		expect(readCompanyRows({ companies: { company: row('ES2001') } })).toHaveLength(1);
		expect(readCompanyRows({})).toEqual([]);
	});

	it('keeps a token that itself holds a colon whole', () => {
		const [read] = readCompanyRows(
			credentialsWith([{ companyId: 'FR1001', label: '', accessToken: 'FR1001:abc:def' }]),
		);
		expect(read.accessToken).toBe('abc:def');
	});

	it.each([
		[[{ companyId: '', label: 'Nobody', accessToken: 'x:y' }], 'entry 1 has no Company ID'],
		[
			[{ companyId: 'FR1001', label: 'A', accessToken: '' }],
			'entry 1 (FR1001, A) has no Access Token',
		],
		[
			[{ companyId: ' FR1001', label: '', accessToken: 'FR1001:t' }],
			'entry 1 (FR1001): its Company ID starts or ends with spaces',
		],
		[
			[{ companyId: 'FR1001', label: 'A ', accessToken: 'FR1001:t' }],
			'its Label starts or ends with spaces',
		],
		[
			[{ companyId: 'FR1001', label: '', accessToken: 'FR1001:t\n' }],
			'its Access Token starts or ends with spaces',
		],
		[
			[{ companyId: 'FR 1001', label: '', accessToken: 'x' }],
			'Company ID "FR 1001" is not a company ID',
		],
		[
			[{ companyId: 'FR1001', label: '', accessToken: 'sbx_plain-token' }],
			'is not bound to a company. Paste it as FR1001:<token>',
		],
		[[{ companyId: 'FR1001', label: '', accessToken: 'FR1001:' }], 'is not bound to a company'],
		[
			[row('FR1001'), row('FR1002'), row('FR1001')],
			'entry 3 (FR1001, Client FR1001) repeats company FR1001 of entry 1',
		],
	])('marks a broken entry with what is wrong and keeps its token out: %j', (rows, problem) => {
		const read = readCompanyRows(credentialsWith(rows));
		const broken = read.filter((entry) => entry.problem !== undefined);
		expect(broken.map((entry) => entry.problem).join('\n')).toContain(problem);
		for (const entry of broken) expect(entry.accessToken).toBeUndefined();
	});

	it('skips a row whose three fields were cleared (how a company is removed without moving rows)', () => {
		const read = readCompanyRows(
			credentialsWith([
				row('FR1001'),
				{ companyId: '', label: '', accessToken: '' },
				row('ES2001'),
			]),
		);
		expect(read.map((entry) => [entry.position, entry.companyId, entry.problem])).toEqual([
			[1, 'FR1001', undefined],
			[3, 'ES2001', undefined],
		]);
	});

	it('keeps the other companies usable when one entry is broken', () => {
		const read = readCompanyRows(
			credentialsWith([row('FR1001'), { ...row('FR1002'), accessToken: '' }, row('ES2001')]),
		);
		expect(read.map((entry) => [entry.companyId, entry.accessToken ?? null])).toEqual([
			['FR1001', 'token-of-FR1001'],
			['FR1002', null],
			['ES2001', 'token-of-ES2001'],
		]);
	});
});

describe('labels of the company list', () => {
	it.each([
		['a bidi override', 'Boulangerie\u202Eecnarussa', 'U+202E'],
		['a zero-width space', 'Boulan\u200Bgerie', 'U+200B'],
		['a C1 control', 'Boulangerie\u0085', 'U+0085'],
	])(
		'refuses a row whose label holds %s, naming the character, and serves the others',
		async (_case, label, code) => {
			const rows = [{ ...row('FR1001'), label }, row('FR1002', 'Café')];
			const attempt = credential.authenticate(
				credentialsWith(rows),
				request('FR1001', `${API}/companies/FR1001`),
			);
			await expect(attempt).rejects.toThrow(
				`its Label holds a control or invisible character (${code})`,
			);
			const other = await credential.authenticate(
				credentialsWith(rows),
				request('FR1002', `${API}/companies/FR1002`),
			);
			expect(other.headers?.Authorization).toBe('Bearer token-of-FR1002');
		},
	);
});

describe('the company list, read once per value of the credential', () => {
	const manyRows = (count: number) =>
		Array.from({ length: count }, (_, index) => {
			const companyId = `C${index}`;
			return {
				companyId,
				label: `Client ${index}`,
				accessToken: bindToken(companyId, `token-${index}`),
			};
		});

	it('reads a value of the list once, and a new value again', () => {
		const credentials = { companies: { company: manyRows(3) } };
		const first = readCompanyIndex(credentials);
		expect(readCompanyIndex(credentials)).toBe(first);
		const edited = { companies: { company: manyRows(4) } };
		expect(readCompanyIndex(edited)).not.toBe(first);
		expect(readCompanyIndex(edited).rows).toHaveLength(4);
	});

	it('still refuses a repeated company among 10,000, in both of its rows', async () => {
		const rows = manyRows(10_000);
		rows.push({ ...rows[9_000], label: 'Again' });
		const credentials = { baseUrl: API, authServerUrl: AUTH, companies: { company: rows } };
		const attempt = credential.authenticate(credentials, {
			url: `${API}/companies/C9000/payroll-status`,
			headers: { [COMPANY_HINT_HEADER]: 'C9000' },
		});
		await expect(attempt).rejects.toThrow(
			"The company list's entry 10001 (C9000, Again) repeats company C9000 of entry 9001",
		);
		const other = await credential.authenticate(credentials, {
			url: `${API}/companies/C9999/payroll-status`,
			headers: { [COMPANY_HINT_HEADER]: 'C9999' },
		});
		expect(other.headers?.Authorization).toBe('Bearer token-9999');
	});
});
