import {
	ENDPOINT_SECRET,
	TEST_URL_ENDPOINT_SECRET,
	WebhookWorkflow,
	newProcess,
	payrollRun,
	signedRequest,
} from './webhookHarness';

// n8n's editor shows Additional Signing Secrets, a password field, as a one-line input, and the
// browser drops the line feeds of what is pasted into it: two secrets pasted one per line arrive run
// together. Whatever separates them, each secret must verify the deliveries it signs.

beforeEach(() => newProcess());

/** The secret before a rotation; its key has base64 padding, so a secret run after it follows a "=". */
const PREVIOUS_SECRET = `whsec_${Buffer.from('previous-endpoint-secret-1').toString('base64')}`;
const UNKNOWN_SECRET = `whsec_${Buffer.from('nobody-configured-this-one').toString('base64')}`;

const workflowWith = (additionalSigningSecrets: string) =>
	new WebhookWorkflow({}, { signingSecret: ENDPOINT_SECRET, additionalSigningSecrets });

/** What a delivery signed with `secret` gets: its status and how many executions it starts. */
async function deliverSignedWith(workflow: WebhookWorkflow, secret: string, month: string) {
	const answer = await workflow.deliver(
		signedRequest({ body: payrollRun('FR1001', month), secret }),
	);
	return { status: answer.status, executions: answer.items?.length ?? 0 };
}

describe('Partner Payroll Webhook Trigger: two secrets in Additional Signing Secrets', () => {
	it.each([
		['a space', `${TEST_URL_ENDPOINT_SECRET} ${PREVIOUS_SECRET}`],
		['a comma', `${TEST_URL_ENDPOINT_SECRET},${PREVIOUS_SECRET}`],
		['a comma and a space', `${TEST_URL_ENDPOINT_SECRET}, ${PREVIOUS_SECRET}`],
		['a new line', `${TEST_URL_ENDPOINT_SECRET}\n${PREVIOUS_SECRET}`],
		['a Windows new line', `${TEST_URL_ENDPOINT_SECRET}\r\n${PREVIOUS_SECRET}`],
		[
			'nothing (run together, as the password input leaves them)',
			`${PREVIOUS_SECRET}${TEST_URL_ENDPOINT_SECRET}`,
		],
		['nothing, the other way round', `${TEST_URL_ENDPOINT_SECRET}${PREVIOUS_SECRET}`],
	])(
		'separated by %s: a delivery signed with either one starts its execution',
		async (_, secrets) => {
			const workflow = workflowWith(secrets);
			expect(await deliverSignedWith(workflow, TEST_URL_ENDPOINT_SECRET, '202609')).toEqual({
				status: 200,
				executions: 1,
			});
			expect(await deliverSignedWith(workflow, PREVIOUS_SECRET, '202610')).toEqual({
				status: 200,
				executions: 1,
			});
			// The Signing Secret still verifies, and a secret configured nowhere still does not.
			expect(await deliverSignedWith(workflow, ENDPOINT_SECRET, '202611')).toEqual({
				status: 200,
				executions: 1,
			});
			expect(await deliverSignedWith(workflow, UNKNOWN_SECRET, '202612')).toEqual({
				status: 401,
				executions: 0,
			});
			// Nothing in n8n's log says the credential is not usable.
			expect(workflow.loggedErrors).toEqual([]);
		},
	);

	it.each([
		[
			'not starting with whsec_',
			`${TEST_URL_ENDPOINT_SECRET}, sk_${PREVIOUS_SECRET.slice(6)}`,
			'must start with "whsec_"',
		],
		[
			'cut short, run together',
			`${TEST_URL_ENDPOINT_SECRET}${PREVIOUS_SECRET.slice(0, 14)}`,
			'must be "whsec_" followed by a base64 key',
		],
	])(
		'a second secret %s refuses deliveries, and the log names it by position without showing it',
		async (_, secrets, problem) => {
			const workflow = workflowWith(secrets);
			const answer = await workflow.receive(signedRequest({ body: payrollRun() }));
			expect(answer).toMatchObject({
				status: 401,
				body: { message: 'The signing secret of this trigger is not usable' },
			});
			expect(workflow.loggedErrors).toEqual([
				expect.stringContaining(`Additional Signing Secrets, secret 2 ${problem}`),
			]);
			const logged = workflow.loggedErrors.join('\n');
			for (const secret of [ENDPOINT_SECRET, TEST_URL_ENDPOINT_SECRET, PREVIOUS_SECRET]) {
				expect(logged).not.toContain(secret.slice('whsec_'.length, 14));
			}
		},
	);
});
