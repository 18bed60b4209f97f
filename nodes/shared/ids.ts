import type { INode, INodeProperties } from 'n8n-workflow';

import { parameterError } from './errors';

// The ids a user gives, the Company ID field among them. An id is one path segment of the API.
// Whatever would climb out of it or let URL parsing change the path (a slash or backslash, also
// percent-encoded, `.`, `..`, control characters) is refused before any request, so a request never
// leaves the path it was built for.

/** The Company ID field of the node and the trigger: empty stands for the company of the token. */
export const companyIdField: INodeProperties = {
	displayName: 'Company ID',
	name: 'companyId',
	type: 'string',
	default: '',
	placeholder: 'Leave empty for the company of the token',
	description:
		'ID of the company to read. Leave empty to use the company the token was issued for (found once per execution through the authorization server).',
};

/** A percent-encoded value decoded, or as it stands when it does not decode. */
export function decoded(value: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return value;
	}
}

/** A character below space or DEL: never part of an id, and URL parsing drops some of them. */
export function hasControlCharacter(value: string): boolean {
	return [...value].some((char) => char < ' ' || char === '\u007f');
}

/** The id as typed (trimmed), or an error that names the field. Empty ids are the caller's to handle. */
export function checkedId(value: unknown, field: string, node: INode, itemIndex?: number): string {
	const id = String(value ?? '').trim();
	const forms = [id, decoded(id)];
	const refused = (form: string) =>
		/[\\/]/.test(form) || hasControlCharacter(form) || form === '.' || form === '..';
	if (forms.some(refused)) {
		throw parameterError(
			node,
			`${field} must be a single id, without "/", "\\", "%2F", "%5C", control characters, "." or ".." (got ${JSON.stringify(id)})`,
			{
				itemIndex,
				description:
					'An id is sent as one segment of the API path; use the id exactly as the API returns it.',
			},
		);
	}
	return id;
}
