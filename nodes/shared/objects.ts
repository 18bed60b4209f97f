import type { IDataObject } from 'n8n-workflow';

/** A plain object (not null, not an array): what a JSON answer, a body or stored state must be to be read. */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
