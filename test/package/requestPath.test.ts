import { PartnerPayrollPartnerApi } from '../../credentials/PartnerPayrollPartnerApi.credentials';
import { SandboxSession, runPartnerPayroll } from '../support/fixtures';
import { traceFileEntries, writeArtifact } from '../support/trace-entries';

// The way one request goes down, as a reader follows it: for one item of Payroll -> Download Payment
// File with the Partner API credential, the product files in the order they are entered, from the
// node's execute() until the credential has signed the request. None may be entered twice.
// `node scripts/request-stack.mjs --path` prints it.

const session = new SandboxSession();

beforeAll(async () => await session.start());
afterAll(async () => await session.stop());

it('Download Payment File with the Partner API credential: no product file entered twice on the way down', async () => {
	const credentials = await session.partner(['FR1001', 'ES2001']);
	let started = false;
	let signed = false;
	const entries = traceFileEntries(['nodes', 'credentials'], () => started && !signed);
	// The credential's authenticate is the last step down: what it calls is recorded, then nothing.
	const { authenticate } = PartnerPayrollPartnerApi.prototype;
	PartnerPayrollPartnerApi.prototype.authenticate = async function (...args) {
		try {
			return await authenticate.apply(this, args);
		} finally {
			signed = true;
		}
	};
	started = true;
	try {
		const [item] = await runPartnerPayroll(
			{
				resource: 'payroll',
				operation: 'downloadPaymentFile',
				companyId: 'FR1001',
				month: '202610',
			},
			credentials,
		);
		expect(item.binary?.data?.fileName).toBe('payment-file-FR1001-202610');
	} finally {
		PartnerPayrollPartnerApi.prototype.authenticate = authenticate;
	}

	writeArtifact(
		'request-path.txt',
		`${entries.map((file, index) => `${String(index + 1).padStart(2)}. ${file}`).join('\n')}\n`,
	);
	expect(entries[0]).toBe('nodes/PartnerPayroll/PartnerPayroll.node.ts');
	expect(entries.slice(-2)).toEqual([
		'credentials/PartnerPayrollPartnerApi.credentials.ts',
		'credentials/partnerCompanies.ts',
	]);
	const twice = entries.filter((file, index) => entries.indexOf(file) !== index);
	expect({ twice, path: entries }).toEqual({ twice: [], path: entries });
});
