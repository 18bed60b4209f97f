/** A body as n8n hands over a streamed answer: chunks to read asynchronously, and a pipe method. */
export const streamOf = (...chunks: Buffer[]) =>
	Object.assign(
		(async function* () {
			yield* chunks;
		})(),
		{ pipe: () => undefined },
	);
