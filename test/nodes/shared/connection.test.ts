import type { IExecuteFunctions, IPollFunctions } from 'n8n-workflow';

import { readConnection } from '../../../nodes/shared/connection';
import { authenticationField } from '../../../nodes/shared/descriptions';

// Review finding 7: with no `authentication` stored, the connection reads the credential the
// field's own default selects.

function contextWithoutAuthentication(kind: 'node' | 'trigger') {
	const asked: string[] = [];
	const getCredentials = async (type: string) => {
		asked.push(type);
		return { baseUrl: 'https://api.example.com', oauthTokenData: { access_token: 'dummy' } };
	};
	const context =
		kind === 'node'
			? {
					getInputData: () => [{ json: {} }],
					getNodeParameter: (_name: string, _index: number, fallback: unknown) => fallback,
					getCredentials,
				}
			: { getNodeParameter: (_name: string, fallback: unknown) => fallback, getCredentials };
	return { context: context as unknown as IExecuteFunctions | IPollFunctions, asked };
}

describe('readConnection', () => {
	it.each(['node', 'trigger'] as const)(
		'in a %s, falls back to the Authentication field default (OAuth2)',
		async (kind) => {
			const { context, asked } = contextWithoutAuthentication(kind);
			await readConnection(context, { rateLimitAdvice: '' });
			expect(authenticationField.default).toBe('oAuth2');
			expect(asked).toEqual(['partnerPayrollOAuth2Api']);
		},
	);
});
