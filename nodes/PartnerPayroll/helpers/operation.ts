import type {
	IExecuteFunctions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { PartnerPayrollApiError } from '../../shared/apiError';
import { introspectToken, resolveCompanyId } from '../../shared/company';
import type { Connection } from '../../shared/connection';
import { failureError, type ErrorContext } from '../../shared/errors';
import { checkedId } from '../../shared/ids';
import { normalizeMonth, type MonthField } from '../../shared/month';
import { apiRequest } from '../../shared/transport';

// What an operation of the node is, and what it can ask about the input item it works on.

type ApiRequest = Parameters<typeof apiRequest>[2];

/** One input item, as an operation sees it: its parameters, its company, and the one door to the service. */
export interface Item {
	index: number;
	node: INode;
	context: IExecuteFunctions;
	connection: Connection;
	parameter<T>(name: string, fallback: T): T;
	/**
	 * The Company ID typed for this item, empty for the company of the token. With the Partner API
	 * credential, a company of its list (checked here, before any request).
	 */
	typedCompanyId(): string;
	/** The typed Company ID, or the company of the token (looked up once per run). */
	companyId(): Promise<string>;
	/** The item's Month as YYYYMM, or an error that names the field. */
	month(field?: MonthField): string;
	/** The binary field a downloaded file goes to (`data` when left empty). */
	binaryPropertyName(parameter?: string): string;
	/** A request of this item: its errors name the item and the operation's country. */
	send<T = IN8nHttpFullResponse>(
		request: ApiRequest,
		receive?: (response: IN8nHttpFullResponse) => Promise<T>,
	): Promise<T>;
}

/** How one item is done: its output items (the node pairs them with the input item). */
export type ItemExecutor = (item: Item) => Promise<INodeExecutionData[]>;

export interface Operation {
	/** The entry of the Operation list: name, value, action (what the nodes panel and AI agents read). */
	option: INodePropertyOptions & { action: string; description: string };
	/** The fields of the operation, shown for it only. */
	fields: INodeProperties[];
	/** Called once per run of the node with every input item; returns how one item is done. */
	start(items: Item[]): Promise<ItemExecutor>;
	/** What the operation's errors need to know about it. */
	errorContext?: ErrorContext;
	/** Items go one at a time, in order (a write); otherwise several are in flight at once. */
	oneItemAtATime?: boolean;
}

/** An operation whose items are independent: the same executor for each. */
export const forEachItem =
	(execute: ItemExecutor): Operation['start'] =>
	async () =>
		execute;

const MONTH: MonthField = { name: 'month', displayName: 'Month' };

/** The items of one run of the node share the connection and the lookup of the token's company. */
export function itemsOfRun(
	context: IExecuteFunctions,
	connection: Connection,
	errorContext: ErrorContext,
): Item[] {
	const node = context.getNode();
	let tokenCompany: Promise<string> | undefined;
	const companyOfToken = async () => {
		tokenCompany ??= resolveCompanyId(context, connection, '');
		// A failure is not remembered: the next item tries again.
		return await tokenCompany.catch((error: unknown) => {
			tokenCompany = undefined;
			throw error;
		});
	};
	return context.getInputData().map((_, index): Item => {
		const parameter = <T>(name: string, fallback: T) =>
			context.getNodeParameter(name, index, fallback) as T;
		const typedCompanyId = () => {
			const typed = String(parameter('companyId', '') ?? '').trim();
			const { partner } = connection;
			if (partner && typed === '') throw failureError(node, 'partnerCompanyMissing', {}, index);
			const companyId = typed && checkedId(typed, 'Company ID', node, index);
			const problem = partner?.problemOf(companyId);
			if (problem !== undefined) {
				throw failureError(node, 'partnerCompanyList', { problem }, index);
			}
			return companyId;
		};
		const itemContext = { ...errorContext, itemIndex: index };
		return {
			index,
			node,
			context,
			connection,
			parameter,
			typedCompanyId,
			companyId: async () => typedCompanyId() || (await companyOfToken()),
			month: (field = MONTH) =>
				normalizeMonth(parameter(field.name, ''), field, node, index, context.getTimezone()),
			binaryPropertyName: (name = 'binaryPropertyName') =>
				String(parameter(name, 'data')).trim() || 'data',
			send: async (request, receive) => {
				try {
					return await apiRequest(context, connection, request, itemContext, receive);
				} catch (error) {
					throw await withTokenCompany(context, connection, error, typedCompanyId());
				}
			},
		};
	});
}

/**
 * A 404 on a typed Company ID most often means the token is another company's: say whose, when
 * the authorization server can tell. Nothing is lost when it cannot.
 */
async function withTokenCompany(
	context: IExecuteFunctions,
	connection: Connection,
	error: unknown,
	typedCompanyId: string,
): Promise<unknown> {
	if (!(error instanceof PartnerPayrollApiError) || error.httpCode !== '404') return error;
	if (!typedCompanyId || !connection.authServerUrl || !connection.accessToken) return error;
	const tokenCompany = await introspectToken(context, connection).then(
		(introspection) => (introspection.active ? introspection.company_id : undefined),
		() => undefined,
	);
	if (tokenCompany && tokenCompany !== typedCompanyId) {
		// Said once: the 404's own description already explains that a token sees only its company.
		error.description = `The token of this credential is for company ${tokenCompany}, and Company ID is ${typedCompanyId}. ${error.description ?? ''}`;
	}
	return error;
}
