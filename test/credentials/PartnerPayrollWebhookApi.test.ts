import type { ICredentialTestFunctions } from 'n8n-workflow';

import { PartnerPayrollWebhookApi } from '../../credentials/PartnerPayrollWebhookApi.credentials';
import { PartnerPayrollWebhookTrigger } from '../../nodes/PartnerPayrollWebhookTrigger/PartnerPayrollWebhookTrigger.node';
import { ENDPOINT_SECRET, SVIX_TEST_VECTOR, TEST_URL_ENDPOINT_SECRET } from '../support/svix';

const SECRET = SVIX_TEST_VECTOR.secret;
const trigger = new PartnerPayrollWebhookTrigger();

/** What n8n's credential dialog runs on "Test": the node's function named by testedBy, offline. */
async function testSecrets(data: Record<string, string>) {
	const [usage] = trigger.description.credentials!;
	const test =
		trigger.methods.credentialTest[usage.testedBy as 'partnerPayrollWebhookSecretsShape'];
	return await test.call({} as ICredentialTestFunctions, {
		id: '1',
		name: 'Partner Payroll Webhook Signing Secret',
		type: 'partnerPayrollWebhookApi',
		data,
	});
}

describe('Partner Payroll Webhook Signing Secret', () => {
	it('has the two secret fields, both hidden, and is tested by the webhook trigger', () => {
		const credential = new PartnerPayrollWebhookApi();
		expect(credential.name).toBe('partnerPayrollWebhookApi');
		expect(credential.properties.map((field) => [field.name, field.typeOptions?.password])).toEqual(
			[
				['signingSecret', true],
				['additionalSigningSecrets', true],
			],
		);
		// The editor shows a password field on one line: "one per line" could not be typed there.
		expect(credential.properties[1].description).toContain(
			'separated by spaces, commas or new lines',
		);
		// The Partner API credential is asked for only with Match Companies of a Partner Credential on.
		expect(trigger.description.credentials).toEqual([
			expect.objectContaining({ name: 'partnerPayrollWebhookApi', required: true }),
			expect.objectContaining({
				name: 'partnerPayrollPartnerApi',
				displayOptions: { show: { matchPartnerCompanies: [true] } },
			}),
		]);
	});

	it('passes for well-formed secrets, with blank lines around Additional Signing Secrets', async () => {
		expect(await testSecrets({ signingSecret: SECRET })).toMatchObject({ status: 'OK' });
		const two = await testSecrets({
			signingSecret: ` ${SECRET} `,
			additionalSigningSecrets: `\n${SECRET}\r\n\n`,
		});
		expect(two).toMatchObject({ status: 'OK', message: expect.stringContaining('The 2 secrets') });
	});

	// The editor shows the field on one line and drops the line feeds of a paste: secrets pasted one
	// per line arrive run together, and a user may type spaces or commas instead.
	it.each([
		['a space', `${ENDPOINT_SECRET} ${TEST_URL_ENDPOINT_SECRET}`],
		['a comma', `${ENDPOINT_SECRET},${TEST_URL_ENDPOINT_SECRET}`],
		['a new line', `${ENDPOINT_SECRET}\n${TEST_URL_ENDPOINT_SECRET}`],
		['nothing (run together)', `${ENDPOINT_SECRET}${TEST_URL_ENDPOINT_SECRET}`],
	])('counts two additional secrets separated by %s', async (_, additionalSigningSecrets) => {
		const result = await testSecrets({ signingSecret: SECRET, additionalSigningSecrets });
		expect(result).toMatchObject({
			status: 'OK',
			message: expect.stringContaining('The 3 secrets'),
		});
	});

	it.each([
		[{ signingSecret: '' }, 'Signing Secret is empty'],
		[{ signingSecret: SECRET.slice(6) }, 'Signing Secret must start with "whsec_"'],
		[
			{ signingSecret: SECRET.slice(0, 14) },
			'Signing Secret must be "whsec_" followed by a base64 key',
		],
		[{ signingSecret: `${SECRET}!` }, 'Signing Secret must be "whsec_" followed by a base64 key'],
		[
			{ signingSecret: SECRET, additionalSigningSecrets: `${SECRET}\nsk_${SECRET.slice(6)}` },
			'Additional Signing Secrets, secret 2 must start with "whsec_"',
		],
		[
			{ signingSecret: SECRET, additionalSigningSecrets: `\n\n${SECRET}, sk_${SECRET.slice(6)}` },
			'Additional Signing Secrets, secret 2 must start with "whsec_"',
		],
		[
			{ signingSecret: SECRET, additionalSigningSecrets: `${SECRET}${SECRET.slice(0, 14)}` },
			'Additional Signing Secrets, secret 2 must be "whsec_" followed by a base64 key',
		],
	])('fails with a message naming the field for %j', async (data, message) => {
		const result = await testSecrets(data);
		expect(result).toEqual({ status: 'Error', message: expect.stringContaining(message) });
		// The message never shows a secret.
		expect(result.message).not.toContain('MfKQ9r8G');
	});
});
