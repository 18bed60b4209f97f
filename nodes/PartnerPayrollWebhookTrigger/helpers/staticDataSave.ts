import { sleep, type IDataObject } from 'n8n-workflow';

// n8n saves a webhook node's static data after webhook() returned, only if the workflow's static
// data is marked changed at that moment. Some n8n versions clear that mark while they start the
// execution (they build a second Workflow object on the same static data; docs/exactly-once.md), so
// a change made in webhook() would never be saved. The record is therefore written again, every
// millisecond, until n8n's answer to the delivery leaves: n8n's start of the execution awaits the
// database several times between clearing the mark and saving, so a write lands in between. Writing
// the same object again changes no value: it only marks the static data changed.

/** Each write marks the static data changed again: often enough to land between n8n's awaits. */
const MARK_AGAIN_EVERY_MS = 1;
/** A hand-over longer than this is not waited for (Svix gives up on an answer after 15 s). */
const MARK_AGAIN_FOR_AT_MOST_MS = 15_000;

// n8n quirk Q4: docs/n8n-quirks.md
/** Sets `staticData[field] = value` now and again until `answered()` says n8n's answer left. */
export function writeUntilAnswered(
	staticData: IDataObject,
	field: string,
	value: IDataObject,
	answered: () => boolean,
): void {
	staticData[field] = value;
	const deadline = Date.now() + MARK_AGAIN_FOR_AT_MOST_MS;
	const markAgain = async () => {
		while (!answered() && Date.now() < deadline) {
			await sleep(MARK_AGAIN_EVERY_MS);
			if (!answered()) staticData[field] = value;
		}
	};
	void markAgain();
}
