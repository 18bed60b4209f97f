import { binaryBytes } from '../../../../support/n8n-harness';
import { SandboxSession, runPartnerPayroll, sha256 } from '../../../../support/fixtures';

const session = new SandboxSession();
beforeAll(async () => await session.start());
afterAll(async () => await session.stop());
beforeEach(async () => await session.reset());

describe('accounting', () => {
	it('getEntries: one item per entry, every field as the API returns it, with its company', async () => {
		const token = await session.token('FR1001');
		const items = await runPartnerPayroll(
			{ resource: 'accounting', operation: 'getEntries', companyId: 'FR1001', month: '202610' },
			session.accessToken(token),
		);
		const response = await fetch(
			`${session.sandbox.apiBaseUrl}/companies/FR1001/accounting-v2?date=202610`,
			{
				headers: { Authorization: `Bearer ${token}` },
			},
		);
		const entries = (await response.json()) as object[];
		expect(items.map((item) => item.json)).toEqual(
			entries.map((entry) => ({ companyId: 'FR1001', ...entry })),
		);
		expect(items.length).toBeGreaterThan(5);
	});

	it('downloadCsv: every byte, a .csv file name and text/csv for an octet-stream answer', async () => {
		const token = await session.token('FR1001');
		const [item, ...rest] = await runPartnerPayroll(
			{ resource: 'accounting', operation: 'downloadCsv', companyId: 'FR1001', month: '202610' },
			session.accessToken(token),
		);
		expect(rest).toHaveLength(0);
		const expected = session.sandbox.seed.accountingCsv('FR1001', '202610');
		expect(sha256(binaryBytes(item))).toBe(sha256(expected));
		expect(item.binary!.data).toMatchObject({
			fileName: 'accounting-FR1001-202610.csv',
			mimeType: 'text/csv',
		});
		expect(item.json).toMatchObject({
			companyId: 'FR1001',
			month: '202610',
			fileSize: expected.length,
		});
		expect(JSON.stringify(item.json)).not.toContain('EcritureDate');
	});

	it('downloadCsv with Parse Lines: one typed item per line, equal to the JSON entries', async () => {
		const token = await session.token('FR1001');
		const credentials = session.accessToken(token);
		const lines = await runPartnerPayroll(
			{
				resource: 'accounting',
				operation: 'downloadCsv',
				companyId: 'FR1001',
				month: '202610',
				options: { parseLines: true },
			},
			credentials,
		);
		const entries = await runPartnerPayroll(
			{ resource: 'accounting', operation: 'getEntries', companyId: 'FR1001', month: '202610' },
			credentials,
		);
		expect(lines.map((line) => line.json)).toEqual(entries.map((entry) => entry.json));
		expect(lines[0].binary?.data.fileName).toBe('accounting-FR1001-202610.csv');
		expect(lines.slice(1).every((line) => line.binary === undefined)).toBe(true);
		// The seed puts `;`, `"` and accents inside quoted values.
		const sections = lines.flatMap((line) =>
			(line.json.analyticCodes as Array<{ value: string }>).map((a) => a.value),
		);
		expect(sections.some((value) => value?.includes(';'))).toBe(true);
		expect(sections.some((value) => value?.includes('"'))).toBe(true);
	});

	it('getEntries on a Spanish company: the service says why and the node says which country', async () => {
		const token = await session.token('ES2001');
		await expect(
			runPartnerPayroll(
				{ resource: 'accounting', operation: 'getEntries', month: '202610' },
				session.accessToken(token),
			),
		).rejects.toMatchObject({
			httpCode: '404',
			description: expect.stringContaining('France (FR) only'),
		});
	});

	it('missing accounting scope: names the scope and asks to reconnect', async () => {
		const token = await session.token('FR1001', ['payment-files:read']);
		await expect(
			runPartnerPayroll(
				{ resource: 'accounting', operation: 'downloadCsv', companyId: 'FR1001', month: '202610' },
				session.accessToken(token),
			),
		).rejects.toMatchObject({ httpCode: '403', message: 'Missing scope "accounting:read"' });
	});
});
