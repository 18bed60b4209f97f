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
		// As n8n's CredentialsTester: the status of the answer, a responseCode rule's message for it.
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			const status = cause.response.status;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			return {
				status: 'Error',
				message: cause.response.statusText || `Received HTTP status code: ${status}`,
			};
		}
		if (cause?.code) return { status: 'Error', message: cause.code };
		return { status: 'Error', message: (error as Error).message };
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
