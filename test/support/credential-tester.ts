import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	ICredentialType,
	INodeType,
} from 'n8n-workflow';

import { PartnerPayroll } from '../../nodes/PartnerPayroll/PartnerPayroll.node';
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
 * What n8n's CredentialsTester does for a credential without a test request: the function a node
 * names in `testedBy` runs with a credential-test context (n8n-core's CredentialTestContext).
 */
async function testByNode(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const node = new PartnerPayroll();
	const testedBy = node.description.credentials?.find(
		(credential) => credential.name === credentialType.name,
	)?.testedBy;
	const test = node.methods.credentialTest[testedBy as keyof typeof node.methods.credentialTest] as
		| ICredentialTestFunction
		| undefined;
	if (!test) throw new Error(`no credential test for ${credentialType.name}`);
	return (await test.call(new CredentialTestContext(), {
		id: 'credential-test',
		name: credentialType.displayName,
		type: credentialType.name,
		data,
	})) as CredentialTestResult;
}

/**
 * What n8n's credential dialog does on "Test": a node's test function when the credential has no
 * test request; otherwise the request runs through the routing engine on a throwaway node, then its
 * rules read the answer (n8n 2.8 CredentialsTester).
 */
export async function testCredential(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	if (!credentialType.test) return await testByNode(credentialType, data);
	const testRequest = credentialType.test;
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
