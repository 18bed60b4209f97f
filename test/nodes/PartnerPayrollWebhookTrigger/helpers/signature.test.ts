import { verifySignature } from '../../../../nodes/PartnerPayrollWebhookTrigger/helpers/signature';
import { SVIX_TEST_VECTOR, TEST_URL_ENDPOINT_SECRET, svixSign } from '../../../support/svix';

const VECTOR = SVIX_TEST_VECTOR;
const keyOf = (secret: string) => Buffer.from(secret.slice('whsec_'.length), 'base64');
const OTHER_SECRET = TEST_URL_ENDPOINT_SECRET;

const svixHeaders = (signature = VECTOR.signature, timestamp = VECTOR.timestamp) => ({
	'svix-id': VECTOR.id,
	'svix-timestamp': String(timestamp),
	'svix-signature': signature,
});

const at = (nowSeconds: number) => ({ toleranceSeconds: 300, nowSeconds });
const verify = (
	headers: Record<string, string>,
	options = at(VECTOR.timestamp),
	body = VECTOR.body,
	secrets = [VECTOR.secret],
) => verifySignature(headers, Buffer.from(body), secrets.map(keyOf), options);

describe('verifySignature', () => {
	it("verifies Svix's published test vector", () => {
		expect(verify(svixHeaders())).toEqual({
			verified: true,
			messageId: VECTOR.id,
			timestamp: VECTOR.timestamp,
		});
	});

	it('refuses a wrong secret, an altered body, and a signature of another message id', () => {
		expect(verify(svixHeaders(), undefined, undefined, [OTHER_SECRET])).toEqual({
			verified: false,
			reason: 'no signature matches a configured secret',
		});
		expect(verify(svixHeaders(), undefined, '{"test": 2432232315}').verified).toBe(false);
		expect(verify({ ...svixHeaders(), 'svix-id': 'msg_other' }).verified).toBe(false);
	});

	it('refuses timestamps more than the tolerance away, past or future, and accepts the edges', () => {
		expect(verify(svixHeaders(), at(VECTOR.timestamp + 301))).toEqual({
			verified: false,
			reason: 'timestamp 301 s old, more than the 300 s tolerated',
		});
		expect(verify(svixHeaders(), at(VECTOR.timestamp - 301))).toEqual({
			verified: false,
			reason: 'timestamp 301 s in the future, more than the 300 s tolerated',
		});
		expect(verify(svixHeaders(), at(VECTOR.timestamp + 300)).verified).toBe(true);
		expect(verify(svixHeaders(), at(VECTOR.timestamp - 300)).verified).toBe(true);
		// A shorter tolerance is an option.
		expect(
			verify(svixHeaders(), { toleranceSeconds: 10, nowSeconds: VECTOR.timestamp + 11 }).verified,
		).toBe(false);
		// The timestamp is signed: moving it breaks the signature.
		expect(verify(svixHeaders(VECTOR.signature, VECTOR.timestamp + 1)).verified).toBe(false);
	});

	it('refuses missing headers and a timestamp that is not a number, naming them', () => {
		expect(verify({})).toEqual({
			verified: false,
			reason: 'missing header svix-id, svix-timestamp, svix-signature',
		});
		const unsigned: Record<string, string> = svixHeaders();
		delete unsigned['svix-signature'];
		expect(verify(unsigned)).toEqual({ verified: false, reason: 'missing header svix-signature' });
		expect(verify({ ...svixHeaders(), 'svix-timestamp': '2021-02-25' })).toEqual({
			verified: false,
			reason: 'svix-timestamp is not a number of seconds',
		});
	});

	it('accepts a rotation: several signatures in the header, and several configured secrets', () => {
		const rotated = svixSign(OTHER_SECRET, VECTOR.id, VECTOR.timestamp, VECTOR.body);
		// Old and new secret sign during 24 h; n8n knows only one of them.
		expect(verify(svixHeaders(`${rotated} ${VECTOR.signature}`)).verified).toBe(true);
		expect(
			verify(svixHeaders(`${VECTOR.signature} ${rotated}`), undefined, undefined, [OTHER_SECRET])
				.verified,
		).toBe(true);
		// n8n knows both, the header has one.
		expect(
			verify(svixHeaders(rotated), undefined, undefined, [VECTOR.secret, OTHER_SECRET]).verified,
		).toBe(true);
	});

	it('skips entries of other versions and malformed entries', () => {
		expect(verify(svixHeaders(`v2,abc v1a,zzz ${VECTOR.signature}`)).verified).toBe(true);
		expect(verify(svixHeaders('v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=')).verified).toBe(
			false,
		);
		expect(verify(svixHeaders('v1,')).verified).toBe(false);
	});

	it('reads the Standard Webhooks headers (webhook-*) too', () => {
		const headers = {
			'webhook-id': VECTOR.id,
			'webhook-timestamp': String(VECTOR.timestamp),
			'webhook-signature': VECTOR.signature,
		};
		expect(verify(headers)).toMatchObject({ verified: true, messageId: VECTOR.id });
		expect(verify({ 'webhook-id': VECTOR.id })).toEqual({
			verified: false,
			reason: 'missing header webhook-timestamp, webhook-signature',
		});
	});

	it('never puts a secret or a signature in a reason', () => {
		const reasons = [
			verify(svixHeaders(), undefined, undefined, [OTHER_SECRET]),
			verify(svixHeaders(), at(0)),
		].map((result) => JSON.stringify(result));
		for (const reason of reasons) {
			expect(reason).not.toContain(VECTOR.secret.slice(6));
			expect(reason).not.toContain(OTHER_SECRET.slice(6));
			expect(reason).not.toContain(VECTOR.signature.slice(3));
		}
	});
});
