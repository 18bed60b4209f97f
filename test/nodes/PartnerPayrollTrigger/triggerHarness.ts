import { Settings } from 'luxon';
import { PollContext } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PartnerPayrollTrigger } from '../../../nodes/PartnerPayrollTrigger/PartnerPayrollTrigger.node';
import { authenticationFor, type LoggedRequest, type SandboxSession } from '../../support/fixtures';
import { createPoller, type Poller, type TestCredentials } from '../../support/n8n-harness';

export const partnerPayrollTrigger = new PartnerPayrollTrigger();

/** Where the trigger keeps its state in the test workflow's static data: under the node's id. */
export const stateOf = (staticData: IDataObject) =>
	((staticData.global as IDataObject | undefined)?.['partnerPayrollTrigger:test-node'] ??
		{}) as IDataObject;

export interface TriggerPoller extends Poller {
	/** The node's static data (what the trigger stores between polls). */
	state(): IDataObject;
	/**
	 * Whether n8n would save the static data now: it saves after an execution only when the static
	 * data is marked as changed, then clears the mark (as this does).
	 */
	takeSave(): boolean;
}

/** A poller of the trigger with the authentication its credential calls for. */
export function createTrigger(
	parameters: INodeParameters,
	credentials: TestCredentials,
	options: { timezone?: string; staticData?: IDataObject; nodeName?: string } = {},
): TriggerPoller {
	const poller = createPoller(partnerPayrollTrigger, {
		parameters: { authentication: authenticationFor(credentials), ...parameters },
		credentials,
		timezone: options.timezone ?? 'Europe/Paris',
		staticData: options.staticData,
		nodeName: options.nodeName,
	});
	return {
		...poller,
		state: () => stateOf(poller.staticData),
		takeSave: () => {
			const root = poller.staticData as IDataObject & { __dataChanged?: boolean };
			const changed = root.__dataChanged === true;
			root.__dataChanged = false;
			return changed;
		},
	};
}

/** A deep, plain copy: static data is a proxy n8n watches for changes. */
/**
 * A Partner API credential whose companies each have a stub token (`<company>:stub`), against a stub
 * service at `serviceUrl` that answers without checking tokens.
 */
export function stubPartnerCredentials(serviceUrl: string, companyIds: string[]): TestCredentials {
	return {
		partnerPayrollPartnerApi: {
			baseUrl: `${serviceUrl}/api/v1`,
			authServerUrl: `${serviceUrl}/oauth`,
			clientId: 'stub-client',
			clientSecret: '',
			companies: {
				company: companyIds.map((companyId) => ({
					companyId,
					label: companyId,
					accessToken: `${companyId}:stub`,
				})),
			},
		},
	};
}

export function snapshot<T>(value: T): T {
	return JSON.parse(JSON.stringify(value ?? null)) as T;
}

const realNow = Settings.now;

/** Moves luxon's clock (the trigger computes "current month" with luxon). */
export function setClock(iso: string): void {
	const instant = Date.parse(iso);
	Settings.now = () => instant;
}

const realDateNow = Date.now;

/**
 * Moves Date.now, the clock of a poll's time budget, `ms` ahead from now on (the in-process sandbox
 * sees the same clock). Luxon's month clock (`setClock`) is not moved.
 */
export function advanceWallClock(ms: number): void {
	const base = Date.now;
	Date.now = () => base() + ms;
}

/** Both clocks back to real time. */
export function restoreClock(): void {
	Settings.now = realNow;
	Date.now = realDateNow;
}

/**
 * The warnings the trigger logs from now on, as n8n's log receives them (n8n-core's
 * PollContext.logger); `jest.restoreAllMocks()` gives the real logger back.
 */
export function captureWarnings(): string[] {
	const warnings: string[] = [];
	const logger = { warn: (message: string) => warnings.push(message), debug() {}, info() {} };
	jest.spyOn(PollContext.prototype, 'logger', 'get').mockReturnValue(logger as never);
	return warnings;
}

export async function setPayrollStatus(
	session: SandboxSession,
	companyId: string,
	month: string,
	status: 'completed' | 'not_completed',
	executionEndDate?: string,
): Promise<void> {
	await session.control('POST', '/payroll-status', { companyId, month, status, executionEndDate });
}

/** API and OAuth requests since the last clear, as `METHOD path?date=…` lines. */
export async function requestLines(session: SandboxSession): Promise<string[]> {
	const requests: LoggedRequest[] = await session.requests();
	return requests.map((request) => {
		const date = request.query?.date;
		return `${request.method} ${request.path.replace(/^\/api\/v1/, '')}${date ? `?date=${String(date)}` : ''}`;
	});
}
