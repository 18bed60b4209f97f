import type { ICredentialDataDecryptedObject, ICredentialType, INodeType } from 'n8n-workflow';

import { runDeclarativeNode } from './n8n-harness';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

function valueAt(object: unknown, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], object);
}

/**
 * What n8n's credential dialog does on "Test": the credential's test request runs through the
 * routing engine on a throwaway node, then its rules read the answer (n8n 2.8 CredentialsTester).
 */
export async function testCredential(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const testRequest = credentialType.test!;
	const throwaway: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['input'],
			version: 1,
			description: '',
			defaults: { name: 'Temp-Node' },
			inputs: [],
			outputs: [],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: testRequest.request },
				},
			],
		},
	};
	let items;
	try {
		items = await runDeclarativeNode(throwaway, {
			parameters: {},
			credentials: { [credentialType.name]: data },
		});
	} catch (error) {
		const status = (error as { httpCode?: string }).httpCode;
		return {
			status: 'Error',
			message: status ? `Received HTTP status code: ${status}` : (error as Error).message,
		};
	}
	for (const rule of testRequest.rules ?? []) {
		if (
			rule.type === 'responseSuccessBody' &&
			valueAt(items[0]?.json, rule.properties.key) === rule.properties.value
		) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
