import type { INodeProperties } from 'n8n-workflow';

import type { RequestOptions } from '../../shared/connection';

// The node's Settings > Request Options. n8n adds this collection to declarative nodes only; the
// node declares it itself, with the same names, so saved workflows keep their settings.

/** One attempt may wait this long for a byte when no Timeout is set: slow exports take time. */
export const NODE_ATTEMPT_TIMEOUT_MS = 120_000;

/** What the node's errors advise, in terms of the options below. */
export const NODE_RATE_LIMIT_ADVICE =
	'Send fewer requests at once: in this node, Add Option > Request Options > Batching (for example 10 items per batch every 1000 ms).';

export const NODE_TIMEOUT_ADVICE =
	'For a slow export, raise the time one attempt may wait: in this node, Settings > Request Options > Timeout (ms).';

// n8n quirk Q12: docs/n8n-quirks.md
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	isNodeSetting: true,
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Batching',
			name: 'batching',
			placeholder: 'Add Batching',
			type: 'fixedCollection',
			typeOptions: { multipleValues: false },
			default: { batch: {} },
			options: [
				{
					displayName: 'Batching',
					name: 'batch',
					values: [
						{
							displayName: 'Items per Batch',
							name: 'batchSize',
							type: 'number',
							typeOptions: { minValue: -1 },
							default: 50,
							description:
								'Input will be split in batches to throttle requests. -1 for disabled. 0 will be treated as 1.',
						},
						{
							displayName: 'Batch Interval (Ms)',
							name: 'batchInterval',
							type: 'number',
							typeOptions: { minValue: 0 },
							default: 1000,
							description: 'Time (in milliseconds) between each batch of requests. 0 for disabled.',
						},
					],
				},
			],
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'allowUnauthorizedCerts',
			type: 'boolean',
			noDataExpression: true,
			default: false,
			description: 'Whether to connect even if SSL certificate validation is not possible',
		},
		{
			displayName: 'Proxy',
			name: 'proxy',
			type: 'string',
			default: '',
			placeholder: 'e.g. http://myproxy:3128',
			description:
				'HTTP proxy to use. If authentication is required it can be defined as follow: http://username:password@myproxy:3128.',
		},
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: NODE_ATTEMPT_TIMEOUT_MS,
			description:
				'Time in ms one attempt may wait for the answer to start or go on. A read is then sent again, up to 4 attempts; a write never. Without it: 120000 (2 minutes).',
		},
	],
};

export interface NodeRequestOptions extends RequestOptions {
	batching?: { batch?: { batchSize?: number; batchInterval?: number } };
}
