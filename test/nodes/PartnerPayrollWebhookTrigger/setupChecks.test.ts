import type { IDataObject } from 'n8n-workflow';

import {
	ENDPOINT_SECRET,
	WebhookWorkflow,
	newProcess,
	payrollRun,
	signedRequest,
} from './webhookHarness';

// What the trigger's settings can break for every delivery is refused when the workflow is published
// (n8n calls the webhook's checkExists then, and on Listen for Test Event), naming the field; and a
// delivery never runs with a replay window that is off.

beforeEach(() => newProcess());

const A_YEAR_AGO = () => Math.floor(Date.now() / 1000) - 365 * 24 * 3600;

const publish = (
	parameters: IDataObject,
	credentials: IDataObject = { signingSecret: ENDPOINT_SECRET },
) => new WebhookWorkflow(parameters, credentials).publish();

describe('Partner Payroll Webhook Trigger: Timestamp Tolerance', () => {
	it.each([['abc'], [''], [0], [-30], [Number.NaN]])(
		'a tolerance of %p from an expression fails the delivery naming the field, and an old delivery never starts the workflow',
		async (toleranceSeconds) => {
			const workflow = new WebhookWorkflow({ options: { toleranceSeconds } });
			const old = signedRequest({ body: payrollRun(), timestamp: A_YEAR_AGO() });
			await expect(workflow.receive(old)).rejects.toThrow(
				'Timestamp Tolerance (Seconds) must be a number of seconds, at least 1',
			);
			expect(workflow.staticData).toEqual({});
		},
	);

	it.each([
		['five minutes', 'It is "five minutes".'],
		[Number.NaN, 'It is NaN.'],
	])(
		'the error for %p says what the field holds and the default',
		async (toleranceSeconds, holds) => {
			const workflow = new WebhookWorkflow({ options: { toleranceSeconds } });
			await expect(workflow.receive(signedRequest({ body: payrollRun() }))).rejects.toMatchObject({
				description: `${holds} Leave the option out for the default, 300 seconds, which Svix's own libraries use.`,
			});
		},
	);

	it('a number as text from an expression is that many seconds', async () => {
		const workflow = new WebhookWorkflow({ options: { toleranceSeconds: '600' } });
		const fiveMinutesAgo = Math.floor(Date.now() / 1000) - 500;
		const recent = await workflow.deliver(
			signedRequest({ body: payrollRun(), timestamp: fiveMinutesAgo }),
		);
		expect(recent.items).toHaveLength(1);
		const old = await workflow.receive(
			signedRequest({ body: payrollRun('ES2001'), timestamp: fiveMinutesAgo - 200 }),
		);
		expect(old).toMatchObject({ status: 401, items: undefined });
	});
});

describe('Partner Payroll Webhook Trigger: checks at publish', () => {
	it('publishes a workflow whose settings and secret are usable, and logs where to paste the URL', async () => {
		const { exists, logged } = await publish({ events: ['payroll.run'], options: {} });
		expect(exists).toBe(true);
		expect(logged.join('\n')).toContain('https://n8n.example.com/webhook/abc/webhook');
	});

	it.each([
		[{ events: [] }, 'Events must name at least one event'],
		[{ companies: 'selected', companyIds: ' ' }, 'Company IDs must list at least one company id'],
		[{ options: { ignoreMonthsBefore: 'soon' } }, 'Ignore Months Before must be a month as YYYYMM'],
		[{ options: { toleranceSeconds: 'abc' } }, 'Timestamp Tolerance (Seconds) must be a number'],
	])('refuses to publish with %p, naming the field', async (parameters, message) => {
		await expect(publish(parameters)).rejects.toThrow(message);
	});

	it('refuses to publish with a signing secret that cannot verify anything, without showing it', async () => {
		const withoutPrefix = ENDPOINT_SECRET.slice('whsec_'.length);
		const refusal = publish({}, { signingSecret: withoutPrefix });
		await expect(refusal).rejects.toThrow(
			'The Partner Payroll Webhook Signing Secret credential is not usable: Signing Secret must start with "whsec_"',
		);
		await expect(refusal).rejects.not.toThrow(withoutPrefix);
	});
});
