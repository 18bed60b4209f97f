import { bodyBytes } from '../../../nodes/shared/bodies';
import { firstBytes } from '../../../nodes/shared/documents';
import { streamOf } from '../../support/streams';

describe('bodyBytes', () => {
	it('reads a stream, a buffer and a string to the same bytes', async () => {
		const bytes = Buffer.from([0, 1, 2, 250, 255]);
		expect(await bodyBytes(streamOf(bytes.subarray(0, 2), bytes.subarray(2)))).toEqual(bytes);
		expect(await bodyBytes(bytes)).toEqual(bytes);
		expect(await bodyBytes(bytes.toString('binary'))).toEqual(bytes);
	});

	it('stops reading at the cap (an error page can be any size)', async () => {
		const body = streamOf(
			Buffer.alloc(40_000, 97),
			Buffer.alloc(40_000, 98),
			Buffer.alloc(40_000, 99),
		);
		const bytes = await bodyBytes(body, 64 * 1024);
		expect(bytes).toHaveLength(64 * 1024);
	});
});

describe('firstBytes', () => {
	it('reads the start of a body that is not a stream', async () => {
		expect((await firstBytes(Buffer.from('%PDF-1.7 …'), 5)).toString()).toBe('%PDF-');
	});
});
